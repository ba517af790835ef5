#include "report/ReportStaircase.h"

#include <algorithm>
#include <cmath>

namespace occlint {

static bool sameLevel(const StaircasePoint &A, const StaircasePoint &B) {
  return A.launches == B.launches && std::fabs(A.occupancy - B.occupancy) < 1e-12;
}

std::optional<StaircasePoint> Staircase::at(int64_t X) const {
  if (curve.empty() || X < minX || X > maxX)
    return std::nullopt;
  auto It = std::lower_bound(curve.begin(), curve.end(), X,
                             [](const StaircasePoint &P, int64_t Value) { return P.x < Value; });
  if (It == curve.end())
    return std::nullopt;
  return *It;
}

std::vector<StaircaseRun> Staircase::runs() const {
  std::vector<StaircaseRun> Out;
  for (size_t I = 0; I < curve.size(); ++I) {
    const StaircasePoint &P = curve[I];
    if (!Out.empty() && sameLevel(curve[I - 1], P)) {
      Out.back().to = P.x;
      continue;
    }
    StaircaseRun Run;
    Run.from = I == 0 ? P.x : curve[I - 1].x + 1;
    Run.to = P.x;
    Run.occupancy = P.occupancy;
    Run.launches = P.launches;
    Out.push_back(Run);
  }
  return Out;
}

static StaircasePoint pointOf(int64_t X, const OccupancyResult &R) {
  StaircasePoint P;
  P.x = X;
  P.launches = R.failure == LaunchFailure::None;
  P.occupancy = P.launches ? R.occupancy : 0.0;
  P.blocksPerSM = R.blocksPerSM;
  return P;
}

// The first next step on `Resource` that raises the occupancy above the launch's.
static const NextStep *firstRaisingStep(const OccupancyResult &Launch, const std::string &Resource) {
  const double Current = Launch.failure == LaunchFailure::None ? Launch.occupancy : 0.0;
  for (const NextStep &S : Launch.nextSteps)
    if (S.resource == Resource && S.occupancy > Current + 1e-12)
      return &S;
  return nullptr;
}

static void setNextStep(Staircase &S, const OccupancyResult &Launch, const std::string &Resource) {
  if (const NextStep *Step = firstRaisingStep(Launch, Resource)) {
    StaircasePoint P;
    P.x = Step->newValue;
    P.occupancy = Step->occupancy;
    P.blocksPerSM = Step->blocksPerSM;
    S.nextStep = P;
    S.nextStepText = Step->text;
  }
}

// Adds X to the sorted sample positions unless it is there.
static void insertSample(std::vector<int64_t> &Xs, int64_t X) {
  auto It = std::lower_bound(Xs.begin(), Xs.end(), X);
  if (It == Xs.end() || *It != X)
    Xs.insert(It, X);
}

static Staircase registerStaircase(const TargetGpu &Gpu, const KernelResources &Kernel, const LaunchShape &Shape,
                                   bool RegistersKnown, const OccupancyResult &Launch) {
  Staircase S;
  S.axis = StaircaseAxis::Registers;
  // What the launch really gets: -maxrregcount / __maxnreg__ cap the count.
  int Own = Kernel.registersPerThread;
  if (Kernel.maxRegisters && *Kernel.maxRegisters > 0)
    Own = std::min(Own, *Kernel.maxRegisters);
  S.minX = RegistersKnown ? std::min<int64_t>(1, Own) : 1;
  S.maxX = std::max<int64_t>(kMaxRegistersPerThread, Own);
  KernelResources K = Kernel;
  K.maxRegisters.reset();
  for (int64_t R = S.minX; R <= S.maxX; ++R) {
    K.registersPerThread = int(R);
    S.curve.push_back(pointOf(R, computeOccupancyLimits(Gpu, K, Shape)));
  }
  if (RegistersKnown)
    S.current = pointOf(Own, Launch);
  setNextStep(S, Launch, "registers");
  return S;
}

static Staircase blockSizeStaircase(const TargetGpu &Gpu, const KernelResources &Kernel, const LaunchShape &Shape,
                                    const OccupancyResult &Launch) {
  Staircase S;
  S.axis = StaircaseAxis::BlockSize;
  const int Warp = std::max(1, Gpu.arch.warpSize);
  std::vector<int64_t> Xs;
  for (int64_t T = Warp; T <= Gpu.arch.maxThreadsPerBlock; T += Warp)
    Xs.push_back(T);
  const int64_t Own = int64_t(Shape.blockX) * Shape.blockY * Shape.blockZ;
  insertSample(Xs, Own);
  for (int64_t T : Xs) {
    LaunchShape L = Shape;
    L.blockX = int(std::min<int64_t>(T, INT32_MAX));
    L.blockY = L.blockZ = 1;
    S.curve.push_back(pointOf(T, computeOccupancyLimits(Gpu, Kernel, L)));
  }
  S.minX = Xs.front();
  S.maxX = Xs.back();
  S.current = pointOf(Own, Launch);
  setNextStep(S, Launch, "block size");
  return S;
}

// Static and dynamic shared memory with `Total` bytes per block in all: fewer
// than the launch's are taken from the dynamic part first (as the engine's
// next steps do), more are added to it.
static void withSharedMemory(int64_t Total, KernelResources &K, LaunchShape &L) {
  const int64_t Used = K.staticSharedMem + L.dynamicSharedMem;
  if (Total <= Used) {
    const int64_t Fewer = Used - Total;
    const int64_t FromDynamic = std::min(Fewer, L.dynamicSharedMem);
    L.dynamicSharedMem -= FromDynamic;
    K.staticSharedMem -= Fewer - FromDynamic;
  } else {
    L.dynamicSharedMem += Total - Used;
  }
}

static bool sharedMemoryFailure(const OccupancyResult &R) {
  return R.failure == LaunchFailure::TooMuchSharedMemory || R.failure == LaunchFailure::DynamicSharedMemoryNeedsOptin;
}

static Staircase sharedMemoryStaircase(const TargetGpu &Gpu, const KernelResources &Kernel, const LaunchShape &Shape,
                                       const OccupancyResult &Launch) {
  Staircase S;
  S.axis = StaircaseAxis::SharedMemory;
  const ArchLimits &Arch = Gpu.arch;
  const int64_t Unit = std::max(1, Arch.smemAllocUnit);
  const int64_t Own = Kernel.staticSharedMem + Shape.dynamicSharedMem;
  std::vector<int64_t> Xs;
  for (int64_t B = 0; B <= Arch.sharedMemPerBlockOptin; B += Unit)
    Xs.push_back(B);
  insertSample(Xs, Own);
  for (int64_t B : Xs) {
    KernelResources K = Kernel;
    LaunchShape L = Shape;
    withSharedMemory(B, K, L);
    OccupancyResult R = computeOccupancyLimits(Gpu, K, L);
    if (sharedMemoryFailure(R)) {
      // More than the launch may use as it is (the 48 KB default, or its own
      // opt-in): the curve goes on as if the kernel opted in to the most the
      // GPU allows (cudaFuncAttributeMaxDynamicSharedMemorySize), and the
      // chart shades where that is needed.
      if (!S.optinAbove)
        S.optinAbove = S.curve.empty() ? B : S.curve.back().x;
      L.optinDynamicSharedMem = std::max(L.dynamicSharedMem, Arch.sharedMemPerBlockOptin);
      R = computeOccupancyLimits(Gpu, K, L);
    }
    S.curve.push_back(pointOf(B, R));
  }
  S.minX = Xs.front();
  S.maxX = Xs.back();
  S.current = pointOf(Own, Launch);
  setNextStep(S, Launch, "shared memory");
  return S;
}

LaunchStaircases computeStaircases(const TargetGpu &Gpu, const KernelResources &Kernel,
                                   const LaunchShape &LaunchedShape, bool RegistersKnown) {
  // Occupancy per SM: the grid does not enter (a grid that cannot start
  // would make every step fail).
  LaunchShape Shape = LaunchedShape;
  Shape.gridBlocks.reset();
  const OccupancyResult Launch = computeOccupancy(Gpu, Kernel, Shape);
  LaunchStaircases Out;
  Out.registers = registerStaircase(Gpu, Kernel, Shape, RegistersKnown, Launch);
  Out.blockSize = blockSizeStaircase(Gpu, Kernel, Shape, Launch);
  Out.sharedMemory = sharedMemoryStaircase(Gpu, Kernel, Shape, Launch);
  if (Shape.dynamicSharedMemIsUpperBound) {
    // A runtime amount: the curve holds, the launch's place on it is not
    // known (the occupancy is the same anywhere up to the largest amount).
    Out.sharedMemory.current.reset();
    Out.sharedMemory.nextStep.reset();
    Out.sharedMemory.nextStepText.clear();
  }
  Out.blockSize.upperBound = Out.sharedMemory.upperBound = !RegistersKnown;
  return Out;
}

Staircase pipelineStagesStaircase(const std::vector<PipelineDepthPoint> &Depths, int Stages) {
  Staircase S;
  S.axis = StaircaseAxis::PipelineStages;
  for (const PipelineDepthPoint &P : Depths) {
    StaircasePoint Point;
    Point.x = P.stages;
    Point.launches = P.fits;
    Point.occupancy = P.fits ? P.occupancy : 0;
    Point.blocksPerSM = P.fits ? P.blocksPerSM : 0;
    S.curve.push_back(Point);
    if (P.stages == Stages)
      S.current = Point;
  }
  if (!S.curve.empty()) {
    S.minX = S.curve.front().x;
    S.maxX = S.curve.back().x;
  }
  return S;
}

std::string axisTitle(StaircaseAxis Axis) {
  switch (Axis) {
  case StaircaseAxis::Registers:
    return "registers per thread";
  case StaircaseAxis::BlockSize:
    return "threads per block";
  case StaircaseAxis::SharedMemory:
    return "shared memory per block (KiB)";
  case StaircaseAxis::PipelineStages:
    return "async-copy stages";
  }
  return "";
}

} // namespace occlint
