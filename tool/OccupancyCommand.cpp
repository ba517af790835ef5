// `occlint occupancy`: the occupancy calculator. Prints the block limit of
// every resource (like Nsight Compute's "Block Limit ..." rows), the
// occupancy, waves for a grid, and the next steps.
#include "ArgParser.h"
#include "ExitCodes.h"
#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"
#include "gpu/PipelineOverlap.h"
#include "gpu/PipelineStaircase.h"
#include "gpu/PipelineStaircaseJson.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <sstream>

namespace occlint {

static const char *const OccupancyHelp = R"(usage: occlint occupancy --gpu GPU --block N[xN[xN]] --regs N [options]

  --gpu GPU            product (H100, a100-40gb), arch (sm_90) or arch:SMs (sm_90:132)
  --block SHAPE        threads per block: 256, 16x16 or 8x8x4 (1..1024 threads)
  --regs N             registers per thread (0..255)
  --smem BYTES         static shared memory per block (e.g. 4096, 48K)
  --dyn-smem BYTES     dynamic shared memory per block
  --optin-smem BYTES   cudaFuncAttributeMaxDynamicSharedMemorySize set for the kernel
  --barriers N         named barriers used (ptxas "used N barriers"; default 1)
  --launch-bounds MAX  __launch_bounds__ maximum threads per block
  --grid BLOCKS        total blocks in the grid, for waves
  --stages N|A-B       an async-copy ring's depths: the blocks per SM at each
                       depth (needs --smem-per-stage; --smem is then the shared
                       memory outside the ring)
  --smem-per-stage BYTES  the shared memory of one stage of the ring
  --tile-flops N       with --stages: floating-point operations one block does
                       on one tile (an FMA is 2); with --tile-tensor-flops,
                       the overlap estimate per depth (load and compute time
                       per tile, whether the ring covers the load)
  --tile-tensor-flops N  tensor-core FLOPs one block does on one tile
  --format text|json   output format (default text)

With --stages, a depth whose ring exceeds the 48 KB default per block is
counted as opted in (docs/async-pipelines.md). The overlap estimate uses the
GPU's datasheet rates (data/gpus.json); a GPU without them gets none.
)";

static std::string percent(double Fraction) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.1f%%", 100.0 * Fraction);
  return Buffer;
}

static nlohmann::json toJson(const TargetGpu &Gpu, const KernelResources &K, const LaunchShape &L,
                             const OccupancyResult &R) {
  nlohmann::json J;
  J["version"] = 1;
  J["gpu"] = {{"name", Gpu.productName}, {"arch", Gpu.arch.name}, {"sms", Gpu.smCount}};
  J["input"] = {{"block", {L.blockX, L.blockY, L.blockZ}},
                {"registersPerThread", K.registersPerThread},
                {"staticSharedMemory", K.staticSharedMem},
                {"dynamicSharedMemory", L.dynamicSharedMem},
                {"barriers", K.barriers}};
  if (L.gridBlocks)
    J["input"]["grid"] = *L.gridBlocks;
  J["canLaunch"] = R.failure == LaunchFailure::None;
  if (R.failure != LaunchFailure::None)
    J["failure"] = R.failureReason;
  J["blocksPerSM"] = R.blocksPerSM;
  J["warpsPerBlock"] = R.warpsPerBlock;
  J["activeWarpsPerSM"] = R.activeWarpsPerSM;
  J["maxWarpsPerSM"] = R.maxWarpsPerSM;
  J["occupancy"] = R.occupancy;
  // null: the resource limits nothing (the engine says INT_MAX, as the header does).
  auto Limit = [](int Value) { return Value >= 1 << 30 ? nlohmann::json(nullptr) : nlohmann::json(Value); };
  J["blockLimits"] = {{"warps", Limit(R.limitWarps)},
                      {"registers", Limit(R.limitRegisters)},
                      {"sharedMemory", Limit(R.limitSharedMem)},
                      {"blocks", Limit(R.limitBlocks)},
                      {"barriers", Limit(R.limitBarriers)}};
  nlohmann::json Binding = nlohmann::json::array();
  for (Limiter Lim : {Limiter::Warps, Limiter::Registers, Limiter::SharedMemory, Limiter::Blocks, Limiter::Barriers})
    if (R.bindingLimiters & static_cast<unsigned>(Lim))
      Binding.push_back(limiterName(Lim));
  J["limitedBy"] = Binding;
  J["allocatedRegistersPerBlock"] = R.allocatedRegistersPerBlock;
  J["allocatedSharedMemoryPerBlock"] = R.allocatedSharedMemPerBlock;
  if (R.waves) {
    J["waves"] = {{"waves", *R.waves},
                  {"fullWaves", R.fullWaves.value_or(0)},
                  {"tailBlocks", R.tailBlocks.value_or(0)},
                  {"blocksPerWave", int64_t(R.blocksPerSM) * Gpu.smCount}};
  }
  nlohmann::json Steps = nlohmann::json::array();
  for (const NextStep &S : R.nextSteps)
    Steps.push_back({{"resource", S.resource},
                     {"reduceBy", S.reduceBy},
                     {"blocksPerSM", S.blocksPerSM},
                     {"occupancy", S.occupancy},
                     {"text", S.text}});
  J["nextSteps"] = Steps;
  return J;
}

