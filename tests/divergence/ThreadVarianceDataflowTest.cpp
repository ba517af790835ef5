// Unit tests of the divergence dataflow (DivergenceDataflow.cpp,
// DivergenceAnalysis.cpp) on ASTs built from CUDA snippets with occlint's
// built-in CUDA headers, as in ValueEvaluatorTest.cpp: which branches split
// warps, which collectives are reached by part of the threads, and why.
#include "divergence/BranchLoss.h"
#include "divergence/DivergenceAnalysis.h"
#include "divergence/LoopWeights.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

using namespace clang;
using namespace clang::tidy::occlint;

namespace {

std::vector<std::string> parseArgs() {
  return {"-x",
          "cuda",
          "--cuda-device-only",
          "--cuda-gpu-arch=sm_90",
          "-nocudainc",
          "-nocudalib",
          "-resource-dir=" OCCLINT_CLANG_RESOURCE_DIR,
          "-std=c++17",
          "-Wno-unknown-cuda-version",
          "-isystem",
          OCCLINT_SOURCE_DIR "/tool/builtin-cuda",
          "-include",
          "occlint_cuda_builtin.h"};
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

TEST(ThreadVarianceDataflow, BarrierUnderLaneSplitAndWarpSplit) {
  Analysed A(R"cuda(
__global__ void k(float *p) {
  if (threadIdx.x % 2 == 0)
    __syncthreads();
  if (threadIdx.x < 64)
    __syncthreads();
}
)cuda");
  ASSERT_TRUE(A.parsed());
  ASSERT_EQ(A.R->Collectives.size(), 2u);
  EXPECT_EQ(A.R->Collectives[0].Ctx.Group, 1u);
  EXPECT_EQ(A.R->Collectives[1].Ctx.Group, 32u); // warp-uniform, not block-uniform
  EXPECT_EQ(A.line(A.R->Collectives[1].Ctx.BranchLoc), 5u);
}

TEST(ThreadVarianceDataflow, ClassicReductionIsClean) {
  Analysed A(R"cuda(
__global__ void reduce(const float *in, float *out) {
  extern __shared__ float s[];
  unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st)
      s[tid] += s[tid + st];
    __syncthreads();
  }
}
)cuda");
  ASSERT_TRUE(A.parsed());
  EXPECT_TRUE(A.R->Collectives.empty());
  ASSERT_EQ(A.R->Branches.size(), 1u);
  EXPECT_EQ(toBool(A.R->Branches[0].Cond).Split, SplitKind::Boundary);
}

TEST(ThreadVarianceDataflow, ControlDependenceAndEarlyReturn) {
  Analysed A(R"cuda(
__global__ void k(const int *in, float *p, int n) {
  int limit = 4;
  if (threadIdx.x == 0)
    limit = in[0];
  for (int j = 0; j < limit; ++j)
    p[j] += 1.0f;
  if (blockIdx.x * blockDim.x + threadIdx.x >= n)
    return;
  __syncthreads();
}
)cuda");
  ASSERT_TRUE(A.parsed());
  bool LoopSplit = false;
  for (const DivergenceBranch &B : A.R->Branches)
    LoopSplit |= B.Loop && A.line(B.Loc) == 6;
  EXPECT_TRUE(LoopSplit) << "limit is assigned under a single-thread branch";
  ASSERT_EQ(A.R->Collectives.size(), 1u);
  EXPECT_EQ(A.R->Collectives[0].Ctx.Exit, "return");
  EXPECT_EQ(A.line(A.R->Collectives[0].Ctx.BranchLoc), 8u);
}

TEST(ThreadVarianceDataflow, CalleeUnderCallersBranch) {
  Analysed A(R"cuda(
__device__ float sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
__global__ void k(float *p) {
  if (threadIdx.x % 32 == 0)
    p[0] = sum(p[threadIdx.x]);
  if (threadIdx.x / 32 == 0)
    p[1] = sum(p[threadIdx.x]);
}
)cuda");
  ASSERT_TRUE(A.parsed());
  ASSERT_EQ(A.R->Collectives.size(), 1u);
  const DivergenceCollective &C = A.R->Collectives[0];
  EXPECT_FALSE(C.Barrier);
  EXPECT_EQ(A.line(C.Loc), 4u);
  EXPECT_EQ(A.line(C.Ctx.BranchLoc), 8u);
  ASSERT_EQ(C.Ctx.Calls.size(), 1u);
  EXPECT_EQ(A.line(C.Ctx.Calls[0]), 9u);
}

