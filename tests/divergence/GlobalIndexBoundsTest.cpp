// Unit tests of GlobalIndexBounds (analyses/divergence/GlobalIndexBounds.h):
// which blocks a bound on a global index splits, and the locals that nothing
// writes after their initialisation.
#include "divergence/GlobalIndexBounds.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::tidy::occlint;

namespace {

TEST(GlobalIndexBounds, ABoundSplitsABlockOnlyInsideItAndInsideTheGrid) {
  // 8 blocks of 256 threads: global indices 0 .. 2047.
  EXPECT_TRUE(globalBoundSplitsABlock(BO_LT, 1000, 256, 8));  // block 3 holds 768 .. 1023
  EXPECT_FALSE(globalBoundSplitsABlock(BO_LT, 1024, 256, 8)); // a block edge
  EXPECT_FALSE(globalBoundSplitsABlock(BO_LT, 5000, 256, 8)); // past the grid: every thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_LT, 0, 256, 8));    // no thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_LT, -5, 256, 8));   // no thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_LE, 1023, 256, 8)); // <= 1023 is < 1024
  EXPECT_TRUE(globalBoundSplitsABlock(BO_LE, 1024, 256, 8));
  EXPECT_FALSE(globalBoundSplitsABlock(BO_GE, 512, 256, 8));
  EXPECT_TRUE(globalBoundSplitsABlock(BO_GT, 512, 256, 8));   // 513 .. : block 2 cut after its first thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_GT, 2047, 256, 8)); // no thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_GE, -1, 256, 8));   // every thread
  EXPECT_FALSE(globalBoundSplitsABlock(BO_EQ, 1000, 256, 8)); // not a bound
  // The largest grid: no overflow.
  EXPECT_TRUE(globalBoundSplitsABlock(BO_LT, (int64_t(1) << 40) + 1, 1024, 2147483647));
}

/// The locals of `f` in `Code` that UnwrittenLocals keeps, by name.
std::vector<std::string> unwrittenIn(const std::string &Code) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCode(Code);
  ASTContext &Ctx = AST->getASTContext();
  const auto *F = match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ctx)[0].getNodeAs<FunctionDecl>("f");
  const UnwrittenLocals Locals(*F);
  std::vector<std::string> Out;
  for (const BoundNodes &N : match(varDecl(hasAncestor(functionDecl(hasName("f")))).bind("v"), Ctx))
    if (const auto *VD = N.getNodeAs<VarDecl>("v"); Locals.contains(VD))
      Out.push_back(VD->getNameAsString());
  return Out;
}

TEST(GlobalIndexBounds, LocalsWrittenAfterTheirInitialisationAreLeftOut) {
  EXPECT_EQ(unwrittenIn(R"cpp(
void g(int);
void h(int &);
void k(int *);
void f(int n) {
  int read = n * 2;
  g(read);
  int assigned = n;
  assigned = 3;
  int incremented = n;
  ++incremented;
  int compound = n;
  compound += 2;
  int referenced = n;
  h(referenced);
  int pointed = n;
  k(&pointed);
  int bound = n;
  int &alias = bound;
  g(read + alias);
}
)cpp"),
            std::vector<std::string>{"read"});
}

} // namespace