static void printText(std::ostream &OS, const TargetGpu &Gpu, const KernelResources &K, const LaunchShape &L,
                      const OccupancyResult &R) {
  OS << "GPU            " << Gpu.productName << " (" << Gpu.arch.name << ", " << Gpu.smCount << " SMs)\n";
  OS << "Block          " << L.blockX << "x" << L.blockY << "x" << L.blockZ << " = " << L.threadsPerBlock()
     << " threads, " << K.registersPerThread << " registers/thread, " << K.staticSharedMem << " B static + "
     << L.dynamicSharedMem << " B dynamic shared memory, " << K.barriers << " barrier(s)\n";
  if (R.failure != LaunchFailure::None) {
    OS << "Cannot launch: " << R.failureReason << "\n";
    return;
  }
  auto Row = [&](const char *Name, int Value, Limiter Lim) {
    // A resource that limits nothing has an "unlimited" block limit.
    OS << "  Block Limit " << Name << (Value >= 1 << 30 ? std::string("unlimited") : std::to_string(Value))
       << ((R.bindingLimiters & static_cast<unsigned>(Lim)) ? "   <- binding" : "") << "\n";
  };
  Row("Warps          ", R.limitWarps, Limiter::Warps);
  Row("Registers      ", R.limitRegisters, Limiter::Registers);
  Row("Shared Mem     ", R.limitSharedMem, Limiter::SharedMemory);
  Row("SM (blocks)    ", R.limitBlocks, Limiter::Blocks);
  Row("Barriers       ", R.limitBarriers, Limiter::Barriers);
  OS << "Blocks/SM      " << R.blocksPerSM << " (limited by " << limiterNames(R.bindingLimiters) << ")\n";
  OS << "Active warps   " << R.activeWarpsPerSM << " of " << R.maxWarpsPerSM << " per SM\n";
  OS << "Occupancy      " << percent(R.occupancy) << "\n";
  if (R.waves) {
    char Buffer[64];
    std::snprintf(Buffer, sizeof Buffer, "%.2f", *R.waves);
    OS << "Waves          " << Buffer << " (" << R.fullWaves.value_or(0) << " full wave(s) of "
       << int64_t(R.blocksPerSM) * Gpu.smCount << " blocks";
    if (R.tailBlocks.value_or(0) > 0)
      OS << ", then a partial wave of " << *R.tailBlocks << " block(s)";
    OS << ")\n";
  }
  if (!R.nextSteps.empty()) {
    OS << "Next steps\n";
    for (const NextStep &S : R.nextSteps)
      OS << "  - " << S.text << "\n";
  }
}

