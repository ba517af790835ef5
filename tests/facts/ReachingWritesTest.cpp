// Unit tests of BodyWrites::reachingWrite: C++ snippets parsed with Clang;
// each read under test is the argument of a probe(v) call, and the test
// names the write it must see (the line of the assignment, "incoming", or
// not known).
#include "facts/ReachingWrites.h"

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

namespace {

class Function {
public:
  explicit Function(const std::string &Code) : Snippet("void probe(int);\n" + Code) {}

  bool parsed() const { return Snippet.parsed(); }

  /// What the Index-th probe(...) of function F (in the text's order) reads:
  /// "line N" (the assignment's line, "if N" for a clamp), "incoming" or
  /// "not known".
  std::string seen(const std::string &F, unsigned Index) {
    ASTContext &Ctx = Snippet.context();
    const FunctionDecl *FD = Snippet.definition(F);
    if (!FD)
      return "no function";
    auto Reads = match(findAll(callExpr(callee(functionDecl(hasName("probe"))),
                                        hasArgument(0, ignoringImpCasts(declRefExpr().bind("read"))))
                                   .bind("call")),
                       *FD->getBody(), Ctx);
    std::vector<const DeclRefExpr *> Found;
    for (const BoundNodes &N : Reads)
      Found.push_back(N.getNodeAs<DeclRefExpr>("read"));
    const SourceManager &SM = Ctx.getSourceManager();
    std::sort(Found.begin(), Found.end(), [&](const DeclRefExpr *A, const DeclRefExpr *B) {
      return SM.getFileOffset(A->getBeginLoc()) < SM.getFileOffset(B->getBeginLoc());
    });
    if (Found.size() <= Index)
      return "no probe";
    StatementParents Parents(*FD->getBody());
    BodyWrites Writes(*FD->getBody(), Parents, SM);
    const auto *V = cast<VarDecl>(Found[Index]->getDecl());
    ReachingWrite R = Writes.reachingWrite(*V, *Found[Index]);
    switch (R.kind) {
    case ReachingWrite::Kind::NotKnown:
      return "not known";
    case ReachingWrite::Kind::Incoming:
      return "incoming";
    case ReachingWrite::Kind::Assignment:
      return "line " + std::to_string(SM.getSpellingLineNumber(R.assignment->getBeginLoc()) - 1);
    case ReachingWrite::Kind::Conditional:
      return "if " + std::to_string(SM.getSpellingLineNumber(R.condition->getBeginLoc()) - 1);
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
  FUNCTION(F, "void f(int n, int c) {\n" // 1
              "  probe(n);\n"            // 2: incoming
              "  n = n / 2;\n"           // 3
              "  probe(n);\n"            // 4: line 3
              "  if (n < 32) n = 32;\n"  // 5
              "  probe(n);\n"            // 6: the clamp of line 5
              "  { probe(n); }\n"        // 7: a block further down: the clamp
              "  if (c) { n = 1; }\n"    // 8: a clamp too (one statement in braces)
              "  if (c) { n = 2; probe(n); }\n" // 9: line 9, in its own block
              "  if (c) n = 3; else n = 4;\n"   // 10
              "  probe(n);\n"            // 11: not known
              "}\n");
  EXPECT_EQ(F.seen("f", 0), "incoming");
  EXPECT_EQ(F.seen("f", 1), "line 3");
  EXPECT_EQ(F.seen("f", 2), "if 5");
  EXPECT_EQ(F.seen("f", 3), "if 5");
  EXPECT_EQ(F.seen("f", 4), "line 9");
  EXPECT_EQ(F.seen("f", 5), "not known");
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

} // namespace
