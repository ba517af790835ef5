// Unit tests of ReadOnlyUses: which variables a body only reads. Every case
// is also asked of Clang's ExprMutationAnalyzer, which ReadOnlyUses stands
// in front of: a variable found only read must never be one the analyzer
// finds mutated (the fast path answers the same question, never a different
// one); the other uses are left to the analyzer, whatever it says.
#include "values/ReadOnlyUses.h"

#include "ParsedSnippet.h"

#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

#include <gtest/gtest.h>

#include <string>

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::occlint::ReadOnlyUses;

namespace {

struct Answer {
  bool onlyRead;
  bool mutatedPerClang;
};

// The answers for the one variable `n` of Code, in the body of its function `f`.
Answer askAbout(const std::string &Code) {
  occlint::testing::ParsedSnippet Snippet(Code);
  EXPECT_TRUE(Snippet.parsed()) << Code;
  const FunctionDecl *F = Snippet.definition("f");
  if (!F)
    return {false, true};
  auto Found = match(varDecl(hasName("n")).bind("n"), Snippet.context());
  const VarDecl *N = Found.size() == 1 ? Found.front().getNodeAs<VarDecl>("n") : nullptr;
  EXPECT_NE(N, nullptr) << Code;
  if (!N)
    return {false, true};
  ReadOnlyUses Uses(*F->getBody());
  ExprMutationAnalyzer Analyzer(*F->getBody(), Snippet.context());
  return {Uses.onlyRead(*N), Analyzer.isMutated(N)};
}

TEST(ReadOnlyUses, PlainReadsAreOnlyReads) {
  for (const char *Code : {
           "int f(int n) { return n + 1; }",
           "float f(const float *a, float *n) { return n[3] * a[0] + n[1]; }",
           "int f(int n) { int m = n; auto g = [n] { return n; }; return m + g(); }",
           "void g(int); void f(int n) { g(n); g(n * 2); }",
           "int f() { int n = 3; return n; }",
           "int f(int n) { return 0; }",
       }) {
    const Answer A = askAbout(Code);
    EXPECT_TRUE(A.onlyRead) << Code;
    EXPECT_FALSE(A.mutatedPerClang) << Code;
  }
}

TEST(ReadOnlyUses, AnyOtherUseIsLeftToTheAnalyzer) {
  for (const char *Code : {
           "void f(int n) { n = 2; }",
           "void f(int n) { ++n; }",
           "void f(int n) { int &r = n; r = 1; }",
           "void f(int n) { int *p = &n; *p = 1; }",
           "void g(int &); void f(int n) { g(n); }",
           "void f(int n) { auto g = [&] { n = 1; }; g(); }",
           "void f(int n) { auto g = [&n] { return n; }; g(); }",
           "unsigned long f(int n) { return sizeof(n); }",
           "struct S { int x; }; void f(S n) { n.x = 1; }",
       }) {
    const Answer A = askAbout(Code);
    EXPECT_FALSE(A.onlyRead) << Code;
  }
}

} // namespace