// --stages: "4" or "1-6".
static std::pair<int, int> parseStageRange(const ArgParser &Args) {
  const std::string Text = *Args.value("stages");
  int First = 0, Last = 0;
  char Dash = 0, Extra = 0;
  std::istringstream In(Text);
  if (Text.find('-') == std::string::npos) {
    if (!(In >> First) || In >> Extra)
      Args.fail("--stages: '" + Text + "' is not a depth or a range of depths (e.g. 3, 1-6)");
    Last = First;
  } else if (!(In >> First >> Dash >> Last) || Dash != '-' || In >> Extra) {
    Args.fail("--stages: '" + Text + "' is not a depth or a range of depths (e.g. 3, 1-6)");
  }
  if (First < 1 || Last < First || Last > 64)
    Args.fail("--stages: '" + Text + "' must be within 1-64, the first depth not above the last");
  return {First, Last};
}

static void printStaircase(std::ostream &OS, const TargetGpu &Gpu, const std::vector<PipelineDepthPoint> &Points,
                           int64_t PerStage, int64_t Other, bool Estimated) {
  OS << "GPU            " << Gpu.productName << " (" << Gpu.arch.name << ", " << Gpu.smCount << " SMs)\n";
  OS << "Ring           stages of " << PerStage << " B, " << Other << " B of shared memory outside it\n";
  if (Estimated)
    OS << "Estimate       per tile and SM: load, compute (ns); covered: the ring hides the load (datasheet "
          "rates, "
       << int(kAsyncCopyLatencyCycles) << " cycles of latency)\n";
  OS << "Stages  Shared memory  Blocks/SM  Occupancy  " << (Estimated ? "Load    Compute  Covered  " : "")
     << "Limited by\n";
  for (const PipelineDepthPoint &P : Points) {
    char Line[160];
    std::snprintf(Line, sizeof Line, "%-7d %-14lld ", P.stages, static_cast<long long>(P.sharedBytes));
    OS << Line;
    if (!P.fits) {
      OS << "does not fit in one block\n";
      continue;
    }
    std::snprintf(Line, sizeof Line, "%-10d %-10s ", P.blocksPerSM, percent(P.occupancy).c_str());
    OS << Line;
    if (Estimated) {
      if (const std::optional<TileTimes> T = estimateAt(P))
        std::snprintf(Line, sizeof Line, "%-7.0f %-8.0f %-8s ", T->loadNs, T->computeNs,
                      P.coversLoad && *P.coversLoad ? "yes" : "no");
      else
        std::snprintf(Line, sizeof Line, "%-7s %-8s %-8s ", "-", "-", "-");
      OS << Line;
    }
    OS << limiterNames(P.bindingLimiters) << "\n";
  }
}

static nlohmann::ordered_json staircaseJson(const TargetGpu &Gpu, const std::vector<PipelineDepthPoint> &Points,
                                            int64_t PerStage, int64_t Other) {
  nlohmann::ordered_json J;
  J["version"] = 1;
  J["gpu"] = {{"name", Gpu.productName}, {"arch", Gpu.arch.name}, {"sms", Gpu.smCount}};
  J["bytesPerStage"] = PerStage;
  J["otherSharedMemory"] = Other;
  J["pipelineDepths"] = pipelineDepthsJson(Points);
  return J;
}

