// Plain host code with a deliberate warning, so the mixed build log also
// carries unrelated compiler output.
int unusedVariable() {
  int never_used = 42;
  return 0;
}
