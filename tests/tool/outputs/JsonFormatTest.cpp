// occlint --format=json end to end (docs/output-formats.md): the same
// findings as the text output, launch facts that agree with the occupancy
// engine and with cuda-occupancy-report's remarks, a header's launches once,
// and --output (written whole, or not at all).
#include "CommandRunner.h"
#include "TestFiles.h"

#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;

namespace {

const std::string SourceDir = OCCLINT_SOURCE_DIR;
const std::string Occlint = shellQuote(OCCLINT_BINARY);

std::string checksInput(const std::string &Name) { return SourceDir + "/test-inputs/checks/" + Name; }

std::string quoted(const std::vector<std::string> &Files) {
  std::string Out;
  for (const std::string &F : Files)
    Out += " " + shellQuote(F);
  return Out;
}

// Runs occlint on Files (no device compiles) and parses its stdout as JSON.
json lintJson(const std::vector<std::string> &Files, const std::string &Options, int *ExitCode = nullptr,
              const std::string &Environment = "") {
  CommandResult R =
      runCommand(Environment + Occlint + " --format=json --no-compile --quiet " + Options + quoted(Files) + " --",
                 /*MergeStderr=*/false);
  if (ExitCode)
    *ExitCode = R.exitCode;
  json J = json::parse(R.output, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(J.is_discarded()) << "stdout is not JSON:\n" << R.output;
  return J;
}

// The 1-based line of File's only line that contains Needle (0, and a test
// failure, when none or several do), so that a test names the line it means.
int lineContaining(const std::string &File, const std::string &Needle) {
  std::ifstream In(File);
  std::string Text;
  int Number = 0, Found = 0, Count = 0;
  while (std::getline(In, Text)) {
    ++Number;
    if (Text.find(Needle) != std::string::npos) {
      Found = Number;
      ++Count;
    }
  }
  EXPECT_EQ(Count, 1) << "'" << Needle << "' in " << File;
  return Count == 1 ? Found : 0;
}

// The text output's diagnostic and note lines ("file:12:14: warning: message [check]").
std::vector<std::string> textLines(const std::string &Output) {
  static const std::regex Diagnostic(R"(^(/[^:]+):(\d+):(\d+): (error|warning|remark|note): .*$)");
  std::vector<std::string> Lines;
  std::istringstream In(Output);
  std::string Line;
  while (std::getline(In, Line))
    if (std::regex_match(Line, Diagnostic))
      Lines.push_back(Line);
  return Lines;
}

std::string locationPrefix(const json &Item) {
  return Item["file"].get<std::string>() + ":" + std::to_string(Item["line"].get<int>()) + ":" +
         std::to_string(Item["column"].get<int>()) + ": ";
}

// The JSON diagnostics written as the text output writes them.
std::vector<std::string> jsonAsTextLines(const json &J) {
  std::vector<std::string> Lines;
  for (const json &D : J["diagnostics"]) {
    Lines.push_back(locationPrefix(D) + D["severity"].get<std::string>() + ": " + D["message"].get<std::string>() +
                    " [" + D["check"].get<std::string>() + "]");
    for (const json &N : D["notes"])
      Lines.push_back(locationPrefix(N) + "note: " + N["message"].get<std::string>());
  }
  return Lines;
}

TEST(JsonFormat, HasTheTextOutputsDiagnosticsAndNotes) {
  const std::vector<std::string> Files = {checksInput("launch-block-resize.cu"), checksInput("launch-tiny-grid.cu"),
                                          checksInput("divergence-barrier.cu")};
  const std::string Options = "--gpu=sm_90";
  int JsonExit = -1;
  const json J = lintJson(Files, Options, &JsonExit);
  CommandResult Text = runCommand(Occlint + " --no-compile --quiet --color=never " + Options + quoted(Files) + " --",
                                  /*MergeStderr=*/false);
  const std::vector<std::string> Expected = textLines(Text.output);
  ASSERT_GT(Expected.size(), 10u) << Text.output;
  EXPECT_EQ(jsonAsTextLines(J), Expected);
  // divergence-barrier.cu has errors: both exit with 1.
  EXPECT_EQ(Text.exitCode, 1);
  EXPECT_EQ(JsonExit, Text.exitCode);

  EXPECT_EQ(J["version"], 3);
  EXPECT_EQ(J["tool"]["name"], "occlint");
  EXPECT_EQ(J["fileCount"], 3);
  bool SawFix = false, SawNote = false;
  for (const json &D : J["diagnostics"]) {
    SawNote |= !D["notes"].empty();
    // The fix-its are on notes (issue 12): the warning's own fixes are what
    // --fix applies, and no check puts one there.
    EXPECT_TRUE(D["fixes"].empty()) << D.dump(2);
    for (const json &N : D["notes"])
      for (const json &F : N["fixes"]) {
        SawFix = true;
        EXPECT_EQ(F["file"], D["file"]);
        EXPECT_EQ(F["length"], F["end"]["column"].get<int>() - F["begin"]["column"].get<int>());
      }
  }
  EXPECT_TRUE(SawFix) << "launch-block-resize.cu has fix-its on notes";
  EXPECT_TRUE(SawNote) << "divergence-barrier.cu has notes";
}

occlint::TargetGpu resolveGpu(const std::string &Name) {
  std::string Error;
  std::optional<occlint::TargetGpu> Gpu = occlint::GpuDatabase::builtin().resolve(Name, Error);
  EXPECT_TRUE(Gpu) << Name << ": " << Error;
  return Gpu.value_or(occlint::TargetGpu{});
}

// The engine on the launch's own facts, as read back from the JSON (a runtime
// amount of dynamic shared memory at `RuntimeAmount` bytes, the largest by
// default).
occlint::OccupancyResult recompute(const json &Launch, std::optional<int64_t> RuntimeAmount = std::nullopt) {
  const json &Res = Launch["resources"], &Shape = Launch["shape"];
  occlint::KernelResources Kernel;
  Kernel.registersPerThread = Res["registersPerThread"].is_null() ? 0 : Res["registersPerThread"].get<int>();
  Kernel.staticSharedMem = Res["staticSharedMemoryBytes"];
  Kernel.barriers = Res["barriers"];
  if (!Res["launchBoundsMaxThreads"].is_null())
    Kernel.launchBoundsMaxThreads = Res["launchBoundsMaxThreads"].get<int>();
  if (!Res["launchBoundsMinBlocks"].is_null())
    Kernel.launchBoundsMinBlocks = Res["launchBoundsMinBlocks"].get<int>();
  if (!Res["maxRegisters"].is_null())
    Kernel.maxRegisters = Res["maxRegisters"].get<int>();
  occlint::LaunchShape S;
  S.blockX = Shape["block"][0];
  S.blockY = Shape["block"][1];
  S.blockZ = Shape["block"][2];
  S.dynamicSharedMem = Shape["dynamicSharedMemoryBytes"].is_null()
                           ? RuntimeAmount.value_or(Shape["dynamicSharedMemoryAtMostBytes"].get<int64_t>())
                           : Shape["dynamicSharedMemoryBytes"].get<int64_t>();
  if (!Shape["optinDynamicSharedMemoryBytes"].is_null())
    S.optinDynamicSharedMem = Shape["optinDynamicSharedMemoryBytes"].get<int64_t>();
  if (!Shape["gridBlocks"].is_null())
    S.gridBlocks = Shape["gridBlocks"].get<int64_t>();
  return occlint::computeOccupancy(resolveGpu(Launch["gpu"]["name"]), Kernel, S);
}

TEST(JsonFormat, LaunchOccupancyIsTheEnginesAndTheRemarksOne) {
  // occupancy-report.cu's own arguments: every way of launching, on an A100.
  const json J = lintJson({checksInput("occupancy-report.cu")}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  ASSERT_GE(J["launches"].size(), 5u);
  size_t WithOccupancy = 0, RuntimeAmounts = 0;
  for (const json &L : J["launches"]) {
    EXPECT_EQ(L["gpu"]["arch"], "sm_80");
    if (L["occupancy"].is_null())
      continue;
    ++WithOccupancy;
    const occlint::OccupancyResult Engine = recompute(L);
    EXPECT_EQ(L["occupancy"]["blocksPerSM"], Engine.blocksPerSM) << L.dump();
    EXPECT_EQ(L["occupancy"]["activeWarpsPerSM"], Engine.activeWarpsPerSM);
    EXPECT_EQ(L["occupancy"]["maxWarpsPerSM"], Engine.maxWarpsPerSM);
    EXPECT_DOUBLE_EQ(L["occupancy"]["fraction"].get<double>(), Engine.occupancy);
    if (L["shape"]["dynamicSharedMemoryBytes"].is_null()) {
      // A runtime amount: the same blocks with none as with the largest.
      ++RuntimeAmounts;
      EXPECT_EQ(L["shape"]["dynamicSharedMemoryAtMostBytes"], 49152) << L.dump();
      EXPECT_EQ(L["occupancy"]["blocksPerSM"], recompute(L, 0).blocksPerSM) << L.dump();
    } else {
      EXPECT_TRUE(L["shape"]["dynamicSharedMemoryAtMostBytes"].is_null()) << L.dump();
    }
  }
  EXPECT_GE(WithOccupancy, 5u);
  EXPECT_EQ(RuntimeAmounts, 1u); // runtimeSharedMemory's 1024-thread launch; not its 512-thread one

  // Each remark "... on <gpu> (...): at most B blocks of T threads per SM, A of M
  // warps (P% occupancy)" against the launch at its place with that block size.
  static const std::regex Numbers(
      R"(on (.+) \(sm_\d+, \d+ SMs\): (?:at most )?(\d+) blocks? of (\d+) threads? per SM, (\d+) of (\d+) warps \(([\d.]+)% occupancy\))");
  size_t Matched = 0;
  for (const json &D : J["diagnostics"]) {
    std::smatch M;
    const std::string Message = D["message"];
    if (D["check"] != "cuda-occupancy-report" || !std::regex_search(Message, M, Numbers))
      continue;
    const json *Launch = nullptr;
    for (const json &L : J["launches"])
      if (L["file"] == D["file"] && L["line"] == D["line"] && L["column"] == D["column"] &&
          L["gpu"]["name"] == M[1].str() && !L["shape"].is_null() &&
          L["shape"]["threadsPerBlock"] == std::stoi(M[3].str()))
        Launch = &L;
    ASSERT_NE(Launch, nullptr) << "no launch for the remark " << locationPrefix(D) << Message;
    const json &Occ = (*Launch)["occupancy"];
    EXPECT_EQ(Occ["blocksPerSM"], std::stoi(M[2].str())) << Message;
    EXPECT_EQ(Occ["activeWarpsPerSM"], std::stoi(M[4].str())) << Message;
    EXPECT_EQ(Occ["maxWarpsPerSM"], std::stoi(M[5].str())) << Message;
    char Percent[16];
    std::snprintf(Percent, sizeof Percent, "%.1f", Occ["fraction"].get<double>() * 100);
    EXPECT_EQ(Percent, M[6].str()) << Message;
    ++Matched;
  }
  EXPECT_GE(Matched, 5u);
}

TEST(JsonFormat, AHeadersLaunchesAppearOnceForTwoTranslationUnits) {
  ScratchDir D;
  D.write("common.cuh", "#include <cuda_runtime.h>\n"
                        "__global__ void fill(float *p) { p[threadIdx.x] = 1.0f; }\n"
                        "inline void launchFill(float *p) { fill<<<8, 100>>>(p); }\n");
  const std::string A =
      D.write("a.cu", "#include \"common.cuh\"\nvoid a(float *p) { fill<<<1000, 256>>>(p); launchFill(p); }\n");
  const std::string B =
      D.write("b.cu", "#include \"common.cuh\"\nvoid b(float *p) { fill<<<2000, 128>>>(p); launchFill(p); }\n");
  const json J = lintJson({A, B}, "--gpu=sm_90");
  std::map<std::string, int> LaunchesPerFile;
  for (const json &L : J["launches"])
    ++LaunchesPerFile[fs::path(L["file"].get<std::string>()).filename().string() + ":" +
                      std::to_string(L["line"].get<int>())];
  EXPECT_EQ(LaunchesPerFile["common.cuh:3"], 1) << J["launches"].dump(1);
  EXPECT_EQ(LaunchesPerFile["a.cu:2"], 1);
  EXPECT_EQ(LaunchesPerFile["b.cu:2"], 1);
  EXPECT_EQ(J["launches"].size(), 3u);
  size_t FillKernels = 0;
  for (const json &K : J["kernels"])
    FillKernels += K["name"] == "fill";
  EXPECT_EQ(FillKernels, 1u);
  // The header's findings are reported once too (tiny grid, block of 100).
  std::map<std::string, int> HeaderFindings;
  for (const json &Diag : J["diagnostics"])
    if (fs::path(Diag["file"].get<std::string>()).filename() == "common.cuh")
      ++HeaderFindings[Diag["check"].get<std::string>() + locationPrefix(Diag)];
  EXPECT_FALSE(HeaderFindings.empty());
  for (const auto &[Finding, Count] : HeaderFindings)
    EXPECT_EQ(Count, 1) << Finding;
}

// The launch of `J` at `Line` (one target GPU).
json launchAt(const json &J, int Line) {
  for (const json &L : J["launches"])
    if (L["line"] == Line)
      return L;
  ADD_FAILURE() << "no launch at line " << Line << " in " << J["launches"].dump(1);
  return json::object();
}

std::set<std::string> checksAt(const json &J, int Line) {
  std::set<std::string> Checks;
  for (const json &D : J["diagnostics"])
    if (D["line"] == Line)
      Checks.insert(D["check"].get<std::string>());
  return Checks;
}

// The precedence table (docs/launch-analysis.md): a moot finding is not in
// "diagnostics" but in its launch's "suppressed", naming the check that won;
// with that check off, it is a diagnostic again.
TEST(JsonFormat, MootFindingsAreRecordedOnTheLaunch) {
  ScratchDir D;
  const std::string Input = D.write("moot.cu", "#include <cuda_runtime.h>\n"
                                               "__global__ void copy(float *p) { for (int i = threadIdx.x; i < 4096; i "
                                               "+= gridDim.x * blockDim.x) p[i] = 0.0f; }\n"
                                               "void run(float *p) {\n"
                                               "  copy<<<2, 32>>>(p);\n"    // 4: tiny grid; block cap moot
                                               "  copy<<<2, 2048>>>(p);\n"  // 5: invalid; tiny grid moot
                                               "  copy<<<8192, 32>>>(p);\n" // 6: block cap (over one wave)
                                               "}\n");
  const json J = lintJson({Input}, "--gpu=H100");
  EXPECT_EQ(J["version"], 3);
  EXPECT_EQ(checksAt(J, 4), std::set<std::string>{"cuda-launch-tiny-grid"});
  EXPECT_EQ(launchAt(J, 4)["suppressed"],
            json::parse(R"json([{"check": "cuda-occupancy-block-cap", "suppressedBy": "cuda-launch-tiny-grid",
                             "reason": "the grid of 2 blocks is smaller than the SM count of H100 SXM (sm_90, 132 SMs): each SM holds at most one block"}])json"));
  EXPECT_EQ(checksAt(J, 5), std::set<std::string>{"cuda-launch-invalid-config"});
  EXPECT_EQ(launchAt(J, 5)["suppressed"],
            json::parse(R"json([{"check": "cuda-launch-tiny-grid", "suppressedBy": "cuda-launch-invalid-config",
                             "reason": "the launch cannot start on H100 SXM (sm_90, 132 SMs)"}])json"));
  EXPECT_EQ(checksAt(J, 6), std::set<std::string>{"cuda-occupancy-block-cap"});
  EXPECT_EQ(launchAt(J, 6)["suppressed"], json::array());
  // Analysed in occlint's own process (no child, no WorkerMessages round
  // trip): the same document.
  EXPECT_EQ(lintJson({Input}, "--gpu=H100", nullptr, "OCCLINT_IN_PROCESS=1 "), J);

  // Turning tiny-grid off, nothing is moot there any more; the block cap
  // stays quiet by its own rule: a 2-block grid runs in one wave, and more
  // blocks per SM cannot help it (issue 47).
  const json NoTinyGrid = lintJson({Input}, "--gpu=H100 --checks=-cuda-launch-tiny-grid");
  EXPECT_EQ(checksAt(NoTinyGrid, 4), std::set<std::string>{});
  EXPECT_EQ(launchAt(NoTinyGrid, 4)["suppressed"], json::array());
  // A launch that cannot start stays silent with invalid-config off too
  // (issue 44): its tiny grid is still moot, and recorded so.
  const json NoInvalid = lintJson({Input}, "--gpu=H100 --checks=-cuda-launch-invalid-config");
  EXPECT_EQ(checksAt(NoInvalid, 5), std::set<std::string>{});
  EXPECT_EQ(launchAt(NoInvalid, 5)["suppressed"], launchAt(J, 5)["suppressed"]);
}

// A pipelined kernel's ring (kernels[].pipeline) and, on its launches, the
// blocks per SM at each depth (pipelineDepths); other kernels and launches
// have neither field. The same document from the isolated child (the
// WorkerMessages round trip) and in occlint's own process.
TEST(JsonFormat, PipelinedKernelsCarryTheirRingAndStaircase) {
  const std::string Input = checksInput("pipeline-occupancy-report.cu");
  const json J = lintJson({Input}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  std::map<std::string, json> Kernels;
  for (const json &K : J["kernels"])
    Kernels[K["name"].get<std::string>()] = K;
  ASSERT_EQ(Kernels.size(), 4u) << J.dump(1);
  const json &Double = Kernels["doubleBuffered"]["pipeline"];
  EXPECT_EQ(Double["forms"], json::array({"cp.async"}));
  EXPECT_EQ(Double["stages"], 2);
  EXPECT_EQ(Double["bytesPerStage"], 16384);
  EXPECT_EQ(Double["otherSharedBytes"], 0);
  EXPECT_EQ(Double["producer"], "all threads");
  EXPECT_TRUE(Double["hazardsNotModelled"].is_null()) << Double;
  const json &Three = Kernels["threeStages"]["pipeline"];
  EXPECT_EQ(Three["forms"], json::array({"__pipeline_memcpy_async"}));
  EXPECT_EQ(Three["stages"], 3);
  EXPECT_EQ(Three["bytesPerStage"], 4096);
  // One buffer refilled every trip: one stage, the whole buffer (read from the
  // copies' offsets, pipelines/AsyncPipelineOffsets.h); its hazards checked.
  const json &One = Kernels["oneBuffer"]["pipeline"];
  EXPECT_EQ(One["stages"], 1) << One;
  EXPECT_EQ(One["bytesPerStage"], 1024) << One;
  EXPECT_EQ(One["stagesFrom"], "one stage: 'tile' (1024 B)") << One;
  EXPECT_TRUE(One["hazardsNotModelled"].is_null()) << One; // its hazards are checked (pipelines/AsyncPipelineHazards.h)
  // A 2-D tile filled by rows (rows[threadIdx.y][...]): its first index is a
  // row, not a stage (the rule the held-out reading corrected).
  const json &Rows = Kernels["tileRows"]["pipeline"];
  EXPECT_EQ(Rows["stages"], 1) << Rows;
  EXPECT_EQ(Rows["bytesPerStage"], 1024) << Rows;
  for (const json &L : J["launches"]) {
    if (L["kernel"] == "doubleBuffered") {
      ASSERT_GE(L["pipelineDepths"].size(), 4u) << L.dump(1);
      EXPECT_EQ(L["pipelineDepths"][0]["blocksPerSM"], 8);
      EXPECT_EQ(L["pipelineDepths"][1]["blocksPerSM"], 4);
      EXPECT_EQ(L["pipelineDepths"][1]["sharedMemory"], 32768);
      EXPECT_EQ(L["pipelineDepths"][1]["limitedBy"], "shared memory");
      EXPECT_FALSE(L["pipelineDepths"].back()["fits"].get<bool>());
    }
  }
  // A kernel without async copies, and its launches: neither field.
  const json Plain = lintJson({checksInput("occupancy-report.cu")}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  ASSERT_FALSE(Plain["kernels"].empty());
  for (const json &K : Plain["kernels"])
    EXPECT_FALSE(K.contains("pipeline")) << K.dump(1);
  for (const json &L : Plain["launches"])
    EXPECT_FALSE(L.contains("pipelineDepths")) << L.dump(1);
  EXPECT_EQ(lintJson({Input}, "--gpu=A100 --checks=-*,cuda-occupancy-report", nullptr, "OCCLINT_IN_PROCESS=1 "), J);
}

// A ring filled by a loader and waited for by a helper (pipeline-hazards-calls.cu's
// helperWait): the pipelined loop is found through the calls, so one tile's
// work is counted (1 FP operation per thread), and the helper's
// __pipeline_wait_prior(2) leaves the latest copy in flight: the copies
// overlap the work (pipelines/AsyncPipelineWork.h).
TEST(JsonFormat, ARingFilledAndWaitedForInCalledFunctionsHasItsTileWork) {
  const json J = lintJson({checksInput("pipeline-hazards-calls.cu")}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  std::map<std::string, json> Kernels;
  for (const json &K : J["kernels"])
    Kernels[K["name"].get<std::string>()] = K;
  const json &P = Kernels["helperWait"]["pipeline"];
  ASSERT_TRUE(P.is_object()) << J.dump(1);
  EXPECT_EQ(P["tileWork"]["fpOpsPerThread"], 1.0) << P;
  EXPECT_TRUE(P["tileWorkUnknown"].is_null()) << P;
  EXPECT_EQ(P["copiesOverlapWork"], true) << P;
}

// A one-stage ring in `extern __shared__ float tile[][32]` (no declared size):
// its bytes are what one trip's copies span for the block of every launch
// (pipelines/AsyncPipelineOffsets.h, oneStageSpan): 64 rows of 128 B; rows
// padded to 144 B count whole. The staircase starts there; where the launches
// disagree on the block, or a copy is under a thread condition, the bytes stay
// unknown and the reason says why.
TEST(JsonFormat, OneStageRingOfNoDeclaredSizeIsSizedByItsCopies) {
  const json J =
      lintJson({checksInput("pipeline-one-stage-dynamic.cu")}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  std::map<std::string, json> Kernels;
  for (const json &K : J["kernels"])
    Kernels[K["name"].get<std::string>()] = K;
  const json &One = Kernels["oneStage"]["pipeline"];
  EXPECT_EQ(One["stages"], 1) << One;
  EXPECT_EQ(One["bytesPerStage"], 8192) << One;
  EXPECT_EQ(One["stagesFrom"], "'tile' (the bytes one trip's copies span for the block of every launch here, 256x1x1)")
      << One;
  EXPECT_EQ(Kernels["oneStagePaddedRows"]["pipeline"]["bytesPerStage"], 9216) << Kernels["oneStagePaddedRows"];
  EXPECT_EQ(Kernels["oneStageSwizzled"]["pipeline"]["bytesPerStage"], 4096) << Kernels["oneStageSwizzled"];
  EXPECT_TRUE(One["hazardsNotModelled"].is_null()) << One;
  const json &Two = Kernels["oneStageTwoBlocks"]["pipeline"];
  EXPECT_EQ(Two["stages"], 1) << Two;
  EXPECT_TRUE(Two["bytesPerStage"].is_null()) << Two;
  EXPECT_NE(Two["stagesUnknown"].get<std::string>().find("its launches here differ in their blocks"), std::string::npos)
      << Two;
  EXPECT_TRUE(Two["hazardsNotModelled"].is_null()) << Two; // one stage: the hazards need no bytes
  const json &Half = Kernels["oneStageHalfTheThreads"]["pipeline"];
  EXPECT_TRUE(Half["stages"].is_null()) << Half;
  bool Staircase = false;
  for (const json &L : J["launches"])
    if (L["kernel"] == "oneStage") {
      ASSERT_GE(L["pipelineDepths"].size(), 2u) << L.dump(1);
      EXPECT_EQ(L["pipelineDepths"][0]["sharedMemory"], 8192);
      EXPECT_EQ(L["pipelineDepths"][1]["sharedMemory"], 16384);
      EXPECT_EQ(L["pipelineDepths"][1]["blocksPerSM"], 8);
      Staircase = true;
    }
  EXPECT_TRUE(Staircase) << J.dump(1);
}

// The divergence analysis's per-kernel estimate (divergence/BranchLoss.h):
// branchLoss and predictedActiveThreadsPerWarp, when a cuda-divergence-*
// check ran; null otherwise. The same through the isolated child as in process.
TEST(JsonFormat, KernelsCarryThePredictedActiveThreadsPerWarp) {
  const std::string Input = checksInput("divergence-branch-loss.cu");
  const json J = lintJson({Input}, "--gpu=H100 --checks=-*,cuda-divergence-branch");
  std::map<std::string, json> Kernels;
  for (const json &K : J["kernels"])
    Kernels[K["name"].get<std::string>()] = K;
  ASSERT_EQ(Kernels.size(), 5u) << J.dump(1);
  // Half the lanes idle on each of two paths that are most of the kernel.
  const json &EvenOdd = Kernels["evenOddHeavy"];
  ASSERT_TRUE(EvenOdd["predictedActiveThreadsPerWarp"].is_number()) << EvenOdd.dump(1);
  EXPECT_GT(EvenOdd["predictedActiveThreadsPerWarp"].get<double>(), 16.0) << EvenOdd.dump(1);
  EXPECT_LT(EvenOdd["predictedActiveThreadsPerWarp"].get<double>(), 20.0) << EvenOdd.dump(1);
  EXPECT_NEAR(EvenOdd["branchLoss"].get<double>(), 1 - EvenOdd["predictedActiveThreadsPerWarp"].get<double>() / 32,
              0.01);
  // A one-thread write-out after a long loop: nearly every lane busy.
  const json &Tail = Kernels["tailAfterLongLoop"];
  EXPECT_GT(Tail["predictedActiveThreadsPerWarp"].get<double>(), 31.5) << Tail.dump(1);
  EXPECT_LE(Tail["predictedActiveThreadsPerWarp"].get<double>(), 32.0) << Tail.dump(1);
  EXPECT_EQ(lintJson({Input}, "--gpu=H100 --checks=-*,cuda-divergence-branch", nullptr, "OCCLINT_IN_PROCESS=1 "), J);
  // No divergence check: no estimate.
  const json Launches = lintJson({Input}, "--gpu=H100 --checks=-*,cuda-launch-tiny-grid");
  ASSERT_FALSE(Launches["kernels"].empty());
  for (const json &K : Launches["kernels"])
    EXPECT_TRUE(K["predictedActiveThreadsPerWarp"].is_null()) << K.dump(1);
}

// One tile's arithmetic, the copy/wait order and the overlap estimate per
// depth (pipelines/AsyncPipelineWork.h, gpu/PipelineOverlap.h), the same through
// the isolated child as in process.
TEST(JsonFormat, PipelinedKernelsCarryTheirTileWorkAndOverlapEstimate) {
  const std::string Input = checksInput("pipeline-depth.cu");
  const std::string Args = "--gpu=A100 --checks=-*,cuda-occupancy-pipeline-depth --ptxas-log=" +
                           checksInput("ptxas/pipeline-depth.sm_80.log");
  const json J = lintJson({Input}, Args);
  std::map<std::string, json> Kernels;
  for (const json &K : J["kernels"])
    Kernels[K["name"].get<std::string>()] = K["pipeline"];
  const json &Waited = Kernels["singleStageWaited"];
  EXPECT_EQ(Waited["tileWork"]["fpOpsPerThread"], 4.0) << Waited; // sum += v.x * v.y + v.z * v.w
  EXPECT_EQ(Waited["copiesOverlapWork"], false) << Waited;
  EXPECT_EQ(Kernels["singleStageThroughRegisters"]["copiesOverlapWork"], true);
  EXPECT_EQ(Kernels["deepRing<512>"]["tileWork"]["fpOpsPerThread"], 1024.0);
  EXPECT_EQ(Kernels["deepRing<512>"]["tileWork"]["tensorFlopsPerWarp"], 0.0);
  const json &Runtime = Kernels["deepRingRuntimeWork"];
  EXPECT_TRUE(Runtime["tileWork"].is_null()) << Runtime;
  EXPECT_NE(Runtime["tileWorkUnknown"].get<std::string>().find("trip count is not a constant"), std::string::npos);
  bool Seen = false;
  for (const json &L : J["launches"]) {
    if (L["kernel"] != "deepRing<512>" || L["grid"] != "blocks")
      continue;
    Seen = true;
    ASSERT_GE(L["pipelineDepths"].size(), 4u) << L.dump(1);
    const json &Three = L["pipelineDepths"][2]["estimate"];
    EXPECT_EQ(L["pipelineDepths"][2]["blocksPerSM"], 6);
    EXPECT_NEAR(Three["loadNs"].get<double>(), 2603.4, 0.1) << Three;
    EXPECT_NEAR(Three["computeNs"].get<double>(), 4355.6, 0.1) << Three;
    EXPECT_EQ(Three["bound"], "compute");
    EXPECT_EQ(Three["coversLoad"], true);
  }
  EXPECT_TRUE(Seen) << J["launches"].dump(1);
  EXPECT_EQ(lintJson({Input}, Args, nullptr, "OCCLINT_IN_PROCESS=1 "), J);
}

std::set<std::string> entries(const fs::path &Dir) {
  std::set<std::string> Names;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir))
    Names.insert(E.path().filename().string());
  return Names;
}

TEST(JsonFormat, OutputWritesTheFileInsteadOfStdout) {
  ScratchDir D;
  const std::string Input = checksInput("launch-tiny-grid.cu");
  const fs::path Out = D.path() / "findings.json";
  CommandResult R = runCommand(Occlint + " --format=json --no-compile --quiet --gpu=sm_90 --output " +
                                   shellQuote(Out.string()) + " " + shellQuote(Input) + " --",
                               /*MergeStderr=*/false);
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_EQ(R.output, "") << "nothing on stdout with --output";
  std::ifstream In(Out);
  const json Written = json::parse(In, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(Written.is_discarded()) << Out;
  EXPECT_EQ(Written, lintJson({Input}, "--gpu=sm_90"));
  EXPECT_FALSE(Written["diagnostics"].empty());
  EXPECT_EQ(entries(D.path()), std::set<std::string>{"findings.json"}) << "no temporary file left";
}

TEST(JsonFormat, AnUnwritableOutputIsAnInputErrorAndWritesNothing) {
  ScratchDir D;
  const std::string Input = checksInput("launch-tiny-grid.cu");
  fs::create_directory(D.path() / "a-directory");
  for (const fs::path &Out : {D.path() / "no-such-dir" / "out.json", D.path() / "a-directory"}) {
    CommandResult R = runCommand(Occlint + " --format=json --no-compile --quiet --gpu=sm_90 --output " +
                                 shellQuote(Out.string()) + " " + shellQuote(Input) + " --");
    EXPECT_EQ(R.exitCode, 2) << R.output;
    EXPECT_NE(R.output.find("--output"), std::string::npos) << R.output;
    EXPECT_NE(R.output.find(Out.string()), std::string::npos) << "the message names the path: " << R.output;
    EXPECT_EQ(R.output.find("\"diagnostics\""), std::string::npos) << "no JSON on stdout instead";
    EXPECT_EQ(entries(D.path()), std::set<std::string>{"a-directory"}) << "nothing written for " << Out;
    EXPECT_TRUE(fs::is_directory(D.path() / "a-directory"));
    EXPECT_TRUE(fs::is_empty(D.path() / "a-directory"));
  }
}

// Launch variants (docs/launch-analysis.md): a static helper called with 100
// and 256 gives two entries of one launch, a complete set, each with the call
// that leads to it; a helper other files may call gives an open set; a value
// that stays unknown says why.
TEST(JsonFormat, LaunchVariantsSayWhichTheyAreHowTheyAreReachedAndWhyAValueIsUnknown) {
  const std::string Input = checksInput("launch-values.cu");
  json J = lintJson({Input}, "--gpu=A100 --checks=-*,cuda-occupancy-report");
  auto entriesAt = [&](int Line) {
    std::vector<json> Out;
    for (const json &L : J["launches"])
      if (L["line"] == Line)
        Out.push_back(L);
    return Out;
  };
  // static void launchFill(float *p, int threads) { work<<<216, threads>>>(p); }
  std::vector<json> Fill = entriesAt(lineContaining(Input, "static void launchFill("));
  ASSERT_EQ(Fill.size(), 2u) << J["launches"].dump(1);
  std::set<std::string> Blocks;
  for (const json &L : Fill) {
    Blocks.insert(L["block"].get<std::string>());
    EXPECT_EQ(L["values"]["of"], 2);
    EXPECT_EQ(L["values"]["complete"], true);
    EXPECT_EQ(L["values"]["blockComplete"], true);
    EXPECT_TRUE(L["values"]["incompleteBecause"].is_null());
    ASSERT_EQ(L["values"]["via"].size(), 1u);
    EXPECT_EQ(L["values"]["via"][0]["line"],
              lineContaining(Input, L["block"] == "100" ? "launchFill(p, 100);" : "launchFill(p, 256);"));
    EXPECT_TRUE(L["unknown"].is_null());
  }
  EXPECT_EQ(Blocks, (std::set<std::string>{"100", "256"}));
  // void launchExternal(float *p, int threads) { work<<<216, threads>>>(p); }
  std::vector<json> External = entriesAt(lineContaining(Input, "void launchExternal(float"));
  ASSERT_EQ(External.size(), 1u);
  EXPECT_EQ(External[0]["block"], "160");
  EXPECT_EQ(External[0]["values"]["complete"], false);
  EXPECT_EQ(External[0]["values"]["blockComplete"], false) << "other files' calls may give other blocks";
  EXPECT_EQ(External[0]["values"]["incompleteBecause"], "'launchExternal' can be called from other files");
  // static void launchRuntime(float *p, int threads) { work<<<216, threads>>>(p); }, called with a parameter
  // of a function nothing calls.
  std::vector<json> Runtime = entriesAt(lineContaining(Input, "static void launchRuntime("));
  ASSERT_EQ(Runtime.size(), 1u);
  EXPECT_EQ(Runtime[0]["block"], "threads");
  EXPECT_EQ(Runtime[0]["values"]["complete"], false);
  EXPECT_EQ(Runtime[0]["values"]["blockComplete"], false);
  EXPECT_EQ(Runtime[0]["unknown"]["block"], "parameter 'n' of 'callRuntime'");
  // work<<<216, 128, bytes>>>(p) with a runtime `bytes`: the block is one
  // value; the launch's values are not all known (no caller binds `bytes`),
  // and no caller would give another block.
  std::vector<json> Bytes = entriesAt(lineContaining(Input, "work<<<216, 128, bytes>>>(p);"));
  ASSERT_EQ(Bytes.size(), 1u);
  EXPECT_EQ(Bytes[0]["block"], "128");
  EXPECT_EQ(Bytes[0]["values"]["complete"], false);
  EXPECT_EQ(Bytes[0]["values"]["blockComplete"], true) << Bytes[0].dump();
  EXPECT_EQ(Bytes[0]["values"]["incompleteBecause"], "'runtimeSharedMemory' is not called in this translation unit");
  EXPECT_EQ(Bytes[0]["unknown"]["dynamicSharedMemory"], "parameter 'bytes' of 'runtimeSharedMemory'");
  // A sweep over an array: one entry per element, a complete set, each naming
  // the array as the block's sweep (and not the grid's: 216 is written).
  for (int Line :
       {lineContaining(Input, "work<<<216, bs>>>(p);"), lineContaining(Input, "work<<<216, sizes[j]>>>(p);")}) {
    std::vector<json> Swept = entriesAt(Line);
    ASSERT_EQ(Swept.size(), 2u) << Line;
    for (const json &L : Swept) {
      EXPECT_EQ(L["values"]["complete"], true) << L.dump();
      EXPECT_EQ(L["values"]["blockSweep"], "sizes") << L.dump();
      EXPECT_TRUE(L["values"]["gridSweep"].is_null()) << L.dump();
    }
  }
  // A helper handed to a template that calls it: complete, reached through
  // the call in the template (line 130) from the caller's call (line 137).
  std::vector<json> Timed = entriesAt(lineContaining(Input, "static void launchTimed("));
  ASSERT_EQ(Timed.size(), 2u);
  std::set<std::string> TimedBlocks;
  for (const json &L : Timed) {
    TimedBlocks.insert(L["block"].get<std::string>());
    EXPECT_EQ(L["values"]["complete"], true) << L.dump();
    ASSERT_EQ(L["values"]["via"].size(), 2u) << L.dump();
    EXPECT_EQ(L["values"]["via"][0]["line"], lineContaining(Input, "kernel(std::forward<Args>(args)...);"));
    EXPECT_EQ(L["values"]["via"][1]["line"], lineContaining(Input, "timeIt(10, launchTimed, p, threads);"));
  }
  EXPECT_EQ(TimedBlocks, (std::set<std::string>{"40", "96"}));
  // Two sweeps of five sizes through one helper: ten paths, five variants, a
  // complete set (the bound of 8 counts variants).
  std::vector<json> TwoSweeps = entriesAt(lineContaining(Input, "static void launchSwept("));
  ASSERT_EQ(TwoSweeps.size(), 5u);
  for (const json &L : TwoSweeps) {
    EXPECT_EQ(L["values"]["of"], 5) << L.dump();
    EXPECT_EQ(L["values"]["complete"], true) << L.dump();
  }
  // An external helper with two callers: both values, an open set.
  std::vector<json> ExternalTwice = entriesAt(lineContaining(Input, "void launchExternalTwice("));
  ASSERT_EQ(ExternalTwice.size(), 2u);
  for (const json &L : ExternalTwice)
    EXPECT_EQ(L["values"]["incompleteBecause"], "'launchExternalTwice' can be called from other files");
  // Two helpers handed in turn to one driver that calls its parameter: each
  // gets the value of the call that hands it over, and only that one.
  for (const auto &[Helper, Block, Handing] :
       {std::tuple{"static void launchHandedA(", "64", "drive(launchHandedA, p, 64);"},
        std::tuple{"static void launchHandedB(", "192", "drive(launchHandedB, p, 192);"}}) {
    std::vector<json> Handed = entriesAt(lineContaining(Input, Helper));
    ASSERT_EQ(Handed.size(), 1u) << Helper;
    EXPECT_EQ(Handed[0]["block"], Block);
    EXPECT_EQ(Handed[0]["values"]["complete"], true) << Handed[0].dump();
    ASSERT_EQ(Handed[0]["values"]["via"].size(), 2u) << Handed[0].dump();
    EXPECT_EQ(Handed[0]["values"]["via"][0]["line"], lineContaining(Input, "{ launch(p, threads); }"));
    EXPECT_EQ(Handed[0]["values"]["via"][1]["line"], lineContaining(Input, Handing));
  }
  // A guard that none of the callers' values passes: no values, and why.
  std::vector<json> NeverSmall = entriesAt(lineContaining(Input, "if (threads < 64)") + 1);
  ASSERT_EQ(NeverSmall.size(), 1u);
  EXPECT_EQ(NeverSmall[0]["values"]["complete"], false);
  EXPECT_EQ(NeverSmall[0]["unknown"]["block"],
            "the conditions around the launch hold for none of the values its callers give (2 contexts)");
  // An if-else chain setting the block in every arm: a complete set of the
  // three arms; decided by the one caller: that arm only.
  std::vector<json> Chain = entriesAt(lineContaining(Input, "void chainAssigned(") + 8);
  ASSERT_EQ(Chain.size(), 3u) << J["launches"].dump(1);
  std::set<std::string> ChainBlocks;
  for (const json &L : Chain) {
    ChainBlocks.insert(L["block"].get<std::string>());
    EXPECT_EQ(L["values"]["complete"], true) << L.dump();
    EXPECT_TRUE(L["values"]["blockSweep"].is_null()) << L.dump();
  }
  EXPECT_EQ(ChainBlocks, (std::set<std::string>{"64", "96", "160"}));
  std::vector<json> Decided = entriesAt(lineContaining(Input, "static void chainDecided(") + 7);
  ASSERT_EQ(Decided.size(), 1u);
  EXPECT_EQ(Decided[0]["block"], "224");
  EXPECT_EQ(Decided[0]["values"]["complete"], true) << Decided[0].dump();
  // Two ?: on one condition: two variants, the arms taken together.
  std::vector<json> Correlated =
      entriesAt(lineContaining(Input, "work<<<216, dim3(big ? 384 : 416, big ? 1 : 2)>>>(p);"));
  ASSERT_EQ(Correlated.size(), 2u) << J["launches"].dump(1);
  std::set<std::vector<int>> Shapes;
  for (const json &L : Correlated)
    Shapes.insert(L["shape"]["block"].get<std::vector<int>>());
  EXPECT_EQ(Shapes, (std::set<std::vector<int>>{{384, 1, 1}, {416, 2, 1}}));
  // A range-for over a list: a sweep named by its variable.
  std::vector<json> RangeFor = entriesAt(lineContaining(Input, "for (int threads : {72, 448})") + 1);
  ASSERT_EQ(RangeFor.size(), 2u);
  for (const json &L : RangeFor) {
    EXPECT_EQ(L["values"]["complete"], true) << L.dump();
    EXPECT_EQ(L["values"]["blockSweep"], "threads") << L.dump();
  }
  // A struct's member: unknown, and why.
  std::vector<json> Member = entriesAt(lineContaining(Input, "work<<<216, shape->threads>>>(p);"));
  ASSERT_EQ(Member.size(), 1u);
  EXPECT_EQ(Member[0]["unknown"]["block"],
            "'shape->threads' is a data member (values are not followed through members)");
  // A local object's member is followed through its writes; once its
  // address is taken, no longer, and the reason says why.
  std::vector<json> Escaped = entriesAt(lineContaining(Input, "void escapedMembers(") + 3);
  ASSERT_EQ(Escaped.size(), 1u);
  EXPECT_EQ(Escaped[0]["unknown"]["block"],
            "'shape.threads' is a member of 'shape', which is used in a way not followed (its address taken, a "
            "method called, passed by modifiable reference, assigned or modified as a whole)");
  std::vector<json> Braced = entriesAt(lineContaining(Input, "LaunchShape braced{288, 432};") + 1);
  ASSERT_EQ(Braced.size(), 1u);
  EXPECT_EQ(Braced[0]["grid"], "432");
  EXPECT_EQ(Braced[0]["block"], "288");
  // A lambda held in a variable and only called: one variant per call, the
  // grid and the block of each from the same call.
  std::vector<json> Lambda = entriesAt(lineContaining(Input, "void lambdaCalled(") + 2);
  ASSERT_EQ(Lambda.size(), 2u) << J["launches"].dump(1);
  std::set<std::pair<std::string, std::string>> Pairs;
  for (const json &L : Lambda) {
    Pairs.insert({L["grid"].get<std::string>(), L["block"].get<std::string>()});
    EXPECT_EQ(L["values"]["complete"], true) << L.dump();
  }
  EXPECT_EQ(Pairs, (std::set<std::pair<std::string, std::string>>{{"216", "800"}, {"432", "864"}}));
  // Handed on to a template: its calls are not all seen here.
  std::vector<json> Handed = entriesAt(lineContaining(Input, "void lambdaHandedOn(") + 2);
  ASSERT_EQ(Handed.size(), 1u);
  EXPECT_EQ(Handed[0]["unknown"]["block"],
            "parameter 'threads' of the lambda at launch-values.cu:" +
                std::to_string(lineContaining(Input, "void lambdaHandedOn(") + 1) +
                ": the lambda is not only called where it is defined (copied, passed on or converted)");
  // A capture by reference the lambda only reads: the function's caller gives it.
  std::vector<json> Captures = entriesAt(lineContaining(Input, "static void lambdaCaptures(") + 2);
  ASSERT_EQ(Captures.size(), 1u);
  EXPECT_EQ(Captures[0]["block"], "928");
}

} // namespace