int runOccupancyCommand(int Argc, const char **Argv) {
  ArgParser Args("occupancy",
                 {"gpu", "block", "regs", "smem", "dyn-smem", "optin-smem", "barriers", "launch-bounds", "grid",
                  "stages", "smem-per-stage", "tile-flops", "tile-tensor-flops", "format"},
                 {"help"});
  Args.parse(Argc, Argv);
  if (Args.has("help")) {
    std::cout << OccupancyHelp;
    return ExitOk;
  }
  if (!Args.positional().empty())
    Args.fail("unexpected argument '" + Args.positional().front() + "'");
  for (const char *Required : {"gpu", "block", "regs"})
    if (!Args.has(Required))
      Args.fail(std::string("--") + Required + " is required (see --help)");

  std::string Error;
  std::optional<TargetGpu> Gpu = GpuDatabase::builtin().resolve(*Args.value("gpu"), Error);
  if (!Gpu)
    Args.fail("--gpu: " + Error);

  LaunchShape Launch;
  int64_t X, Y, Z;
  const std::string BlockText = *Args.value("block");
  if (!parseBlockShape(BlockText, X, Y, Z))
    Args.fail("--block: '" + BlockText + "' is not a block shape (e.g. 256, 16x16, 8x8x4)");
  if (X < 1 || Y < 1 || Z < 1)
    Args.fail("--block: '" + BlockText + "' has a dimension below 1");
  if (X * Y * Z > Gpu->arch.maxThreadsPerBlock)
    Args.fail("--block: " + std::to_string(X * Y * Z) + " threads is over the maximum of " +
              std::to_string(Gpu->arch.maxThreadsPerBlock) + " per block on " + Gpu->arch.name);
  Launch.blockX = int(X), Launch.blockY = int(Y), Launch.blockZ = int(Z);

  KernelResources Kernel;
  Kernel.registersPerThread = int(*Args.integer("regs", 0, kMaxRegistersPerThread));
  Kernel.staticSharedMem = Args.integer("smem", 0, int64_t(1) << 40, true).value_or(0);
  Launch.dynamicSharedMem = Args.integer("dyn-smem", 0, int64_t(1) << 40, true).value_or(0);
  Launch.optinDynamicSharedMem = Args.integer("optin-smem", 0, int64_t(1) << 40, true);
  Kernel.barriers = int(Args.integer("barriers", 0, 16).value_or(1));
  if (auto Bounds = Args.integer("launch-bounds", 1, Gpu->arch.maxThreadsPerBlock))
    Kernel.launchBoundsMaxThreads = int(*Bounds);
  Launch.gridBlocks = Args.integer("grid", 1, INT64_MAX / 2);
  const std::string Format = Args.value("format").value_or("text");
  if (Format != "text" && Format != "json")
    Args.fail("--format: '" + Format + "' is not one of text, json");

  if (Args.has("stages") != Args.has("smem-per-stage"))
    Args.fail("--stages and --smem-per-stage go together (see --help)");
  const bool Estimate = Args.has("tile-flops") || Args.has("tile-tensor-flops");
  if (Estimate && !Args.has("stages"))
    Args.fail("--tile-flops and --tile-tensor-flops need --stages and --smem-per-stage (see --help)");
  if (Args.has("stages")) {
    const auto [First, Last] = parseStageRange(Args);
    const int64_t PerStage = *Args.integer("smem-per-stage", 1, int64_t(1) << 40, true);
    std::vector<PipelineDepthPoint> Points = pipelineStaircase(*Gpu, Kernel, Launch, PerStage, Last);
    if (Estimate) {
      TileWork Work;
      Work.fpOps = double(Args.integer("tile-flops", 0, int64_t(1) << 50).value_or(0));
      Work.tensorFlops = double(Args.integer("tile-tensor-flops", 0, int64_t(1) << 50).value_or(0));
      if (!Gpu->throughput)
        std::cerr << "occlint occupancy: note: " << Gpu->productName
                  << " has no datasheet rates in the GPU database: no overlap estimate\n";
      estimateOverlap(Points, *Gpu, PerStage, Work);
    }
    bool AnyFits = false;
    std::vector<PipelineDepthPoint> Shown;
    for (const PipelineDepthPoint &P : Points)
      if (P.stages >= First) {
        Shown.push_back(P);
        AnyFits |= P.fits;
      }
    if (Format == "json")
      std::cout << staircaseJson(*Gpu, Shown, PerStage, Kernel.staticSharedMem).dump(2) << "\n";
    else
      printStaircase(std::cout, *Gpu, Shown, PerStage, Kernel.staticSharedMem, Estimate);
    // No depth of the range fits: the ring cannot launch (an error, as above).
    return AnyFits ? ExitOk : ExitFindings;
  }

  OccupancyResult Result = computeOccupancy(*Gpu, Kernel, Launch);
  if (Format == "json")
    std::cout << toJson(*Gpu, Kernel, Launch, Result).dump(2) << "\n";
  else
    printText(std::cout, *Gpu, Kernel, Launch, Result);
  // A configuration that cannot launch is a finding at error level.
  return Result.failure == LaunchFailure::None ? ExitOk : ExitFindings;
}

} // namespace occlint
