// Unit tests of AstWalker, the one RecursiveASTVisitor every walk of occlint
// derives from: the hooks are called as its header promises, and a walk
// needs no more stack for a 20,000-term expression than for a short one
// (RecursiveASTVisitor's data recursion, which Clang's
// DynamicRecursiveASTVisitor does not keep).
#include "ast/AstWalker.h"

#include "ParsedSnippet.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace clang;
using clang::tidy::occlint::AstWalker;

namespace {

// Records every hook call as "enter/visit/leave <StmtClass>" or
// "enterDecl/visitDecl/leaveDecl <DeclKind>".
class Recorder : public AstWalker {
public:
  explicit Recorder(bool Instantiations = false) { VisitTemplateInstantiations = Instantiations; }
  std::vector<std::string> Events;
  std::string SkipStmt;   // enterStmt answers false for this class
  std::string StopAtStmt; // visitStmt answers false for this class
  std::string SkipDecl;   // enterDecl answers false for this kind

protected:
  bool enterStmt(Stmt *S) override {
    Events.push_back(std::string("enter ") + S->getStmtClassName());
    return SkipStmt != S->getStmtClassName();
  }
  bool visitStmt(Stmt *S) override {
    Events.push_back(std::string("visit ") + S->getStmtClassName());
    return StopAtStmt != S->getStmtClassName();
  }
  void leaveStmt(Stmt *S) override { Events.push_back(std::string("leave ") + S->getStmtClassName()); }
  bool enterDecl(Decl *D) override {
    Events.push_back(std::string("enterDecl ") + D->getDeclKindName());
    return SkipDecl != D->getDeclKindName();
  }
  bool visitDecl(Decl *D) override {
    Events.push_back(std::string("visitDecl ") + D->getDeclKindName());
    return true;
  }
  void leaveDecl(Decl *D) override { Events.push_back(std::string("leaveDecl ") + D->getDeclKindName()); }
};

std::vector<std::string> without(const std::vector<std::string> &Events, const std::string &Prefix) {
  std::vector<std::string> Out;
  for (const std::string &E : Events)
    if (E.rfind(Prefix, 0) != 0)
      Out.push_back(E);
  return Out;
}

TEST(AstWalker, BracketsEachStatementAroundItsVisitAndItsSubtree) {
  occlint::testing::ParsedSnippet Snippet("int f(int x) { int y = x; return y; }");
  ASSERT_TRUE(Snippet.parsed());
  Recorder R;
  EXPECT_TRUE(R.traverseStmt(Snippet.definition("f")->getBody()));
  // The variable's initializer is bracketed inside its DeclStmt's bracket,
  // and inside the declaration's own.
  const std::vector<std::string> Expected = {
      "enter CompoundStmt",     "visit CompoundStmt",     "enter DeclStmt",         "visit DeclStmt",
      "enterDecl Var",          "visitDecl Var",          "enter ImplicitCastExpr", "visit ImplicitCastExpr",
      "enter DeclRefExpr",      "visit DeclRefExpr",      "leave DeclRefExpr",      "leave ImplicitCastExpr",
      "leaveDecl Var",          "leave DeclStmt",         "enter ReturnStmt",       "visit ReturnStmt",
      "enter ImplicitCastExpr", "visit ImplicitCastExpr", "enter DeclRefExpr",      "visit DeclRefExpr",
      "leave DeclRefExpr",      "leave ImplicitCastExpr", "leave ReturnStmt",       "leave CompoundStmt"};
  EXPECT_EQ(R.Events, Expected);
}

TEST(AstWalker, EnterAnsweringFalseSkipsTheSubtreeAndVisitAnsweringFalseStopsTheWalk) {
  occlint::testing::ParsedSnippet Snippet("int f(int x) { if (x) return 1; return x + 2; }");
  ASSERT_TRUE(Snippet.parsed());
  Recorder Skip;
  Skip.SkipStmt = "IfStmt";
  EXPECT_TRUE(Skip.traverseStmt(Snippet.definition("f")->getBody()));
  const std::vector<std::string> Visited = without(without(Skip.Events, "enter "), "leave ");
  EXPECT_EQ(Visited, (std::vector<std::string>{"visit CompoundStmt", "visit ReturnStmt", "visit BinaryOperator",
                                               "visit ImplicitCastExpr", "visit DeclRefExpr", "visit IntegerLiteral"}));
  Recorder Stop;
  Stop.StopAtStmt = "IfStmt";
  EXPECT_FALSE(Stop.traverseStmt(Snippet.definition("f")->getBody()));
  EXPECT_EQ(Stop.Events.back(), "visit IfStmt");
}

TEST(AstWalker, DeclarationsAreBracketedAndCanBeSkipped) {
  occlint::testing::ParsedSnippet Snippet("int f() { return 1; }\nint g() { return 2; }");
  ASSERT_TRUE(Snippet.parsed());
  Recorder R;
  R.SkipDecl = "Function";
  EXPECT_TRUE(R.traverseDecl(Snippet.context().getTranslationUnitDecl()));
  EXPECT_EQ(std::count(R.Events.begin(), R.Events.end(), "enterDecl Function"), 2);
  for (const std::string &E : R.Events)
    EXPECT_TRUE(E.rfind("enter ", 0) != 0 && E.rfind("visitDecl Function", 0) != 0)
        << E << ": a skipped function's declaration and body are not walked";
  Recorder All;
  EXPECT_TRUE(All.traverseAST(Snippet.context()));
  EXPECT_EQ(std::count(All.Events.begin(), All.Events.end(), "visit ReturnStmt"), 2);
  EXPECT_EQ(std::count(All.Events.begin(), All.Events.end(), "enterDecl Function"),
            std::count(All.Events.begin(), All.Events.end(), "leaveDecl Function"));
}

TEST(AstWalker, TemplateInstantiationsAreWalkedOnlyWhenAsked) {
  occlint::testing::ParsedSnippet Snippet(
      "template <class T> T twice(T t) { return t + t; }\nint f() { return twice(1) + twice(2L); }");
  ASSERT_TRUE(Snippet.parsed());
  auto Returns = [&](bool Instantiations) {
    Recorder R(Instantiations);
    R.traverseAST(Snippet.context());
    return std::count(R.Events.begin(), R.Events.end(), "visit ReturnStmt");
  };
  EXPECT_EQ(Returns(false), 2); // the pattern's and f's
  EXPECT_EQ(Returns(true), 4);  // and twice<int>'s, twice<long>'s
}

// The stack a walk uses below its start, measured at every statement.
class StackDepth : public AstWalker {
public:
  std::uintptr_t Deepest = UINTPTR_MAX;
  unsigned References = 0;

protected:
  bool visitStmt(Stmt *S) override {
    // The frame's address, not a local's: AddressSanitizer may put locals
    // on a fake stack of its own.
    Deepest = std::min(Deepest, reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
    References += isa<DeclRefExpr>(S);
    return true;
  }
};

std::uintptr_t stackUsedToWalk(const std::string &Code, unsigned &References) {
  occlint::testing::ParsedSnippet Snippet(Code);
  EXPECT_TRUE(Snippet.parsed());
  StackDepth Walk;
  const std::uintptr_t Start = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  Walk.traverseStmt(Snippet.definition("f")->getBody());
  References = Walk.References;
  return Start - Walk.Deepest;
}

TEST(AstWalker, ATwentyThousandTermSumNeedsNoMoreStackThanAShortOne) {
  std::string Sum = "x";
  for (int I = 1; I < 20000; ++I)
    Sum += " + x";
  unsigned LongReferences = 0, ShortReferences = 0;
  const std::uintptr_t Long = stackUsedToWalk("int f(int x) { return " + Sum + "; }", LongReferences);
  const std::uintptr_t Short = stackUsedToWalk("int f(int x) { return x + x; }", ShortReferences);
  EXPECT_EQ(LongReferences, 20000u);
  EXPECT_EQ(ShortReferences, 2u);
  // A walk that recursed once per level would need megabytes here (about
  // 300 bytes a level: Clang's DynamicRecursiveASTVisitor).
  EXPECT_LT(Long, Short + 16 * 1024) << "stack used: " << Long << " bytes for 20,000 terms, " << Short << " for 2";
}

} // namespace
