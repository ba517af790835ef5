// The differential test: occlint's occupancy engine (analyses/gpu/Occupancy.cpp)
// against NVIDIA's reference, cudaOccMaxActiveBlocksPerMultiprocessor from
// cuda_occupancy.h, for every arch of the built-in GPU database. This is the
// only file of the project that includes that header.
//
// For each arch (one instance of every test per arch, named after it) the
// device properties come from our ArchLimits, the function attributes from the
// swept configuration, the device state is the default one (cacheConfig NONE,
// carveout DEFAULT) and partitioned global caching is off, as the runtime has
// it. Compared: activeBlocksPerMultiprocessor, every blockLimit*,
// limitingFactors, allocatedRegistersPerBlock, allocatedSharedMemPerBlock; a
// header error or a 0-block result must be a launch failure on our side.
//
// Sweeps (docs/occupancy-model.md, "Differential test"):
//   FullGrid      every block size 1..1024 x every register count 0..255
//   FullGridSharedMemory  the same with 12 KB static + (3000 + block size) B
//                 dynamic shared memory and 2 barriers
//   SharedMemory  static / dynamic / opt-in shared memory at and +-1 around every
//                 allocation-unit boundary, every carveout and every per-block limit
//   Barriers      0..16 block barriers x every block size x 5 register counts
//   Random        100,000 random configurations (fixed seed, printed)
//   NextSteps     every next step of 2,000 random configurations re-checked
//   Refusals      where the runtime refuses what the header accepts
#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cstring>
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
// Readable test parameters in gtest's messages.
void PrintTo(const ArchLimits &a, std::ostream *os) { *os << a.name; }
} // namespace occlint

using namespace occlint;