TEST(ThreadVarianceDataflow, BlockShapeFromLaunchesAndTemplates) {
  Analysed A(R"cuda(
__global__ void rows(float *a) { if (threadIdx.y % 2) a[threadIdx.x] = a[threadIdx.x + 1] * 2.0f; }
__global__ void halves(float *a) { if (threadIdx.y % 2) a[threadIdx.x] = a[threadIdx.x + 1] * 2.0f; }
template <int S> __global__ void strided(float *a) { if (threadIdx.x % S == 0) a[threadIdx.x] *= 2.0f; }
void run(float *a) {
  rows<<<1, dim3(32, 8)>>>(a);
  halves<<<1, dim3(16, 16)>>>(a);
  strided<4><<<1, 128>>>(a);
}
)cuda");
  ASSERT_TRUE(A.parsed());
  bool Rows = false, Halves = false, Strided = false;
  for (const DivergenceBranch &B : A.R->Branches) {
    Rows |= B.Kernel == "rows";
    if (B.Kernel == "halves") {
      Halves = true;
      EXPECT_EQ(describeSplit(B.Cond), "lanes 0-15 and lanes 16-31 take different paths");
      EXPECT_FALSE(B.Cond.Assumed);
    }
    if (B.Kernel.find("strided") != std::string::npos) {
      Strided = true;
      EXPECT_EQ(toBool(B.Cond).trueLanes(), 0x11111111u);
    }
  }
  EXPECT_FALSE(Rows) << "one row per warp: threadIdx.y is warp-uniform";
  EXPECT_TRUE(Halves);
  EXPECT_TRUE(Strided);
}

// Code as deep and long as generated code makes it (ast/DeepExpressions.h):
// a 20,000-term sum and 5,000-term conditions are analysed without running
// out of stack, and as precisely as short ones.
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
  Analysed Uniform("__global__ void k(const int *v) {\n  if (" + chain(5000, "&&") + ")\n    __syncthreads();\n}\n");
  ASSERT_TRUE(Uniform.parsed());
  EXPECT_TRUE(Uniform.R->Collectives.empty());
  // One thread-dependent term, the last one: the barrier is under a split.
  Analysed Varying("__global__ void k(const int *v) {\n  if (" + chain(5000, "&&") +
                   " && threadIdx.x < 7)\n    __syncthreads();\n}\n");
  ASSERT_TRUE(Varying.parsed());
  ASSERT_EQ(Varying.R->Collectives.size(), 1u);
  EXPECT_EQ(Varying.line(Varying.R->Collectives[0].Ctx.BranchLoc), 2u);
}

