// The differential test of the block size search: occlint's
// maxPotentialBlockSize (analyses/gpu/OccupancyBlockSizeSearch.cpp) against
// cuda_occupancy.h's cudaOccMaxPotentialOccupancyBlockSize (a constant dynamic
// shared memory size, through both its C entry with a NULL size function and
// its C++ overload) and cudaOccMaxPotentialOccupancyBlockSizeVariableSMem (a
// size per block size), for every arch of the built-in GPU database with its
// default product's SM count.
//
// The device properties, function attributes and device state are the ones
// the engine's differential test builds (CudaOccupancyReference.h). The header
// has no blockSizeLimit argument: the runtime's (cuda_runtime.h) only lowers
// the limit the walk starts from, so the reference gets it as the function's
// maxThreadsPerBlock, min(__launch_bounds__ or the device's, blockSizeLimit).
// Compared: the error (ours non-empty where the header returns one),
// blockSize and minGridSize.
//
// Sweeps per arch (docs/occupancy-model.md, "cudaOccupancyMaxPotentialBlockSize"):
//   Registers      every register count 0..255 x 6 block size limits x 3 launch bounds
//   Limits         every block size limit 0..1100 x 6 register counts x 3 launch bounds
//   SharedMemory   static x dynamic (every default, opt-in and carveout boundary
//                  over 1..8 blocks, +-1) x opt-in x 8 register counts x 2 limits
//   Barriers       0..16 barriers x 4 register counts x 2 limits
//   VariableSMem   7 size functions x 33 register counts x opt-in x 2 limits x 2 static sizes
//   InvalidInputs  negative registers, launch bounds 0 or below, 0 or -1 SMs (27 combinations)
//   Random         20,000 random configurations (fixed seed, printed)
#include "gpu/GpuDatabase.h"
#include "gpu/OccupancyBlockSizeSearch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>

#ifdef OCCLINT_HAVE_CUDA_OCCUPANCY_H
#include <cuda_occupancy.h>

#include "CudaOccupancyReference.h"
#endif

namespace occlint {
void PrintTo(const ArchLimits &a, std::ostream *os) { *os << a.name; }
} // namespace occlint

using namespace occlint;

