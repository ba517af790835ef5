// Unit tests of BodyWrites::reachingWrite: C++ snippets parsed with Clang;
// each read under test is the argument of a probe(v) call, and the test
// names the write it must see (the line of the assignment, "incoming", or
// not known).
#include "values/ReachingWrites.h"

#include "ParsedSnippet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::occlint::BodyWrites;
using clang::tidy::occlint::ReachingWrite;
using clang::tidy::occlint::StatementParents;
using clang::tidy::occlint::WrittenPlace;

namespace {

class Function {
public:
  explicit Function(const std::string &Code) : Snippet("void probe(int);\n" + Code) {}

  bool parsed() const { return Snippet.parsed(); }

  /// What the Index-th probe(...) of function F (in the text's order) reads:
  /// "line N" (the assignment's line, "if N" for a clamp, "K arms at N"
  /// for an if-else chain assigning in every arm), "incoming" or "not known".
  std::string seen(const std::string &F, unsigned Index) {
    ASTContext &Ctx = Snippet.context();
    const FunctionDecl *FD = Snippet.definition(F);
    if (!FD)
      return "no function";
    auto Reads =
        match(findAll(callExpr(callee(functionDecl(hasName("probe"))),
                               hasArgument(0, ignoringImpCasts(expr(anyOf(declRefExpr(), memberExpr())).bind("read"))))
                          .bind("call")),
              *FD->getBody(), Ctx);
    std::vector<const Expr *> Found;
    for (const BoundNodes &N : Reads)
      Found.push_back(N.getNodeAs<Expr>("read"));
    const SourceManager &SM = Ctx.getSourceManager();
    std::sort(Found.begin(), Found.end(), [&](const Expr *A, const Expr *B) {
      return SM.getFileOffset(A->getBeginLoc()) < SM.getFileOffset(B->getBeginLoc());
    });
    if (Found.size() <= Index)
      return "no probe";
    StatementParents Parents(*FD->getBody());
    BodyWrites Writes(*FD->getBody(), Parents, SM);
    // `probe(v)` reads the variable; `probe(s.m)` the member m of s.
    const auto *Member = dyn_cast<MemberExpr>(Found[Index]);
    const auto *Ref = cast<DeclRefExpr>(Member ? Member->getBase()->IgnoreParenImpCasts() : Found[Index]);
    const WrittenPlace V(*cast<VarDecl>(Ref->getDecl()),
                         Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr);
    ReachingWrite R = Writes.reachingWrite(V, *Found[Index]);
    switch (R.kind) {
    case ReachingWrite::Kind::NotKnown:
      return "not known";
    case ReachingWrite::Kind::Incoming:
      return "incoming";
    case ReachingWrite::Kind::Assignment:
      return "line " + std::to_string(SM.getSpellingLineNumber(R.assignment->getBeginLoc()) - 1);
    case ReachingWrite::Kind::Conditional:
      return "if " + std::to_string(SM.getSpellingLineNumber(R.condition->getBeginLoc()) - 1);
    case ReachingWrite::Kind::Cases:
      return std::to_string(Writes.caseWrites(V, *R.selector).size()) + " groups at " +
             std::to_string(SM.getSpellingLineNumber(R.selector->getBeginLoc()) - 1);
    case ReachingWrite::Kind::Branches:
      return std::to_string(Writes.armWrites(V, *R.condition).size()) + " arms at " +
             std::to_string(SM.getSpellingLineNumber(R.condition->getBeginLoc()) - 1);
    }
    return "?";
  }

private:
  occlint::testing::ParsedSnippet Snippet;
};

#define FUNCTION(Var, Code)                                                                                            \
  Function Var(Code);                                                                                                  \
  ASSERT_TRUE(Var.parsed())

// Line numbers below count from 1 at the snippet's first line.
TEST(ReachingWritesTest, AssignmentsAndClampsBeforeTheRead) {
  FUNCTION(F, "void f(int n, int c) {\n"        // 1
              "  probe(n);\n"                   // 2: incoming
              "  n = n / 2;\n"                  // 3
              "  probe(n);\n"                   // 4: line 3
              "  if (n < 32) n = 32;\n"         // 5
              "  probe(n);\n"                   // 6: the clamp of line 5
              "  { probe(n); }\n"               // 7: a block further down: the clamp
              "  if (c) { n = 1; }\n"           // 8: a clamp too (one statement in braces)
              "  if (c) { n = 2; probe(n); }\n" // 9: line 9, in its own block
              "  if (c) n = 3; else n = 4;\n"   // 10
              "  probe(n);\n"                   // 11: the two arms of line 10
              "}\n");
  EXPECT_EQ(F.seen("f", 0), "incoming");
  EXPECT_EQ(F.seen("f", 1), "line 3");
  EXPECT_EQ(F.seen("f", 2), "if 5");
  EXPECT_EQ(F.seen("f", 3), "if 5");
  EXPECT_EQ(F.seen("f", 4), "line 9");
  EXPECT_EQ(F.seen("f", 5), "2 arms at 10");
}

TEST(ReachingWritesTest, IfElseChainsAssigningInEveryArm) {
  FUNCTION(F, "int g();\n"
              "void chain(int n, int m) {\n" // 2
              "  int t;\n"
              "  if (m == 0) t = 64; else if (m == 1) { t = 128; g(); } else t = 256;\n" // 4
              "  probe(t);\n"                                                            // 3 arms at 4
              "}\n"
              "void noFinalElse(int m) {\n"
              "  int t = 32;\n"
              "  if (m == 0) t = 64; else if (m == 1) t = 128;\n"
              "  probe(t);\n" // not known
              "}\n"
              "void twoWritesInAnArm(int m) {\n"
              "  int t;\n"
              "  if (m) { t = 64; t = 96; } else t = 128;\n"
              "  probe(t);\n" // not known
              "}\n"
              "void nestedWriteInAnArm(int m, int k) {\n"
              "  int t;\n"
              "  if (m) { t = 64; if (k) t = 32; } else t = 128;\n"
              "  probe(t);\n" // not known
              "}\n"
              "void writeInACondition(int m) {\n"
              "  int t;\n"
              "  if ((t = m)) t = 64; else t = 128;\n"
              "  probe(t);\n" // not known
              "}\n"
              "void armWithoutWrite(int m) {\n"
              "  int t = 1;\n"
              "  if (m) t = 64; else g();\n"
              "  probe(t);\n" // not known
              "}\n");
  EXPECT_EQ(F.seen("chain", 0), "3 arms at 4");
  EXPECT_EQ(F.seen("noFinalElse", 0), "not known");
  EXPECT_EQ(F.seen("twoWritesInAnArm", 0), "not known");
  EXPECT_EQ(F.seen("nestedWriteInAnArm", 0), "not known");
  EXPECT_EQ(F.seen("writeInACondition", 0), "not known");
  EXPECT_EQ(F.seen("armWithoutWrite", 0), "not known");
}

TEST(ReachingWritesTest, SwitchesAssigningInEveryLabelGroup) {
  FUNCTION(F, "int g();\n"
              "void groups(int k) {\n" // 2
              "  int t;\n"
              "  switch (k) {\n" // 4
              "  case 0: t = 64; break;\n"
              "  case 1: case 2: t = 128; g(); break;\n"
              "  default: t = 256;\n"
              "  }\n"
              "  probe(t);\n" // 3 groups at 4
              "}\n"
              "void noDefault(int k) {\n"
              "  int t = 1;\n"
              "  switch (k) { case 0: t = 64; break; case 1: t = 128; break; }\n"
              "  probe(t);\n" // not known
              "}\n"
              "void fallThrough(int k) {\n"
              "  int t;\n"
              "  switch (k) { case 0: t = 64; case 1: t = 128; break; default: t = 256; }\n"
              "  probe(t);\n" // not known
              "}\n"
              "void writeLaterInAGroup(int k) {\n"
              "  int t;\n"
              "  switch (k) { case 0: g(); t = 64; break; default: t = 256; }\n"
              "  probe(t);\n" // not known
              "}\n"
              "enum class Mode { A, B };\n"
              "void everyEnumerator(Mode m) {\n"
              "  int t = 0;\n"
              "  switch (m) { case Mode::A: t = 64; break; case Mode::B: t = 128; break; }\n"
              "  probe(t);\n" // 2 groups
              "}\n"
              "void notEveryEnumerator(Mode m) {\n"
              "  int t = 0;\n"
              "  switch (m) { case Mode::A: t = 64; break; }\n"
              "  probe(t);\n" // not known
              "}\n"
              "void secondWrite(int k) {\n"
              "  int t;\n"
              "  switch (k) { case 0: t = 64; if (g()) t = 32; break; default: t = 256; }\n"
              "  probe(t);\n" // not known
              "}\n");
  EXPECT_EQ(F.seen("groups", 0), "3 groups at 4");
  EXPECT_EQ(F.seen("noDefault", 0), "not known");
  EXPECT_EQ(F.seen("fallThrough", 0), "not known");
  EXPECT_EQ(F.seen("writeLaterInAGroup", 0), "not known");
  EXPECT_EQ(F.seen("secondWrite", 0), "not known");
  EXPECT_EQ(F.seen("everyEnumerator", 0).substr(0, 9), "2 groups ");
  EXPECT_EQ(F.seen("notEveryEnumerator", 0), "not known");
}

TEST(ReachingWritesTest, LoopsAndOrderInsideTheStatementOfTheRead) {
  FUNCTION(F, "int g(int, int);\n"
              "void f(int n) {\n"
              "  n = 64;\n"
              "  for (int i = 0; i < 3; ++i) { probe(n); n = 128; }\n" // the next iteration sees 128
              "}\n"
              "void h(int n) {\n"
              "  n = 64;\n"
              "  { probe(n); n = 128; }\n" // after the read, no loop: line 7
              "  n = g(n, 1);\n"
              "}\n"
              "void k(int n) {\n"
              "  while (n < 100) { probe(n); }\n" // no write in the loop: incoming
              "  n = 5;\n"
              "}\n");
  EXPECT_EQ(F.seen("f", 0), "not known");
  EXPECT_EQ(F.seen("h", 0), "line 7");
  EXPECT_EQ(F.seen("k", 0), "incoming");
}

TEST(ReachingWritesTest, VariablesThatEscapeOrJumpsAreNotFollowed) {
  FUNCTION(F, "void set(int *);\n"
              "void setRef(int &);\n"
              "void useRef(const int &);\n"
              "void addressTaken(int n) { n = 1; set(&n); probe(n); }\n"
              "void modifiableReference(int n) { n = 1; setRef(n); probe(n); }\n"
              "void constReference(int n) { n = 1; useRef(n); probe(n); }\n"
              "void incremented(int n) { n = 1; ++n; probe(n); }\n"
              "void captured(int n) { n = 1; auto l = [&] { n = 2; }; l(); probe(n); }\n"
              "void jumps(int n) { n = 1; goto done; done: probe(n); }\n"
              "void caseLabel(int n, int k) {\n"
              "  switch (k) {\n"
              "  case 0: n = 1;\n"
              "  case 1: probe(n);\n" // a jump to case 1 skips n = 1
              "  }\n"
              "}\n"
              "void caseWithoutWrite(int n, int k) {\n"
              "  switch (k) { case 0: probe(n); break; case 1: break; }\n"
              "  n = 3;\n"
              "}\n");
  EXPECT_EQ(F.seen("addressTaken", 0), "not known");
  EXPECT_EQ(F.seen("modifiableReference", 0), "not known");
  EXPECT_EQ(F.seen("constReference", 0), "line 6");
  EXPECT_EQ(F.seen("incremented", 0), "not known");
  EXPECT_EQ(F.seen("captured", 0), "not known");
  EXPECT_EQ(F.seen("jumps", 0), "not known");
  EXPECT_EQ(F.seen("caseLabel", 0), "not known");
  EXPECT_EQ(F.seen("caseWithoutWrite", 0), "incoming");
}

// The integer members of a local object are places of their own: each read
// through its writes while every use of the object names a member, copies it
// or binds it to a reference to const.
TEST(ReachingWritesTest, MembersOfALocalObject) {
  FUNCTION(F, "struct S { int a = 1; int b = 2; };\n" // 1
              "void copy(S);\n"                       // 2
              "void f(int c) {\n"                     // 3
              "  S s;\n"                              // 4
              "  probe(s.a);\n"                       // 5: incoming
              "  s.a = 64;\n"                         // 6
              "  probe(s.a);\n"                       // 7: line 6
              "  probe(s.b);\n"                       // 8: incoming (a write of a is not one of b)
              "  if (c) s.b = 8;\n"                   // 9
              "  copy(s);\n"                          // 10: a copy reads the members
              "  probe(s.b);\n"                       // 11: the clamp of line 9
              "}\n"
              "void g(S *out) {\n" // 13
              "  S t;\n"           // 14
              "  t.a = 4;\n"       // 15
              "  out = &t;\n"      // 16: its address: not followed
              "  probe(t.a);\n"    // 17
              "}\n"
              "void h() {\n"    // 19
              "  S u;\n"        // 20
              "  u.a += 4;\n"   // 21: a compound assignment of a
              "  probe(u.a);\n" // 22: not known
              "  probe(u.b);\n" // 23: b is still followed
              "}\n");
  EXPECT_EQ(F.seen("f", 0), "incoming");
  EXPECT_EQ(F.seen("f", 1), "line 6");
  EXPECT_EQ(F.seen("f", 2), "incoming");
  EXPECT_EQ(F.seen("f", 3), "if 9");
  EXPECT_EQ(F.seen("g", 0), "not known");
  EXPECT_EQ(F.seen("h", 0), "not known");
  EXPECT_EQ(F.seen("h", 1), "incoming");
}

TEST(ReachingWritesTest, MembersOfAParameterPassedByValue) {
  FUNCTION(F, "struct S { int a = 1; int b = 2; };\n" // 1
              "void fill(S &);\n"                     // 2
              "void f(S s) {\n"                       // 3
              "  probe(s.a);\n"                       // 4: incoming (the caller's)
              "  s.a = 64;\n"                         // 5
              "  probe(s.a);\n"                       // 6: line 5
              "  probe(s.b);\n"                       // 7: incoming
              "}\n"
              "void g(S s) {\n" // 9
              "  fill(s);\n"    // 10: a modifiable reference: not followed
              "  probe(s.a);\n" // 11
              "}\n");
  EXPECT_EQ(F.seen("f", 0), "incoming");
  EXPECT_EQ(F.seen("f", 1), "line 5");
  EXPECT_EQ(F.seen("f", 2), "incoming");
  EXPECT_EQ(F.seen("g", 0), "not known");
}

} // namespace