// A logical operand the compiler folds decides whether the other is ever
// evaluated: `x` assigned a thread index only where the assignment can run.
// The folding follows Clang's own rules (a false `&&` operand, a true `||`
// one, `!`, and an unknown operand beside a deciding one), from the
// operands' memoised answers rather than Clang's evaluator per node.
TEST(ThreadVarianceDataflow, AnOperandTheCompilerFoldsDecidesWhatRuns) {
  auto BarrierSplit = [](const std::string &Condition) {
    Analysed A("constexpr int N = 4;\n__global__ void k(const int *v) {\n  int x = 0;\n  if (" + Condition +
               ") {}\n  if (x == 0)\n    __syncthreads();\n}\n");
    EXPECT_TRUE(A.parsed()) << Condition;
    return A.R->Collectives.size();
  };
  EXPECT_EQ(BarrierSplit("N > 8 && (x = threadIdx.x)"), 0u);                        // false && _
  EXPECT_EQ(BarrierSplit("(N == 4 && sizeof(int) == 4) || (x = threadIdx.x)"), 0u); // true || _
  EXPECT_EQ(BarrierSplit("!(N == 4) && (x = threadIdx.x)"), 0u);                    // !true && _
  EXPECT_EQ(BarrierSplit("(v[0] > 0 && N > 8) && (x = threadIdx.x)"), 0u);          // (unknown && false) && _
  EXPECT_EQ(BarrierSplit("(v[0] > 0 || N == 4) || (x = threadIdx.x)"), 0u);         // (unknown || true) || _
  // Not folded: the assignment may run, x varies, the barrier is split.
  EXPECT_EQ(BarrierSplit("v[0] > 0 && (x = threadIdx.x)"), 1u);
  EXPECT_EQ(BarrierSplit("(v[0] > 0 && N == 4) && (x = threadIdx.x)"), 1u); // unknown && true
  EXPECT_EQ(BarrierSplit("(N == 4 && v[0] > 0) || (x = threadIdx.x)"), 1u); // true && unknown
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

namespace {

const DivergenceBranch *branchAt(const Analysed &A, unsigned Line) {
  for (const DivergenceBranch &B : A.R->Branches)
    if (A.line(B.Loc) == Line)
      return &B;
  return nullptr;
}

} // namespace

// LoopWeights: a split's work counts the loops on its paths by their trip
// counts, and records how often it runs and what its loop iteration costs.
TEST(ThreadVarianceDataflow, BranchWorkCountsTheLoopsOnAndAroundIt) {
  Analysed A(R"cuda(
__global__ void k(float *p, int n) {
  if (threadIdx.x % 2 == 0) {
    for (int k = 0; k < 8; ++k)
      p[threadIdx.x + k] += 1.0f;
  }
  for (int s = 1; s < n; s *= 2) {
    if (threadIdx.x % (2 * s) == 0)
      p[threadIdx.x] += p[threadIdx.x + s];
  }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++)
      if (threadIdx.x % 4 == 1)
        p[threadIdx.x] = 0.0f;
}
)cuda");
  ASSERT_TRUE(A.parsed());
  const DivergenceBranch *Unrolled = branchAt(A, 3), *Reduction = branchAt(A, 8), *Nested = branchAt(A, 13);
  ASSERT_TRUE(Unrolled && Reduction && Nested);
  // 8 iterations of (+= 1, subscript, +) plus the loop's own compare and increment.
  EXPECT_GE(Unrolled->WorkTaken, 8 * 3);
  EXPECT_EQ(Unrolled->Repeat, 1.0);
  // Inside a loop of unknown trip count: it runs UnknownTripCount times; its
  // path (2 loads, an add, a compound store) is a large part of the loop's
  // iteration.
  EXPECT_EQ(Reduction->Repeat, LoopWeights::UnknownTripCount);
  EXPECT_GE(Reduction->WorkTaken, 4);
  EXPECT_LT(Reduction->WorkTaken, 10);
  EXPECT_GT(Reduction->LevelWork, double(Reduction->WorkTaken));
  EXPECT_GE(100.0 * Reduction->WorkTaken / Reduction->LevelWork, 25.0);
  // Two counted loops around it: 3 x 5 runs.
  EXPECT_EQ(Nested->Repeat, 15.0);
}

// A collective missed only at a uniform bound is conditional on the sizes;
// one missed by a lane pattern, or by an exactly known split, is not.
TEST(ThreadVarianceDataflow, MissesAtABoundAreConditional) {
  Analysed A(R"cuda(
__global__ void k(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __syncthreads();
  if (threadIdx.x < 64)
    __syncthreads();
  if (threadIdx.x % 2 == 0)
    __syncthreads();
}
)cuda");
  ASSERT_TRUE(A.parsed());
  ASSERT_EQ(A.R->Collectives.size(), 3u);
  EXPECT_TRUE(A.R->Collectives[0].Ctx.Boundary);
  EXPECT_TRUE(A.R->Collectives[1].Ctx.Boundary);
  EXPECT_FALSE(A.R->Collectives[2].Ctx.Boundary);
}