namespace {

const std::vector<ArchLimits> &databaseArchs() { return GpuDatabase::builtin().archs(); }

std::string archTestName(const testing::TestParamInfo<ArchLimits> &info) {
  std::string n = info.param.name;
  for (char &c : n)
    if (!isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

/// Configurations compared per arch, over all tests (printed at the end).
std::map<std::string, uint64_t> &comparedPerArch() {
  static std::map<std::string, uint64_t> m;
  return m;
}

class SummaryPrinter : public testing::Environment {
public:
  void TearDown() override {
    uint64_t total = 0;
    for (auto &[arch, n] : comparedPerArch()) {
      std::cout << "[occupancy differential] " << arch << ": " << n << " configurations compared\n";
      total += n;
    }
    std::cout << "[occupancy differential] total: " << total << " configurations\n";
  }
};
[[maybe_unused]] testing::Environment *const kSummary = testing::AddGlobalTestEnvironment(new SummaryPrinter);

struct Config {
  int threads = 1;
  int regs = 0;
  int64_t staticSmem = 0;
  int64_t dynamicSmem = 0;
  std::optional<int64_t> optin; // cudaFuncAttributeMaxDynamicSharedMemorySize
  int barriers = 1;
  std::optional<int> launchBounds;

  std::string describe(const ArchLimits &arch) const {
    std::ostringstream os;
    os << arch.name << ": blockSize=" << threads << " numRegs=" << regs << " sharedSizeBytes=" << staticSmem
       << " dynamicSmemSize=" << dynamicSmem << " shmemLimitConfig=" << (optin ? "OPTIN" : "DEFAULT")
       << " maxDynamicSharedSizeBytes=" << (optin ? *optin : 0) << " numBlockBarriers=" << barriers
       << " maxThreadsPerBlock(attr)=" << (launchBounds ? *launchBounds : arch.maxThreadsPerBlock);
    return os.str();
  }
};

/// A TargetGpu for Arch, built once per sweep (ArchLimits is costly to copy).
TargetGpu targetFor(const ArchLimits &arch) {
  TargetGpu gpu;
  gpu.arch = arch;
  gpu.productName = arch.name;
  gpu.smCount = 1;
  return gpu;
}

OccupancyResult ours(const TargetGpu &gpu, const Config &c, bool withNextSteps = false) {
  KernelResources k;
  k.registersPerThread = c.regs;
  k.staticSharedMem = c.staticSmem;
  k.barriers = c.barriers;
  k.launchBoundsMaxThreads = c.launchBounds;
  LaunchShape l;
  l.blockX = c.threads;
  l.dynamicSharedMem = c.dynamicSmem;
  l.optinDynamicSharedMem = c.optin;
  return withNextSteps ? computeOccupancy(gpu, k, l) : computeOccupancyLimits(gpu, k, l);
}

#ifdef OCCLINT_HAVE_CUDA_OCCUPANCY_H

struct Reference {
  cudaOccError error = CUDA_OCC_SUCCESS;
  cudaOccResult result;
};

Reference reference(const ArchLimits &arch, const Config &c) {
  const cudaOccDeviceProp prop = occlint::occref::referenceDeviceProp(arch, 1);
  const cudaOccFuncAttributes attr =
      occlint::occref::referenceFuncAttributes(arch, c.regs, c.staticSmem, c.optin, c.barriers, c.launchBounds);

  cudaOccDeviceState state; // cacheConfig NONE, carveout DEFAULT
  Reference ref;
  std::memset(&ref.result, 0, sizeof ref.result);
  ref.error = cudaOccMaxActiveBlocksPerMultiprocessor(&ref.result, &prop, &attr, &state, c.threads,
                                                      static_cast<size_t>(c.dynamicSmem));
  return ref;
}

// Our Limiter bits are the header's OCC_LIMIT_* values.
static_assert(unsigned(Limiter::Warps) == OCC_LIMIT_WARPS);
static_assert(unsigned(Limiter::Registers) == OCC_LIMIT_REGISTERS);
static_assert(unsigned(Limiter::SharedMemory) == OCC_LIMIT_SHARED_MEMORY);
static_assert(unsigned(Limiter::Blocks) == OCC_LIMIT_BLOCKS);
static_assert(unsigned(Limiter::Barriers) == OCC_LIMIT_BARRIERS);

/// Launches the runtime refuses although the header computes blocks for them:
/// more threads than __launch_bounds__, more than 255 registers per thread.
bool runtimeRefuses(const Config &c, const OccupancyResult &r) {
  return (r.failure == LaunchFailure::TooManyThreads && c.launchBounds && c.threads > *c.launchBounds) ||
         (r.failure == LaunchFailure::TooManyRegistersPerThread && c.regs > kMaxRegistersPerThread);
}

/// Compares one configuration; on a mismatch, Why gets the inputs and both results.
bool agree(const TargetGpu &gpu, const Config &c, std::string &why) {
  const ArchLimits &arch = gpu.arch;
  const Reference ref = reference(arch, c);
  const OccupancyResult r = ours(gpu, c);
  std::ostringstream os;
  auto mismatch = [&](const std::string &what) {
    const cudaOccResult &h = ref.result;
    os << "MISMATCH (" << what << ") for " << c.describe(arch) << "\n  header: error=" << ref.error
       << " active=" << h.activeBlocksPerMultiprocessor << " limitingFactors=" << h.limitingFactors
       << " regs=" << h.blockLimitRegs << " smem=" << h.blockLimitSharedMem << " warps=" << h.blockLimitWarps
       << " blocks=" << h.blockLimitBlocks << " barriers=" << h.blockLimitBarriers
       << " allocRegs=" << h.allocatedRegistersPerBlock << " allocSmem=" << h.allocatedSharedMemPerBlock
       << "\n  occlint: failure='" << launchFailureName(r.failure) << "' (" << r.failureReason
       << ") blocksPerSM=" << r.blocksPerSM << " limitingFactors=" << r.limitingFactors << " regs=" << r.limitRegisters
       << " smem=" << r.limitSharedMem << " warps=" << r.limitWarps << " blocks=" << r.limitBlocks
       << " barriers=" << r.limitBarriers << " allocRegs=" << r.allocatedRegistersPerBlock
       << " allocSmem=" << r.allocatedSharedMemPerBlock;
    why = os.str();
    return false;
  };
  if (ref.error != CUDA_OCC_SUCCESS)
    return r.failure != LaunchFailure::None ? true : mismatch("header error, occlint launches");
  const cudaOccResult &h = ref.result;
  if (h.activeBlocksPerMultiprocessor == 0) {
    if (r.failure == LaunchFailure::None)
      return mismatch("header 0 blocks, occlint launches");
  } else if (r.failure != LaunchFailure::None) {
    if (!runtimeRefuses(c, r))
      return mismatch("occlint fails a launch the header accepts");
  } else if (r.blocksPerSM != h.activeBlocksPerMultiprocessor) {
    return mismatch("activeBlocksPerMultiprocessor");
  }
  if (r.limitWarps != h.blockLimitWarps)
    return mismatch("blockLimitWarps");
  if (r.limitRegisters != h.blockLimitRegs)
    return mismatch("blockLimitRegs");
  if (r.limitSharedMem != h.blockLimitSharedMem)
    return mismatch("blockLimitSharedMem");
  if (r.limitBlocks != h.blockLimitBlocks)
    return mismatch("blockLimitBlocks");
  if (r.limitBarriers != h.blockLimitBarriers)
    return mismatch("blockLimitBarriers");
  if (r.limitingFactors != h.limitingFactors)
    return mismatch("limitingFactors");
  if (r.allocatedRegistersPerBlock != h.allocatedRegistersPerBlock)
    return mismatch("allocatedRegistersPerBlock");
  if (r.allocatedSharedMemPerBlock != static_cast<int64_t>(h.allocatedSharedMemPerBlock))
    return mismatch("allocatedSharedMemPerBlock");
  if (r.failure == LaunchFailure::None) {
    const int warps = (c.threads + arch.warpSize - 1) / arch.warpSize;
    const double occ = double(h.activeBlocksPerMultiprocessor * warps) / double(arch.maxThreadsPerSM / arch.warpSize);
    if (r.occupancy != occ)
      return mismatch("occupancy");
  }
  return true;
}

/// Runs the configurations one by one, stopping at the first mismatch.
class Sweep {
public:
  Sweep(const ArchLimits &arch, const char *name)
      : Arch(arch), Gpu(targetFor(arch)), Name(name), Start(std::chrono::steady_clock::now()) {}
  ~Sweep() {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    comparedPerArch()[Arch.name] += Count;
    testing::Test::RecordProperty("configurations_compared", std::to_string(Count));
    std::cout << "[occupancy differential] " << Arch.name << " " << Name << ": " << Count
              << " configurations compared in " << s << " s\n";
  }
  /// False (and a gtest failure) on the first mismatch.
  bool check(const Config &c) {
    ++Count;
    std::string why;
    if (agree(Gpu, c, why))
      return true;
    ADD_FAILURE() << why;
    return false;
  }
  uint64_t count() const { return Count; }
  const TargetGpu &gpu() const { return Gpu; }

private:
  const ArchLimits &Arch;
  TargetGpu Gpu;
  const char *Name;
  std::chrono::steady_clock::time_point Start;
  uint64_t Count = 0;
};

void fullGrid(const ArchLimits &arch) {
  Sweep sweep(arch, "FullGrid");
  for (int threads = 1; threads <= arch.maxThreadsPerBlock; ++threads)
    for (int regs = 0; regs <= kMaxRegistersPerThread; ++regs) {
      Config c;
      c.threads = threads;
      c.regs = regs;
      if (!sweep.check(c))
        return;
    }
  // Just above the device's block size limit.
  for (int threads = arch.maxThreadsPerBlock + 1; threads <= arch.maxThreadsPerBlock + 64; ++threads) {
    Config c;
    c.threads = threads;
    c.regs = 32;
    if (!sweep.check(c))
      return;
  }
}

/// The full grid again with shared memory and two barriers, so that shared
/// memory, registers, warps, blocks and barriers tie in every combination.
void fullGridWithSharedMemory(const ArchLimits &arch) {
  Sweep sweep(arch, "FullGridSharedMemory");
  for (int threads = 1; threads <= arch.maxThreadsPerBlock; ++threads)
    for (int regs = 0; regs <= kMaxRegistersPerThread; ++regs) {
      Config c;
      c.threads = threads;
      c.regs = regs;
      c.staticSmem = 12 * 1024;
      c.dynamicSmem = 3000 + threads; // varies so allocation-unit rounding varies
      c.barriers = 2;
      if (!sweep.check(c))
        return;
    }
}

/// Every shared memory size worth testing: 0, every allocation-unit boundary
/// and +-1 around it, every carveout and per-block limit and +-1 around them.
std::vector<int64_t> sharedMemSizes(const ArchLimits &arch) {
  std::set<int64_t> sizes;
  const int64_t top = arch.sharedMemPerBlockOptin + arch.reservedSharedMemPerBlock + 2 * arch.smemAllocUnit;
  auto around = [&](int64_t v) {
    for (int64_t d = -1; d <= 1; ++d)
      if (v + d >= 0)
        sizes.insert(v + d);
  };
  for (int64_t v = 0; v <= top; v += arch.smemAllocUnit)
    around(v);
  for (int64_t v : arch.carveoutBytes)
    around(v);
  for (int64_t v : {arch.sharedMemPerBlock, arch.sharedMemPerBlockOptin, arch.sharedMemPerSM}) {
    around(v);
    around(v - arch.reservedSharedMemPerBlock);
    around(v + arch.reservedSharedMemPerBlock);
  }
  return {sizes.begin(), sizes.end()};
}

void sharedMemory(const ArchLimits &arch) {
  Sweep sweep(arch, "SharedMemory");
  const std::vector<int64_t> sizes = sharedMemSizes(arch);
  const int64_t optinMax = arch.sharedMemPerBlockOptin;
  for (int threads : {32, 96, 256, 1024})
    for (int regs : {0, 32, 72})
      for (int64_t v : sizes) {
        Config c;
        c.threads = threads;
        c.regs = regs;
        std::vector<Config> cs;
        c.staticSmem = v; // static only, default per-block limit
        cs.push_back(c);
        c.staticSmem = 0; // dynamic only, no opt-in
        c.dynamicSmem = v;
        cs.push_back(c);
        c.optin = optinMax; // dynamic with the largest opt-in
        cs.push_back(c);
        c.optin = v; // opt-in exactly what is used, with some static
        c.staticSmem = 1000;
        cs.push_back(c);
        c.optin = v > 0 ? v - 1 : 0; // dynamic above the attribute
        cs.push_back(c);
        c.optin = optinMax - 1000; // static + attribute at the opt-in maximum
        cs.push_back(c);
        c.staticSmem = v; // static varies under a fixed opt-in
        c.dynamicSmem = 4096;
        c.optin = 8192;
        cs.push_back(c);
        for (const Config &x : cs)
          if (!sweep.check(x))
            return;
      }
}

void barriers(const ArchLimits &arch) {
  Sweep sweep(arch, "Barriers");
  for (int bars = 0; bars <= 16; ++bars)
    for (int threads = 1; threads <= arch.maxThreadsPerBlock; ++threads)
      for (int regs : {0, 16, 32, 64, 255}) {
        Config c;
        c.threads = threads;
        c.regs = regs;
        c.barriers = bars;
        if (!sweep.check(c))
          return;
      }
}

constexpr uint64_t kRandomSeed = 0x0cc11a7eULL;
constexpr int kRandomConfigs = 100000;

uint64_t seedFor(const ArchLimits &arch) { return kRandomSeed ^ (uint64_t(arch.major) << 8 | uint64_t(arch.minor)); }

Config randomConfig(const ArchLimits &arch, std::mt19937_64 &rng) {
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
  Config c;
  c.threads = static_cast<int>(uniform(0, 19) == 0 ? uniform(1, 2 * arch.maxThreadsPerBlock)
                                                   : uniform(1, arch.maxThreadsPerBlock));
  c.regs = static_cast<int>(uniform(0, kMaxRegistersPerThread));
  c.staticSmem = uniform(0, 1) ? smem() : 0;
  c.dynamicSmem = uniform(0, 1) ? smem() : 0;
  if (uniform(0, 1))
    c.optin = uniform(0, 3) == 0 ? smem() : std::max<int64_t>(0, arch.sharedMemPerBlockOptin - c.staticSmem);
  c.barriers = static_cast<int>(uniform(0, 16));
  if (uniform(0, 9) == 0)
    c.launchBounds = static_cast<int>(uniform(1, arch.maxThreadsPerBlock));
  return c;
}

void randomConfigs(const ArchLimits &arch) {
  const uint64_t seed = seedFor(arch);
  std::cout << "[occupancy differential] " << arch.name << " Random: seed " << seed << "\n";
  testing::Test::RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  Sweep sweep(arch, "Random");
  for (int i = 0; i < kRandomConfigs; ++i)
    if (!sweep.check(randomConfig(arch, rng)))
      return;
}

/// Every next step's promise (blocks/SM and occupancy after the step)
/// re-checked against the header with the step applied.
void nextSteps(const ArchLimits &arch) {
  std::mt19937_64 rng(seedFor(arch) + 1);
  Sweep sweep(arch, "NextSteps");
  int steps = 0;
  for (int i = 0; i < 2000; ++i) {
    Config c = randomConfig(arch, rng);
    if (!sweep.check(c))
      return;
    const OccupancyResult r = ours(sweep.gpu(), c, true);
    const OccupancyResult plain = ours(sweep.gpu(), c);
    ASSERT_EQ(r.blocksPerSM, plain.blocksPerSM) << c.describe(arch);
    ASSERT_EQ(r.failure, plain.failure) << c.describe(arch);
    for (const NextStep &s : r.nextSteps) {
      ++steps;
      Config after = c;
      if (s.resource == "registers") {
        after.regs = static_cast<int>(s.newValue);
      } else if (s.resource == "shared memory") {
        if (s.reduceBy == 0) { // the opt-in step
          after.optin = after.dynamicSmem;
        } else {
          const int64_t fromDynamic = std::min(s.reduceBy, after.dynamicSmem);
          after.dynamicSmem -= fromDynamic;
          after.staticSmem -= s.reduceBy - fromDynamic;
        }
      } else {
        ASSERT_EQ(s.resource, "block size") << c.describe(arch);
        after.threads = static_cast<int>(s.newValue);
        ASSERT_EQ(s.newValue % arch.warpSize, 0) << c.describe(arch) << ": " << s.text;
      }
      const Reference ref = reference(arch, after);
      ASSERT_EQ(ref.error, CUDA_OCC_SUCCESS) << after.describe(arch) << " from " << s.text;
      ASSERT_EQ(s.blocksPerSM, ref.result.activeBlocksPerMultiprocessor)
          << "step '" << s.text << "' of " << c.describe(arch);
      ASSERT_GT(s.blocksPerSM, 0) << s.text;
      ASSERT_FALSE(s.text.empty());
      if (s.resource != "block size" && r.failure == LaunchFailure::None)
        ASSERT_GE(s.occupancy, r.occupancy) << s.text;
      if (s.resource == "block size")
        ASSERT_GT(s.occupancy, r.occupancy) << s.text;
    }
  }
  std::cout << "[occupancy differential] " << arch.name << " NextSteps: " << steps << " next steps re-checked\n";
}

/// Where the runtime refuses a launch the header computes blocks for: more
/// threads than __launch_bounds__, 256 registers per thread. The limits must
/// still be the header's.
void refusals(const ArchLimits &arch) {
  Sweep sweep(arch, "Refusals");
  for (int threads : {1, 64, 256, 1024})
    for (int lb : {32, 128, 512}) {
      Config c;
      c.threads = threads;
      c.regs = 32;
      c.launchBounds = lb;
      if (!sweep.check(c))
        return;
      EXPECT_EQ(ours(sweep.gpu(), c).failure == LaunchFailure::TooManyThreads, threads > lb) << c.describe(arch);
    }
  for (int threads : {1, 32, 128, 256, 512}) {
    Config c;
    c.threads = threads;
    c.regs = 256;
    if (!sweep.check(c))
      return;
    EXPECT_EQ(ours(sweep.gpu(), c).failure, LaunchFailure::TooManyRegistersPerThread) << c.describe(arch);
  }
  // Header errors (CUDA_OCC_ERROR_INVALID_INPUT) must be failures.
  for (int regs : {-1, -100}) {
    Config c;
    c.threads = 128;
    c.regs = regs;
    if (!sweep.check(c))
      return;
  }
  Config zero;
  zero.threads = 0;
  if (!sweep.check(zero))
    return;
}

#define DIFFERENTIAL_BODY(fn) fn(GetParam())
#else
#define DIFFERENTIAL_BODY(fn)                                                                                          \
  FAIL() << "cuda_occupancy.h was not found at " OCCLINT_OCC_HEADER_PATH                                               \
            " when this test was configured; install the CUDA toolkit or point "                                       \
            "OCCLINT_CUDA_PATH at it and reconfigure"
#endif

class OccupancyDifferential : public testing::TestWithParam<ArchLimits> {};

TEST_P(OccupancyDifferential, FullGrid) { DIFFERENTIAL_BODY(fullGrid); }
TEST_P(OccupancyDifferential, FullGridSharedMemory) { DIFFERENTIAL_BODY(fullGridWithSharedMemory); }
TEST_P(OccupancyDifferential, SharedMemory) { DIFFERENTIAL_BODY(sharedMemory); }
TEST_P(OccupancyDifferential, Barriers) { DIFFERENTIAL_BODY(barriers); }
TEST_P(OccupancyDifferential, Random) { DIFFERENTIAL_BODY(randomConfigs); }
TEST_P(OccupancyDifferential, NextSteps) { DIFFERENTIAL_BODY(nextSteps); }
TEST_P(OccupancyDifferential, Refusals) { DIFFERENTIAL_BODY(refusals); }

INSTANTIATE_TEST_SUITE_P(Arch, OccupancyDifferential, testing::ValuesIn(databaseArchs()), archTestName);

/// The database covers every compute capability cuda_occupancy.h knows.
TEST(OccupancyDifferentialCoverage, EveryHeaderArchIsInTheDatabase) {
#ifndef OCCLINT_HAVE_CUDA_OCCUPANCY_H
  FAIL() << "cuda_occupancy.h was not found at " OCCLINT_OCC_HEADER_PATH;
#else
  // The compute capabilities cuda_occupancy.h (CUDA 13) has cases for.
  const std::vector<std::pair<int, int>> known = {{5, 0},  {5, 2},  {5, 3},  {6, 0},  {6, 1},  {6, 2}, {7, 0},
                                                  {7, 2},  {7, 5},  {8, 0},  {8, 6},  {8, 7},  {8, 9}, {9, 0},
                                                  {10, 0}, {10, 1}, {10, 3}, {11, 0}, {12, 0}, {12, 1}};
  std::set<std::pair<int, int>> have;
  for (const ArchLimits &a : databaseArchs()) {
    have.insert({a.major, a.minor});
    EXPECT_LE(a.major * 10 + a.minor, __CUDA_OCC_MAJOR__ * 10 + __CUDA_OCC_MINOR__)
        << a.name << " is newer than cuda_occupancy.h";
    // The header knows the arch: a trivial launch computes without error.
    Config c;
    c.threads = 128;
    c.regs = 32;
    EXPECT_EQ(reference(a, c).error, CUDA_OCC_SUCCESS) << a.name;
  }
  for (auto [major, minor] : known)
    EXPECT_TRUE(have.count({major, minor})) << "sm_" << major << minor << " is missing from data/gpus.json";
#endif
}

} // namespace
