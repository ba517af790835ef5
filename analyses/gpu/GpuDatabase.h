// The GPU database: per-compute-capability limits and named products, loaded
// from data/gpus.json (compiled into the binary). Every number in that file
// names its source (cuda_occupancy.h, the CUDA C Programming Guide's
// compute-capability tables, or a measurement).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

/// Limits of one compute capability, as the occupancy calculation needs them.
struct ArchLimits {
  std::string name;         // "sm_90"
  int major = 0, minor = 0; // 9, 0
  std::string family;       // "Hopper"
  int warpSize = 32;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerSM = 0;
  int maxWarpsPerSM = 0;  // maxThreadsPerSM / warpSize
  int maxBlocksPerSM = 0; // the block-count cap
  int regsPerSM = 0;
  int regsPerBlock = 0;
  int regAllocUnit = 0;                  // registers are allocated per warp in units of this many
  int maxRegsPerThread = 0;              // cudaOccRegAllocationMaxPerThread: 255 for 5.x/6.x,
                                         // 256 from 7.0 on (ptxas itself never exceeds 255)
  int64_t sharedMemPerSM = 0;            // usable shared memory per SM (max carveout)
  int64_t sharedMemPerBlock = 0;         // default per-block limit (48 KB)
  int64_t sharedMemPerBlockOptin = 0;    // opt-in per-block maximum
  int smemAllocUnit = 0;                 // shared memory allocation granularity
  int64_t reservedSharedMemPerBlock = 0; // reserved by the driver per block
  int maxBarriersPerSM = 0;              // block barriers per SM as cuda_occupancy.h counts them:
                                         // maxBlocksPerSM * 2 (5.x-7.x, 8.0, 9.0, 10.0, 10.3) or
                                         // maxBlocksPerSM * 1 (8.6, 8.7, 8.9, 10.1, 11.0, 12.x);
                                         // the limit is maxBarriersPerSM / numBlockBarriers blocks
  std::vector<int64_t> carveoutBytes;    // shared-memory carveout choices, ascending
  std::string defaultProduct;            // product used when only the arch is known

  // --- Added fields (everything cuda_occupancy.h needs beyond the above).
  int subPartitionsPerSM = 4;                 // cudaOccSubPartitionsPerMultiprocessor (2 on sm_60)
  bool barrierLimitEnforced = false;          // the header applies the barrier limit only from 9.0 on
  int maxVirtualResourcesPerSM = 0;           // cudaOccMaxVirtualResourceCountPerSM (128 from 10.0 on)
  bool partitionedGlobalCaching = false;      // cudaOccPartitionedGlobalCachingModeSupport
                                              // (5.2, 5.3, 6.1, 6.2)
  std::string note;                           // free text, e.g. about renamed archs
  std::map<std::string, std::string> sources; // field name -> where its value comes from

  /// Source of one field ("" if none recorded).
  std::string sourceOf(const std::string &field) const;
};

/// What a product's datasheet says it moves and computes, for the estimates
/// that need a rate (the overlap of an async-copy pipeline,
/// gpu/PipelineOverlap.h): peak figures, never measured ones.
struct ProductThroughput {
  double memoryBandwidthGBs = 0; // device memory, GB/s (10^9 bytes)
  double boostClockMHz = 0;      // the clock of the datasheet's peak figures
  double fp32Tflops = 0;         // non-tensor FP32, dense
  double tensorFp16Tflops = 0;   // FP16 tensor-core operations, dense (no sparsity)
  std::string source;            // where the four figures come from
};

/// A named product: an arch plus its SM count. Every product uses its arch's
/// limits unchanged (no product in the database reports different per-SM or
/// per-block sizes from the other products of its compute capability).
struct GpuProduct {
  std::string name;                 // "H200"
  std::vector<std::string> aliases; // "h200-sxm", ...
  std::string arch;                 // "sm_90"
  int smCount = 0;
  std::string source;                                         // where the SM count comes from
  std::optional<ProductThroughput> throughput = std::nullopt; // absent where the database has no figures
};

/// A resolved target: the limits to use plus how many SMs.
struct TargetGpu {
  ArchLimits arch;
  std::string productName; // "H200", or "sm_90:132" for an arch with an explicit SM count
  int smCount = 0;
  /// Named by its arch alone ("sm_90"): the product, and so the SM count, is
  /// the arch's default product's, an assumption a value read from the
  /// device (prop.multiProcessorCount) says it rests on.
  bool productAssumed = false;
  /// The product's datasheet rates; absent for an explicit SM count (another
  /// part of that arch) or a product without figures.
  std::optional<ProductThroughput> throughput = std::nullopt;
};

class GpuDatabase {
public:
  /// The database compiled into the binary.
  static const GpuDatabase &builtin();
  /// Parse a database from JSON text; throws std::runtime_error with a message.
  static GpuDatabase fromJson(std::string_view jsonText);

  const std::vector<ArchLimits> &archs() const { return Archs; }
  const std::vector<GpuProduct> &products() const { return Products; }

  /// "sm_90", "90", "9.0", "compute_90" -> the arch; nullptr if unknown.
  const ArchLimits *findArch(std::string_view spec) const;
  /// Case-insensitive product name or alias; nullptr if unknown.
  const GpuProduct *findProduct(std::string_view name) const;

  /// Resolves a --gpu value: a product ("H100", "h100 sxm"), an arch ("sm_90",
  /// using its default product's SM count) or "sm_90:132". On failure returns
  /// nullopt and sets Error to one line, listing close matches for unknown names.
  std::optional<TargetGpu> resolve(std::string_view spec, std::string &error) const;

  /// Names closest to Spec (edit distance), best first, at most MaxCount.
  std::vector<std::string> closeMatches(std::string_view spec, size_t maxCount = 3) const;

private:
  std::vector<ArchLimits> Archs;
  std::vector<GpuProduct> Products;
};

} // namespace occlint