// A trap ends the kernel: a precondition `if (C % 256 != 0) trap;` leaves C
// a multiple of 256 after it, so a lane-strided chunk of 256 never splits a
// warp at C. (Clang's __trap() is declared noreturn, which the CFG knows;
// `trap;` in inline assembly is not.)
TEST(ThreadVarianceDataflow, TrapStopsTheKernel) {
  Analysed A(R"cuda(
__global__ void k(float *p, int C) {
  if (C % 256 != 0) {
    p[0] = 1.0f;
    asm volatile("trap;");
  }
  const int lane = threadIdx.x % 32;
  for (int i = 0; i < 4; i++) {
    int g = lane * 8 + i * 256;
    if (g < C) {
      p[g] = 1.0f;
      __syncwarp();
    }
  }
  p[lane] = 2.0f;
}
)cuda");
  ASSERT_TRUE(A.parsed());
  EXPECT_TRUE(A.R->Collectives.empty()); // (only collectives some lanes miss are recorded)
}

// The loss estimate (BranchLoss.h): idle lane-slots of a split over the
// kernel's work, by the split's shape, the block's warps and, for a helper,
// the helper's share of its caller.
TEST(ThreadVarianceDataflow, BranchLossIsTheShareOfTheKernelsLaneSlotsLeftIdle) {
  Analysed A(R"cuda(
__global__ void evenOdd(float *a) {
  int i = threadIdx.x;
  if (i % 2 == 0) { a[i] = a[i] * a[i] + a[i + 1] * a[i + 2]; a[i + 3] = a[i] - a[i + 4]; }
  else { a[i] = a[i] * 2.0f - a[i + 1] * a[i + 2]; a[i + 3] = a[i] + a[i + 4]; }
}
__global__ void oneThread(float *a) {
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) s += a[threadIdx.x + k];
  a[threadIdx.x] = s;
  if (threadIdx.x == 0) { for (int k = 0; k < 8; ++k) s += a[k] * a[k + 1]; a[0] = s; }
}
__device__ void half(float *a) {
  if (threadIdx.x % 2 == 0) { a[threadIdx.x] = a[threadIdx.x] * a[threadIdx.x + 1] - a[threadIdx.x + 2]; }
}
__global__ void callsHalf(float *a) {
  float s = 0.0f;
  for (int k = 0; k < 64; ++k) s += a[threadIdx.x + k] * a[k] - a[k + 1];
  a[threadIdx.x] = s;
  half(a);
}
void run(float *a) { oneThread<<<1, 128>>>(a); }
)cuda");
  ASSERT_TRUE(A.parsed());
  const DivergenceBranch *Even = branchAt(A, 4), *One = branchAt(A, 11), *Half = branchAt(A, 14);
  ASSERT_TRUE(Even && One && Half);
  // Both paths about equal, half the lanes idle on each: the paths are most
  // of the kernel, so close to half of its lane-slots.
  EXPECT_GT(Even->Loss, 0.35);
  EXPECT_LT(Even->Loss, 0.5);
  // One thread of a 4-warp block: only warp 0 splits, with 31 lanes idle on
  // the section, which is about half the kernel: ~1/4 x 31/32 x 1/2.
  EXPECT_EQ(One->WarpsPerBlock, 4u);
  EXPECT_GT(One->Loss, 0.08);
  EXPECT_LT(One->Loss, 0.2);
  // The helper's split is half of the helper, which is a small part of its
  // caller: its loss counts in the kernel's terms.
  EXPECT_LT(Half->WorkShare, 0.1);
  EXPECT_LT(Half->Loss, 0.05);
  EXPECT_GT(Half->Loss, 0.0);
  // Per kernel: the lanes its warps hold and the sum of its branches' losses.
  const auto &Lanes = A.R->LanesByKernel;
  ASSERT_TRUE(Lanes.count("evenOdd") && Lanes.count("oneThread"));
  EXPECT_DOUBLE_EQ(Lanes.at("evenOdd").Loss, Even->Loss);
  EXPECT_DOUBLE_EQ(Lanes.at("oneThread").LanesPerWarp, 32.0);
  EXPECT_NEAR(predictedActiveThreadsPerWarp(32, Even->Loss), 32 * (1 - Even->Loss), 1e-9);
  EXPECT_DOUBLE_EQ(predictedActiveThreadsPerWarp(24, 0), 24.0);
  EXPECT_DOUBLE_EQ(predictedActiveThreadsPerWarp(32, 5.0), 1.0); // at most 31 of 32 lanes idle
}