namespace {

const std::vector<ArchLimits> &databaseArchs() { return GpuDatabase::builtin().archs(); }

std::string archTestName(const ::testing::TestParamInfo<ArchLimits> &info) {
  std::string n = info.param.name;
  for (char &c : n)
    if (!isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

std::map<std::string, uint64_t> &comparedPerArch() {
  static std::map<std::string, uint64_t> m;
  return m;
}

/// How often each rule decided an answer, over all archs: evidence that the
/// sweeps reach them (printed at the end).
struct Outcomes {
  uint64_t sizesWalked = 0;     // block sizes evaluated by our search
  uint64_t errors = 0;          // invalid input on both sides
  uint64_t noBlockSize = 0;     // block size 0 on both sides
  uint64_t tieBroken = 0;       // a smaller size tried scored as much as the winner
  uint64_t notWarpMultiple = 0; // the winner is a limit that is not a warp multiple
  uint64_t belowLimit = 0;      // the winner is below the limit the walk started from
};
Outcomes &outcomes() {
  static Outcomes o;
  return o;
}

void count(const BlockSizeSearchResult &r, int warpSize) {
  Outcomes &o = outcomes();
  o.sizesWalked += r.tried.size();
  if (!r.error.empty()) {
    ++o.errors;
    return;
  }
  if (r.blockSize == 0) {
    ++o.noBlockSize;
    return;
  }
  for (const BlockSizeCandidate &c : r.tried)
    if (c.blockSize < r.blockSize && c.threadsPerSM == r.threadsPerSM) {
      ++o.tieBroken;
      break;
    }
  if (r.blockSize % warpSize != 0)
    ++o.notWarpMultiple;
  if (r.blockSize < r.blockSizeLimit)
    ++o.belowLimit;
}

class SummaryPrinter : public ::testing::Environment {
public:
  void TearDown() override {
    uint64_t total = 0;
    for (auto &[arch, n] : comparedPerArch()) {
      std::cout << "[block size search differential] " << arch << ": " << n << " configurations compared\n";
      total += n;
    }
    std::cout << "[block size search differential] total: " << total << " configurations\n";
    const Outcomes &o = outcomes();
    std::cout << "[block size search differential] outcomes: " << o.sizesWalked << " block sizes walked; " << o.errors
              << " invalid inputs, " << o.noBlockSize << " with no block size, " << o.tieBroken
              << " ties kept by the larger size, " << o.notWarpMultiple << " winners not a warp multiple, "
              << o.belowLimit << " winners below the limit\n";
  }
};
[[maybe_unused]] ::testing::Environment *const kSummary = ::testing::AddGlobalTestEnvironment(new SummaryPrinter);

/// Dynamic shared memory as a function of the block size: the shapes kernels
/// use (bytes per thread, per warp, a base plus per thread, quadratic).
struct SizeFunction {
  const char *name;
  size_t (*bytes)(int blockSize);
};
const SizeFunction kSizeFunctions[] = {
    {"4*b", [](int b) -> size_t { return 4 * size_t(b); }},
    {"8*b+1024", [](int b) -> size_t { return 8 * size_t(b) + 1024; }},
    {"48*b", [](int b) -> size_t { return 48 * size_t(b); }},
    {"64*b", [](int b) -> size_t { return 64 * size_t(b); }},
    {"200*b", [](int b) -> size_t { return 200 * size_t(b); }},
    {"1000*warps+3000", [](int b) -> size_t { return 1000 * size_t((b + 31) / 32) + 3000; }},
    {"b*b/16", [](int b) -> size_t { return size_t(b) * size_t(b) / 16; }},
};
constexpr int kSizeFunctionCount = sizeof kSizeFunctions / sizeof kSizeFunctions[0];

struct Config {
  int regs = 0;
  int64_t staticSmem = 0;
  int64_t dynamicSmem = 0;
  int sizeFunction = -1; // index into kSizeFunctions; -1: the constant dynamicSmem
  std::optional<int64_t> optin;
  int barriers = 1;
  std::optional<int> launchBounds;
  int blockSizeLimit = 0;
  unsigned flags = kOccupancyDefault;

  std::string describe(const TargetGpu &gpu) const {
    std::ostringstream os;
    os << gpu.arch.name << " (" << gpu.smCount << " SMs): numRegs=" << regs << " sharedSizeBytes=" << staticSmem
       << " dynamicSMem=" << (sizeFunction >= 0 ? kSizeFunctions[sizeFunction].name : std::to_string(dynamicSmem))
       << " optin=" << (optin ? std::to_string(*optin) : "none") << " numBlockBarriers=" << barriers
       << " launchBounds=" << (launchBounds ? std::to_string(*launchBounds) : "none")
       << " blockSizeLimit=" << blockSizeLimit << " flags=" << flags;
    return os.str();
  }
};

BlockSizeSearchResult ours(const TargetGpu &gpu, const Config &c) {
  KernelResources k;
  k.registersPerThread = c.regs;
  k.staticSharedMem = c.staticSmem;
  k.barriers = c.barriers;
  k.launchBoundsMaxThreads = c.launchBounds;
  BlockSizeSearchInputs in;
  in.dynamicSharedMem = c.dynamicSmem;
  if (c.sizeFunction >= 0) {
    size_t (*f)(int) = kSizeFunctions[c.sizeFunction].bytes;
    in.dynamicSharedMemFor = [f](int b) { return static_cast<int64_t>(f(b)); };
  }
  in.optinDynamicSharedMem = c.optin;
  in.blockSizeLimit = c.blockSizeLimit;
  in.flags = c.flags;
  return maxPotentialBlockSize(gpu, k, in);
}

#ifdef OCCLINT_HAVE_CUDA_OCCUPANCY_H

struct Reference {
  cudaOccError error = CUDA_OCC_SUCCESS;
  int minGridSize = -1, blockSize = -1;
};

Reference reference(const TargetGpu &gpu, const Config &c) {
  const ArchLimits &arch = gpu.arch;
  // The runtime's blockSizeLimit, as the function's maximum block size.
  int maxThreads = c.launchBounds ? *c.launchBounds : arch.maxThreadsPerBlock;
  if (c.blockSizeLimit > 0)
    maxThreads = std::min(maxThreads, c.blockSizeLimit);
  const cudaOccDeviceProp prop = occlint::occref::referenceDeviceProp(arch, gpu.smCount);
  const cudaOccFuncAttributes attr =
      occlint::occref::referenceFuncAttributes(arch, c.regs, c.staticSmem, c.optin, c.barriers, maxThreads);
  cudaOccDeviceState state; // cacheConfig NONE, carveout DEFAULT
  Reference ref;
  if (c.sizeFunction < 0) {
    // The C++ overload (it calls the C entry with a NULL size function).
    ref.error = cudaOccMaxPotentialOccupancyBlockSize(&ref.minGridSize, &ref.blockSize, &prop, &attr, &state,
                                                      static_cast<size_t>(c.dynamicSmem));
    return ref;
  }
  size_t (*f)(int) = kSizeFunctions[c.sizeFunction].bytes;
  ref.error =
      cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(&ref.minGridSize, &ref.blockSize, &prop, &attr, &state, f);
  // The C entry with the same function pointer walks the same way.
  Reference viaC;
  viaC.error = cudaOccMaxPotentialOccupancyBlockSize(&viaC.minGridSize, &viaC.blockSize, &prop, &attr, &state, f, 0);
  EXPECT_TRUE(viaC.error == ref.error && viaC.blockSize == ref.blockSize && viaC.minGridSize == ref.minGridSize)
      << "the header's two entries differ for " << c.describe(gpu);
  return ref;
}

bool agree(const TargetGpu &gpu, const Config &c, std::string &why) {
  const Reference ref = reference(gpu, c);
  const BlockSizeSearchResult r = ours(gpu, c);
  const bool refError = ref.error != CUDA_OCC_SUCCESS;
  if (refError == !r.error.empty() &&
      (refError || (r.blockSize == ref.blockSize && r.minGridSize == ref.minGridSize))) {
    count(r, gpu.arch.warpSize);
    return true;
  }
  std::ostringstream os;
  os << "MISMATCH for " << c.describe(gpu) << "\n  header: error=" << ref.error << " blockSize=" << ref.blockSize
     << " minGridSize=" << ref.minGridSize << "\n  occlint: " << describeBlockSizeSearch(r, gpu)
     << " (blockSize=" << r.blockSize << " minGridSize=" << r.minGridSize << ")";
  why = os.str();
  return false;
}

/// The TargetGpu of Arch's default product (its SM count), as --gpu sm_XY has it.
TargetGpu targetFor(const ArchLimits &arch) {
  std::string error;
  std::optional<TargetGpu> gpu = GpuDatabase::builtin().resolve(arch.name, error);
  EXPECT_TRUE(gpu) << arch.name << ": " << error;
  if (!gpu)
    return {arch, arch.name, 1};
  EXPECT_GT(gpu->smCount, 0) << arch.name;
  return *gpu;
}

class Sweep {
public:
  Sweep(const ArchLimits &arch, const char *name) : Gpu(targetFor(arch)), Name(name) {}
  ~Sweep() {
    comparedPerArch()[Gpu.arch.name] += Count;
    ::testing::Test::RecordProperty("configurations_compared", std::to_string(Count));
    std::cout << "[block size search differential] " << Gpu.arch.name << " " << Name << ": " << Count
              << " configurations compared\n";
  }
  bool check(const Config &c) { return checkOn(Gpu, c); }
  /// The same on another SM count (invalid ones included).
  bool checkOn(const TargetGpu &gpu, const Config &c) {
    ++Count;
    std::string why;
    if (agree(gpu, c, why))
      return true;
    ADD_FAILURE() << why;
    return false;
  }
  const TargetGpu &gpu() const { return Gpu; }

private:
  TargetGpu Gpu;
  const char *Name;
  uint64_t Count = 0;
};

const std::optional<int> kNoBounds;

void registers(const ArchLimits &arch) {
  Sweep sweep(arch, "Registers");
  for (int regs = 0; regs <= kMaxRegistersPerThread; ++regs)
    for (int limit : {0, 96, 128, 1000, 1024, 2048})
      for (std::optional<int> lb : {kNoBounds, std::optional<int>(256), std::optional<int>(1024)}) {
        Config c;
        c.regs = regs;
        c.blockSizeLimit = limit;
        c.launchBounds = lb;
        if (!sweep.check(c))
          return;
      }
}

void limits(const ArchLimits &arch) {
  Sweep sweep(arch, "Limits");
  for (int limit = 0; limit <= 1100; ++limit)
    for (int regs : {0, 32, 64, 128, 168, 255})
      for (std::optional<int> lb : {kNoBounds, std::optional<int>(100), std::optional<int>(640)}) {
        Config c;
        c.regs = regs;
        c.blockSizeLimit = limit;
        c.launchBounds = lb;
        if (!sweep.check(c))
          return;
      }
}

/// Dynamic sizes around every place the shared memory limit changes: the
/// per-block limits and, for 1..8 blocks per SM, each carveout's share.
std::vector<int64_t> dynamicSizes(const ArchLimits &arch, int64_t staticSmem) {
  std::set<int64_t> sizes = {0, 1, 1000, 4096, 16384, 40960};
  auto around = [&](int64_t v) {
    for (int64_t d = -1; d <= 1; ++d)
      if (v + d >= 0)
        sizes.insert(v + d);
  };
  const int64_t overhead = staticSmem + arch.reservedSharedMemPerBlock;
  for (int64_t v : {arch.sharedMemPerBlock, arch.sharedMemPerBlockOptin}) {
    around(v);
    around(v - staticSmem);
  }
  std::vector<int64_t> perSM = arch.carveoutBytes;
  perSM.push_back(arch.sharedMemPerSM);
  for (int64_t c : perSM)
    for (int blocks = 1; blocks <= 8; ++blocks)
      around(c / blocks - overhead);
  return {sizes.begin(), sizes.end()};
}

void sharedMemory(const ArchLimits &arch) {
  Sweep sweep(arch, "SharedMemory");
  for (int64_t staticSmem :
       {int64_t(0), int64_t(1000), int64_t(12288), int64_t(48128), arch.sharedMemPerBlock, arch.sharedMemPerBlock + 1})
    for (int64_t dyn : dynamicSizes(arch, staticSmem))
      for (bool optin : {false, true})
        for (int regs : {0, 24, 32, 40, 64, 96, 128, 255})
          for (int limit : {0, 128}) {
            Config c;
            c.regs = regs;
            c.staticSmem = staticSmem;
            c.dynamicSmem = dyn;
            if (optin)
              c.optin = std::max<int64_t>(0, arch.sharedMemPerBlockOptin - staticSmem);
            c.blockSizeLimit = limit;
            if (!sweep.check(c))
              return;
          }
}

void barriers(const ArchLimits &arch) {
  Sweep sweep(arch, "Barriers");
  for (int bars = 0; bars <= 16; ++bars)
    for (int regs : {0, 32, 64, 255})
      for (int limit : {0, 256}) {
        Config c;
        c.regs = regs;
        c.barriers = bars;
        c.blockSizeLimit = limit;
        if (!sweep.check(c))
          return;
      }
}

void variableSMem(const ArchLimits &arch) {
  Sweep sweep(arch, "VariableSMem");
  for (int f = 0; f < kSizeFunctionCount; ++f)
    for (int regs = 0; regs <= 256; regs += 8)
      for (bool optin : {false, true})
        for (int limit : {0, 1000})
          for (int64_t staticSmem : {0, 4096}) {
            Config c;
            c.regs = std::min(regs, kMaxRegistersPerThread);
            c.sizeFunction = f;
            c.staticSmem = staticSmem;
            if (optin)
              c.optin = arch.sharedMemPerBlockOptin - staticSmem;
            c.blockSizeLimit = limit;
            if (!sweep.check(c))
              return;
          }
}

/// What the header calls CUDA_OCC_ERROR_INVALID_INPUT: negative registers, a
/// function maximum block size of 0 or below, no SMs.
void invalidInputs(const ArchLimits &arch) {
  Sweep sweep(arch, "InvalidInputs");
  for (int regs : {-1, -100, 32})
    for (std::optional<int> lb : {kNoBounds, std::optional<int>(0), std::optional<int>(-5)})
      for (int sms : {0, -1, 1}) {
        Config c;
        c.regs = regs;
        c.launchBounds = lb;
        TargetGpu gpu = sweep.gpu();
        gpu.smCount = sms;
        if (!sweep.checkOn(gpu, c))
          return;
      }
}

constexpr uint64_t kRandomSeed = 0xb10c5123ULL;
constexpr int kRandomConfigs = 20000;

void randomConfigs(const ArchLimits &arch) {
  const uint64_t seed = kRandomSeed ^ (uint64_t(arch.major) << 8 | uint64_t(arch.minor));
  std::cout << "[block size search differential] " << arch.name << " Random: seed " << seed << "\n";
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const int64_t smemTop = arch.sharedMemPerBlockOptin + arch.reservedSharedMemPerBlock + 512;
  auto smem = [&]() -> int64_t {
    switch (uniform(0, 3)) {
    case 0:
      return 0;
    case 1:
      return uniform(0, 4096);
    case 2:
      return uniform(0, arch.sharedMemPerBlock + 512);
    default:
      return uniform(0, smemTop);
    }
  };
  Sweep sweep(arch, "Random");
  for (int i = 0; i < kRandomConfigs; ++i) {
    Config c;
    c.regs = static_cast<int>(uniform(0, kMaxRegistersPerThread));
    c.staticSmem = uniform(0, 1) ? smem() : 0;
    if (uniform(0, 3) == 0)
      c.sizeFunction = static_cast<int>(uniform(0, kSizeFunctionCount - 1));
    else
      c.dynamicSmem = uniform(0, 1) ? smem() : 0;
    if (uniform(0, 1))
      c.optin = uniform(0, 3) == 0 ? smem() : std::max<int64_t>(0, arch.sharedMemPerBlockOptin - c.staticSmem);
    c.barriers = static_cast<int>(uniform(0, 16));
    if (uniform(0, 4) == 0)
      c.launchBounds = static_cast<int>(uniform(1, 2 * arch.maxThreadsPerBlock));
    if (uniform(0, 1))
      c.blockSizeLimit = static_cast<int>(uniform(0, 2 * arch.maxThreadsPerBlock));
    c.flags = static_cast<unsigned>(uniform(0, 1)); // no partitioned caching: the same
    if (!sweep.check(c))
      return;
  }
}

#define DIFFERENTIAL_BODY(fn) fn(GetParam())
#else
#define DIFFERENTIAL_BODY(fn)                                                                                          \
  FAIL() << "cuda_occupancy.h was not found at " OCCLINT_OCC_HEADER_PATH                                               \
            " when this test was configured; install the CUDA toolkit or point "                                       \
            "OCCLINT_CUDA_PATH at it and reconfigure"
#endif

class BlockSizeSearchDifferential : public ::testing::TestWithParam<ArchLimits> {};

TEST_P(BlockSizeSearchDifferential, Registers) { DIFFERENTIAL_BODY(registers); }
TEST_P(BlockSizeSearchDifferential, Limits) { DIFFERENTIAL_BODY(limits); }
TEST_P(BlockSizeSearchDifferential, SharedMemory) { DIFFERENTIAL_BODY(sharedMemory); }
TEST_P(BlockSizeSearchDifferential, Barriers) { DIFFERENTIAL_BODY(barriers); }
TEST_P(BlockSizeSearchDifferential, VariableSMem) { DIFFERENTIAL_BODY(variableSMem); }
TEST_P(BlockSizeSearchDifferential, InvalidInputs) { DIFFERENTIAL_BODY(invalidInputs); }
TEST_P(BlockSizeSearchDifferential, Random) { DIFFERENTIAL_BODY(randomConfigs); }

INSTANTIATE_TEST_SUITE_P(Arch, BlockSizeSearchDifferential, ::testing::ValuesIn(databaseArchs()), archTestName);

} // namespace
