// Unit tests of LoopWeights (analyses/divergence/LoopWeights.h): trip counts
// read from counted for-headers, and how often a statement runs per call.
#include "divergence/LoopWeights.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::occlint;

namespace {

/// The trip count of the only loop of `void f() { LOOP }`.
std::optional<int64_t> tripOf(const std::string &Loop) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCode("void g(int); void f(int n) { " + Loop + " }");
  auto Found = match(stmt(anyOf(forStmt(), whileStmt(), doStmt())).bind("loop"), AST->getASTContext());
  EXPECT_EQ(Found.size(), 1u) << Loop;
  if (Found.empty())
    return std::nullopt;
  return LoopWeights::constantTripCount(Found[0].getNodeAs<Stmt>("loop"), AST->getASTContext());
}

TEST(LoopWeights, CountedForHeaders) {
  EXPECT_EQ(tripOf("for (int k = 0; k < 8; ++k) g(k);"), 8);
  EXPECT_EQ(tripOf("for (int k = 0; k <= 8; k++) g(k);"), 9);
  EXPECT_EQ(tripOf("for (int k = 1; k < 32; k += 4) g(k);"), 8);
  EXPECT_EQ(tripOf("for (int k = 10; k > 0; --k) g(k);"), 10);
  EXPECT_EQ(tripOf("for (int k = 10; k >= 0; k -= 2) g(k);"), 6);
  EXPECT_EQ(tripOf("for (int k = 10; k != 0; --k) g(k);"), 10);
  EXPECT_EQ(tripOf("for (int k = 0; k != 12; k += 4) g(k);"), 3);
  EXPECT_EQ(tripOf("for (int k = 8; k < 8; ++k) g(k);"), 0);
  // Not counted: a run-time bound, a counter moving away, a step over the
  // bound, a non-additive step, other loops, bounds at the ends of 64 bits.
  EXPECT_EQ(tripOf("for (int k = 0; k < n; ++k) g(k);"), std::nullopt);
  EXPECT_EQ(tripOf("for (int k = 0; k < 8; --k) g(k);"), std::nullopt);
  EXPECT_EQ(tripOf("for (int k = 0; k != 7; k += 2) g(k);"), std::nullopt);
  EXPECT_EQ(tripOf("for (int k = 1; k < 64; k *= 2) g(k);"), std::nullopt);
  EXPECT_EQ(tripOf("while (n > 0) g(n--);"), std::nullopt);
  EXPECT_EQ(tripOf("for (long k = -9223372036854775807L - 1; k < 9223372036854775807L; ++k) g(1);"), std::nullopt);
}

TEST(LoopWeights, WeightsMultiplyAlongTheNest) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCode(R"cpp(
void g(int);
void f(int n) {
  g(0);
  for (int i = 0; i < 3; i++) {
    g(1);
    for (int j = 0; j < n; j++)
      g(2);
  }
}
)cpp");
  ASTContext &Ctx = AST->getASTContext();
  auto Body = match(functionDecl(hasName("f")).bind("f"), Ctx)[0].getNodeAs<FunctionDecl>("f")->getBody();
  const LoopWeights W(Body, Ctx);
  double Weights[3] = {0, 0, 0};
  for (const auto &M :
       match(findAll(callExpr(hasArgument(0, integerLiteral().bind("arg"))).bind("call")), *Body, Ctx)) {
    const auto *Arg = M.getNodeAs<IntegerLiteral>("arg");
    Weights[Arg->getValue().getZExtValue()] = W.weight(M.getNodeAs<Stmt>("call"));
  }
  EXPECT_EQ(Weights[0], 1.0);
  EXPECT_EQ(Weights[1], 3.0);
  EXPECT_EQ(Weights[2], 3.0 * LoopWeights::UnknownTripCount);
}

} // namespace
