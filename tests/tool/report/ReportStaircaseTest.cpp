// The staircases of `occlint report` (tool/report/ReportStaircase.h) against the
// occupancy engine itself: the launch's own point is the engine's answer for
// the launch, the curves fall (or stay) as registers and shared memory grow,
// and the marked next step is where the curve, walked down from the launch,
// first rises above the launch's occupancy.
#include "report/ReportStaircase.h"

#include <gtest/gtest.h>

namespace occlint {
namespace {

TargetGpu gpu(const char *Name) {
  std::string Error;
  std::optional<TargetGpu> G = GpuDatabase::builtin().resolve(Name, Error);
  EXPECT_TRUE(G) << Name << ": " << Error;
  return G.value_or(TargetGpu{});
}

KernelResources kernel(int Registers, int64_t StaticSharedMem) {
  KernelResources K;
  K.registersPerThread = Registers;
  K.staticSharedMem = StaticSharedMem;
  return K;
}

LaunchShape block(int Threads, int64_t DynamicSharedMem = 0) {
  LaunchShape L;
  L.blockX = Threads;
  L.dynamicSharedMem = DynamicSharedMem;
  return L;
}

// Every curve: ascending samples covering [minX, maxX], and a value at the
// launch's own x equal to the launch's own point.
void expectWellFormed(const Staircase &S, const std::string &What) {
  ASSERT_FALSE(S.curve.empty()) << What;
  EXPECT_EQ(S.curve.front().x, S.minX) << What;
  EXPECT_EQ(S.curve.back().x, S.maxX) << What;
  for (size_t I = 1; I < S.curve.size(); ++I)
    ASSERT_LT(S.curve[I - 1].x, S.curve[I].x) << What << " at sample " << I;
  if (S.current && S.current->launches) {
    std::optional<StaircasePoint> OnCurve = S.at(S.current->x);
    ASSERT_TRUE(OnCurve) << What;
    EXPECT_DOUBLE_EQ(OnCurve->occupancy, S.current->occupancy) << What << " at x = " << S.current->x;
    EXPECT_EQ(OnCurve->blocksPerSM, S.current->blocksPerSM) << What;
  }
}

void expectNonIncreasing(const Staircase &S, const std::string &What) {
  for (size_t I = 1; I < S.curve.size(); ++I)
    EXPECT_LE(S.curve[I].occupancy, S.curve[I - 1].occupancy + 1e-12)
        << What << ": rises from x = " << S.curve[I - 1].x << " to x = " << S.curve[I].x;
}

// Walking down from the launch's x, the first x whose occupancy is above the launch's.
std::optional<int64_t> firstRiseBelow(const Staircase &S) {
  for (auto It = S.curve.rbegin(); It != S.curve.rend(); ++It)
    if (It->x < S.current->x && It->launches && It->occupancy > S.current->occupancy + 1e-12)
      return It->x;
  return std::nullopt;
}

TEST(ReportStaircase, OwnPointIsTheEnginesOccupancyForTheLaunch) {
  const TargetGpu A100 = gpu("A100");
  for (auto [Registers, Static, Threads, Dynamic] : std::vector<std::tuple<int, int64_t, int, int64_t>>{
           {134, 0, 256, 0}, {32, 0, 1024, 0}, {64, 16384, 128, 8192}, {40, 0, 96, 100000}, {255, 0, 64, 0}}) {
    KernelResources K = kernel(Registers, Static);
    LaunchShape L = block(Threads, Dynamic);
    if (Dynamic > A100.arch.sharedMemPerBlock)
      L.optinDynamicSharedMem = Dynamic;
    const OccupancyResult Expected = computeOccupancy(A100, K, L);
    ASSERT_EQ(Expected.failure, LaunchFailure::None) << Expected.failureReason;
    const LaunchStaircases S = computeStaircases(A100, K, L, true);
    const std::string What = std::to_string(Registers) + " registers, " + std::to_string(Threads) + " threads";
    for (const Staircase *C : {&S.registers, &S.blockSize, &S.sharedMemory}) {
      ASSERT_TRUE(C->current) << What << ", " << axisTitle(C->axis);
      EXPECT_DOUBLE_EQ(C->current->occupancy, Expected.occupancy) << What << ", " << axisTitle(C->axis);
      EXPECT_EQ(C->current->blocksPerSM, Expected.blocksPerSM) << What << ", " << axisTitle(C->axis);
      expectWellFormed(*C, What + ", " + axisTitle(C->axis));
    }
    EXPECT_EQ(S.registers.current->x, Registers);
    EXPECT_EQ(S.blockSize.current->x, Threads);
    EXPECT_EQ(S.sharedMemory.current->x, Static + Dynamic);
  }
}

TEST(ReportStaircase, AxesSpanTheirRanges) {
  const TargetGpu H100 = gpu("H100");
  const LaunchStaircases S = computeStaircases(H100, kernel(40, 0), block(256), true);
  EXPECT_EQ(S.registers.minX, 1);
  EXPECT_EQ(S.registers.maxX, kMaxRegistersPerThread);
  EXPECT_EQ(S.registers.curve.size(), size_t(kMaxRegistersPerThread));
  EXPECT_EQ(S.blockSize.minX, 32);
  EXPECT_EQ(S.blockSize.maxX, H100.arch.maxThreadsPerBlock);
  EXPECT_EQ(S.blockSize.curve.size(), size_t(H100.arch.maxThreadsPerBlock / 32));
  EXPECT_EQ(S.sharedMemory.minX, 0);
  EXPECT_LE(S.sharedMemory.maxX, H100.arch.sharedMemPerBlockOptin);
  EXPECT_GT(S.sharedMemory.maxX + H100.arch.smemAllocUnit, H100.arch.sharedMemPerBlockOptin);
  // Without an opt-in, more than 48 KB needs one: the chart shades it.
  ASSERT_TRUE(S.sharedMemory.optinAbove);
  EXPECT_EQ(*S.sharedMemory.optinAbove, H100.arch.sharedMemPerBlock);
  // A block size that is no multiple of the warp size is a sample of its own.
  const LaunchStaircases Odd = computeStaircases(H100, kernel(40, 0), block(100), true);
  ASSERT_TRUE(Odd.blockSize.at(100));
  EXPECT_EQ(Odd.blockSize.at(100)->x, 100);
  EXPECT_DOUBLE_EQ(Odd.blockSize.current->occupancy, computeOccupancy(H100, kernel(40, 0), block(100)).occupancy);
}

TEST(ReportStaircase, CurvesNeverRiseWithMoreRegistersOrSharedMemory) {
  for (const char *Name : {"A100", "H100", "sm_86", "sm_75", "sm_120"}) {
    const TargetGpu G = gpu(Name);
    for (int Threads : {64, 128, 256, 384, 1024}) {
      const LaunchStaircases S = computeStaircases(G, kernel(48, 2048), block(Threads, 1024), true);
      const std::string What = std::string(Name) + ", " + std::to_string(Threads) + " threads";
      expectNonIncreasing(S.registers, What + ", registers");
      expectNonIncreasing(S.sharedMemory, What + ", shared memory");
      // Not flat: there is a staircase to draw (a 1024-thread block is alone
      // on its SM with any amount of shared memory that fits).
      EXPECT_GT(S.registers.runs().size(), 1u) << What;
      if (Threads < 1024)
        EXPECT_GT(S.sharedMemory.runs().size(), 1u) << What;
    }
  }
}

TEST(ReportStaircase, RegisterNextStepIsWhereTheCurveFirstRises) {
  // 134 registers x 256 threads on A100: one block per SM (12.5%); 128 registers fit two.
  const TargetGpu A100 = gpu("A100");
  const KernelResources K = kernel(134, 0);
  const LaunchShape L = block(256);
  const OccupancyResult R = computeOccupancy(A100, K, L);
  ASSERT_EQ(R.blocksPerSM, 1);
  const Staircase S = computeStaircases(A100, K, L, true).registers;
  ASSERT_TRUE(S.nextStep) << "no next step on the register axis";
  EXPECT_EQ(S.nextStep->x, 128);
  EXPECT_EQ(firstRiseBelow(S), S.nextStep->x);
  EXPECT_DOUBLE_EQ(S.at(S.nextStep->x)->occupancy, S.nextStep->occupancy);
  EXPECT_GT(S.nextStep->occupancy, S.current->occupancy);
  EXPECT_NE(S.nextStepText.find("fewer registers"), std::string::npos) << S.nextStepText;
}

TEST(ReportStaircase, SharedMemoryNextStepIsWhereTheCurveFirstRises) {
  for (const char *Name : {"A100", "H100", "sm_86"}) {
    const TargetGpu G = gpu(Name);
    for (int64_t Static : {20000, 30000, 40000, 45000}) {
      const KernelResources K = kernel(32, Static);
      const LaunchShape L = block(128);
      const OccupancyResult R = computeOccupancy(G, K, L);
      const std::string What = std::string(Name) + ", " + std::to_string(Static) + " B";
      ASSERT_EQ(R.failure, LaunchFailure::None) << What;
      ASSERT_TRUE(R.bindingLimiters & unsigned(Limiter::SharedMemory)) << What << ": shared memory should bind";
      const Staircase S = computeStaircases(G, K, L, true).sharedMemory;
      ASSERT_TRUE(S.nextStep) << What;
      EXPECT_EQ(firstRiseBelow(S), S.nextStep->x) << What;
      EXPECT_DOUBLE_EQ(S.at(S.nextStep->x)->occupancy, S.nextStep->occupancy) << What;
    }
  }
}

TEST(ReportStaircase, NoNextStepWhenNothingRaisesTheOccupancy) {
  // 32 registers x 256 threads on H100: 100% already.
  const LaunchStaircases S = computeStaircases(gpu("H100"), kernel(32, 0), block(256), true);
  EXPECT_DOUBLE_EQ(S.registers.current->occupancy, 1.0);
  EXPECT_FALSE(S.registers.nextStep);
  EXPECT_FALSE(S.sharedMemory.nextStep);
  EXPECT_FALSE(S.blockSize.nextStep);
}

TEST(ReportStaircase, UnknownRegistersHaveNoOwnPointOnTheRegisterAxis) {
  const LaunchStaircases S = computeStaircases(gpu("A100"), kernel(0, 0), block(256), false);
  EXPECT_FALSE(S.registers.current);
  EXPECT_EQ(S.registers.minX, 1);
  ASSERT_TRUE(S.blockSize.current);
  EXPECT_DOUBLE_EQ(S.blockSize.current->occupancy, 1.0); // the upper bound, as the checks say
}

TEST(ReportStaircase, RegisterCapIsWhatTheLaunchGets) {
  // -maxrregcount=64 caps a 100-register kernel at 64.
  KernelResources K = kernel(100, 0);
  K.maxRegisters = 64;
  const TargetGpu A100 = gpu("A100");
  const LaunchStaircases S = computeStaircases(A100, K, block(256), true);
  EXPECT_EQ(S.registers.current->x, 64);
  EXPECT_DOUBLE_EQ(S.registers.current->occupancy, computeOccupancy(A100, K, block(256)).occupancy);
  expectWellFormed(S.registers, "capped");
}

TEST(ReportStaircase, RunsCoverTheAxisWithoutGapsAndDiffer) {
  const Staircase S = computeStaircases(gpu("A100"), kernel(64, 4096), block(256), true).registers;
  const std::vector<StaircaseRun> Runs = S.runs();
  ASSERT_FALSE(Runs.empty());
  EXPECT_EQ(Runs.front().from, S.minX);
  EXPECT_EQ(Runs.back().to, S.maxX);
  for (size_t I = 1; I < Runs.size(); ++I) {
    EXPECT_EQ(Runs[I].from, Runs[I - 1].to + 1);
    EXPECT_NE(Runs[I].occupancy, Runs[I - 1].occupancy);
  }
  // 1..32 registers: 100% with 256 threads on sm_80 (64K registers, 2048 threads).
  EXPECT_EQ(Runs.front().to, 32);
  EXPECT_DOUBLE_EQ(Runs.front().occupancy, 1.0);
  // Above 255 per thread... the last run still launches (255 is the maximum).
  EXPECT_TRUE(Runs.back().launches);
}

TEST(ReportStaircase, LaunchThatNeedsAnOptinSitsBelowTheCurve) {
  // 60 KB of dynamic shared memory without the opt-in attribute cannot launch;
  // the curve shows what it would give with it.
  const TargetGpu H100 = gpu("H100");
  const LaunchStaircases S = computeStaircases(H100, kernel(32, 0), block(128, 60 * 1024), true);
  ASSERT_TRUE(S.sharedMemory.current);
  EXPECT_FALSE(S.sharedMemory.current->launches);
  EXPECT_EQ(S.sharedMemory.current->occupancy, 0.0);
  EXPECT_TRUE(S.sharedMemory.at(60 * 1024)->launches);
  ASSERT_TRUE(S.sharedMemory.optinAbove);
  EXPECT_LT(*S.sharedMemory.optinAbove, 60 * 1024);
  ASSERT_TRUE(S.sharedMemory.nextStep); // opting in, or fewer bytes, lets it launch
}

} // namespace
} // namespace occlint
