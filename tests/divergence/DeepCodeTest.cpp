// Unit tests of the divergence dataflow on code as deep and long as generated
// code makes it (facts/DeepExpressions.h): a 20,000-term sum and 5,000-term
// conditions are analysed without running out of stack, and as precisely as
// short ones; a variable leaves the state at the end of its scope.
#include "divergence/DivergenceAnalysis.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace clang;
using namespace clang::tidy::occlint;

namespace {

std::vector<std::string> parseArgs() {
  return {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-nocudainc",
          "-nocudalib", "-resource-dir=" OCCLINT_CLANG_RESOURCE_DIR, "-std=c++17",
          "-Wno-unknown-cuda-version", "-isystem", OCCLINT_SOURCE_DIR "/tool/builtin-cuda",
          "-include", "occlint_cuda_builtin.h"};
}

class Analysed {
public:
  explicit Analysed(const std::string &Code) {
    AST = tooling::buildASTFromCodeWithArgs(Code, parseArgs(), "input.cu");
    TranslationUnitFacts::forgetAll();
    DivergenceResults::forgetAll();
    const TranslationUnitFacts &Facts = TranslationUnitFacts::get(AST->getASTContext(), FactsOptions{});
    R = &DivergenceResults::get(AST->getASTContext(), Facts);
  }
  ~Analysed() {
    DivergenceResults::forgetAll();
    TranslationUnitFacts::forgetAll();
  }
  bool parsed() const { return AST && !AST->getDiagnostics().hasErrorOccurred(); }
  unsigned line(SourceLocation L) const { return AST->getSourceManager().getSpellingLineNumber(L); }

  const DivergenceResults *R = nullptr;

private:
  std::unique_ptr<ASTUnit> AST;
};

// "(v[0] > 0) && (v[1] > 0) && ..." over N terms.
std::string chain(int N, const std::string &Op) {
  std::string S = "(v[0] > 0)";
  for (int I = 1; I < N; ++I)
    S += " " + Op + " (v[" + std::to_string(I % 64) + "] > 0)";
  return S;
}

TEST(DeepCode, UniformSumOfTwentyThousandTermsStaysUniform) {
  std::string Sum = "x[0]";
  for (int I = 1; I < 20000; ++I)
    Sum += " + x[" + std::to_string(I % 64) + "] * " + std::to_string(I % 7 + 1) + ".0f";
  Analysed A("__global__ void k(const float *x, float *out) {\n  float s = " + Sum +
             ";\n  if (s > 0) __syncthreads();\n  out[threadIdx.x] = s;\n}\n");
  ASSERT_TRUE(A.parsed());
  EXPECT_TRUE(A.R->Collectives.empty()) << "every term reads the same element in every thread";
}

TEST(DeepCode, ConditionOfFiveThousandTermsIsAsPreciseAsAShortOne) {
  // Uniform terms only: no finding.
  Analysed Uniform("__global__ void k(const int *v) {\n  if (" + chain(5000, "&&") +
                   ")\n    __syncthreads();\n}\n");
  ASSERT_TRUE(Uniform.parsed());
  EXPECT_TRUE(Uniform.R->Collectives.empty());
  // One thread-dependent term, the last one: the barrier is under a split.
  Analysed Varying("__global__ void k(const int *v) {\n  if (" + chain(5000, "&&") +
                   " && threadIdx.x < 7)\n    __syncthreads();\n}\n");
  ASSERT_TRUE(Varying.parsed());
  ASSERT_EQ(Varying.R->Collectives.size(), 1u);
  EXPECT_EQ(Varying.line(Varying.R->Collectives[0].Ctx.BranchLoc), 2u);
}

TEST(DeepCode, ThousandsOfSequentialLoopsKeepTheirFindings) {
  std::string Loops;
  for (int I = 0; I < 2000; ++I)
    Loops += "  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += p[i];\n";
  Analysed A("__global__ void k(const float *p, float *out, int n) {\n  float acc = 0;\n" + Loops +
             "  if (threadIdx.x < 5)\n    __syncthreads();\n  out[threadIdx.x] = acc;\n}\n");
  ASSERT_TRUE(A.parsed());
  ASSERT_EQ(A.R->Collectives.size(), 1u);
  EXPECT_EQ(A.line(A.R->Collectives[0].Ctx.BranchLoc), 2003u);
}

} // namespace
