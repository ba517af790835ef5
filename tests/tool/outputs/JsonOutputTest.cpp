// --format=json's writer (tool/outputs/JsonOutput.cpp) on a LintResult built by hand:
// every field of docs/output-formats.md read back with nlohmann_json.
#include "outputs/OutputFormats.h"

#include "gpu/GpuDatabase.h"
#include "gpu/Occupancy.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <climits>

using namespace occlint;
using nlohmann::json;
namespace facts = clang::tidy::occlint;

namespace {

SourcePosition at(unsigned Line, unsigned Column, uint64_t Offset, unsigned CodePointColumn = 0) {
  SourcePosition P;
  P.line = Line;
  P.column = Column;
  P.codePointColumn = CodePointColumn ? CodePointColumn : Column;
  P.utf16Column = P.codePointColumn;
  P.offset = Offset;
  return P;
}

TargetGpu gpu(const std::string &Name) {
  std::string Error;
  std::optional<TargetGpu> G = GpuDatabase::builtin().resolve(Name, Error);
  EXPECT_TRUE(G) << Error;
  return G.value_or(TargetGpu{});
}

json written(const LintResult &Result) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeJsonOutput(Result, OS);
  return json::parse(Text);
}

// A warning with a range, a note and a fix, and an error with no location.
LintResult resultWithDiagnostics() {
  LintResult R;
  R.fileCount = 2;
  R.sourceOnly = true;
  DiagnosticRecord D;
  D.check = "cuda-launch-block-not-warp-multiple";
  D.severity = "warning";
  D.message = "block of 100 threads is not a multiple of the warp size (32)";
  D.file = "/src/a.cu";
  D.position = at(12, 14, 476);
  D.ranges.push_back({"/src/a.cu", at(12, 14, 476), at(12, 17, 479)});
  NoteRecord N;
  N.message = "'kBlock' is defined here as 96";
  N.file = "/src/a.cu";
  N.position = at(7, 15, 200);
  D.notes.push_back(N);
  D.fixes.push_back({{"/src/a.cu", at(12, 14, 476), at(12, 17, 479)}, "128"});
  R.diagnostics.push_back(D);

  DiagnosticRecord E;
  E.check = "cuda-launch-tiny-grid";
  E.severity = "error";
  E.warningAsError = true;
  E.message = "no location";
  R.diagnostics.push_back(E);
  return R;
}

TEST(JsonOutput, HeaderFields) {
  const json J = written(resultWithDiagnostics());
  EXPECT_EQ(J["version"], 3);
  EXPECT_EQ(J["tool"]["name"], "occlint");
  EXPECT_EQ(J["tool"]["version"], OCCLINT_VERSION);
  EXPECT_EQ(J["fileCount"], 2);
  EXPECT_EQ(J["sourceOnly"], true);
  EXPECT_TRUE(J["launches"].is_array());
  EXPECT_TRUE(J["kernels"].is_array());
}

TEST(JsonOutput, DiagnosticsWithRangesNotesAndFixes) {
  const LintResult R = resultWithDiagnostics();
  const json J = written(R);
  ASSERT_EQ(J["diagnostics"].size(), 2u);
  const json &D = J["diagnostics"][0];
  EXPECT_EQ(D["check"], R.diagnostics[0].check);
  EXPECT_EQ(D["severity"], "warning");
  EXPECT_EQ(D["warningAsError"], false);
  EXPECT_EQ(D["message"], R.diagnostics[0].message);
  EXPECT_EQ(D["file"], "/src/a.cu");
  EXPECT_EQ(D["line"], 12);
  EXPECT_EQ(D["column"], 14);
  ASSERT_EQ(D["ranges"].size(), 1u);
  EXPECT_EQ(D["ranges"][0]["file"], "/src/a.cu");
  EXPECT_EQ(D["ranges"][0]["begin"], json({{"line", 12}, {"column", 14}}));
  EXPECT_EQ(D["ranges"][0]["end"], json({{"line", 12}, {"column", 17}}));
  ASSERT_EQ(D["notes"].size(), 1u);
  EXPECT_EQ(D["notes"][0]["message"], "'kBlock' is defined here as 96");
  EXPECT_EQ(D["notes"][0]["file"], "/src/a.cu");
  EXPECT_EQ(D["notes"][0]["line"], 7);
  EXPECT_EQ(D["notes"][0]["column"], 15);
  EXPECT_TRUE(D["notes"][0]["fixes"].empty());
  ASSERT_EQ(D["fixes"].size(), 1u);
  const json &F = D["fixes"][0];
  EXPECT_EQ(F["file"], "/src/a.cu");
  EXPECT_EQ(F["begin"]["line"], 12);
  EXPECT_EQ(F["begin"]["column"], 14);
  EXPECT_EQ(F["end"]["column"], 17);
  EXPECT_EQ(F["offset"], 476);
  EXPECT_EQ(F["length"], 3);
  EXPECT_EQ(F["replacement"], "128");

  const json &E = J["diagnostics"][1];
  EXPECT_EQ(E["severity"], "error");
  EXPECT_EQ(E["warningAsError"], true);
  EXPECT_TRUE(E["file"].is_null());
  EXPECT_EQ(E["line"], 0);
}

TEST(JsonOutput, EachRecordHasItsPathAsEveryOutputShowsIt) {
  LintResult R = resultWithDiagnostics();
  R.roots.project = "/src";
  R.roots.projectFrom = "git";
  R.roots.cuda = "/usr/local/cuda";
  DiagnosticRecord InToolkit = R.diagnostics[0];
  InToolkit.file = "/usr/local/cuda/include/cuda_runtime.h";
  R.diagnostics.push_back(InToolkit);
  const json J = written(R);
  EXPECT_EQ(J["roots"], json({{"project", "/src"}, {"projectFrom", "git"}, {"cuda", "/usr/local/cuda"}}));
  EXPECT_EQ(J["diagnostics"][0]["file"], "/src/a.cu"); // "file" stays absolute
  EXPECT_EQ(J["diagnostics"][0]["path"], "a.cu");
  EXPECT_TRUE(J["diagnostics"][1]["path"].is_null());
  EXPECT_EQ(J["diagnostics"][2]["path"], "<cuda>/include/cuda_runtime.h");
  // Without roots (none could be chosen): the file as it is, and nulls.
  const json Plain = written(resultWithDiagnostics());
  EXPECT_EQ(Plain["diagnostics"][0]["path"], "/src/a.cu");
  EXPECT_TRUE(Plain["roots"]["project"].is_null());
}

TEST(JsonOutput, ColumnsAreClangsBytesNotCodePoints) {
  LintResult R;
  DiagnosticRecord D;
  D.check = "cuda-launch-tiny-grid";
  D.severity = "warning";
  D.message = "m";
  D.file = "/src/\xc3\xa9.cu";
  D.position = at(3, 9, 40, /*CodePointColumn=*/7);
  R.diagnostics.push_back(D);
  const json J = written(R);
  EXPECT_EQ(J["diagnostics"][0]["column"], 9);
  EXPECT_EQ(J["diagnostics"][0]["file"], "/src/\xc3\xa9.cu");
}

TEST(JsonOutput, InvalidUtf8InAMessageIsReplacedNotFatal) {
  LintResult R;
  DiagnosticRecord D;
  D.check = "clang-diagnostic-error";
  D.severity = "error";
  D.message = "bad byte \xff here";
  R.diagnostics.push_back(D);
  const json J = written(R);
  EXPECT_EQ(J["diagnostics"][0]["message"], "bad byte \xef\xbf\xbd here");
}

// One translation unit for sm_90 with a kernel (ptxas resources, spills) and
// a launch of it on an H100, its occupancy computed by the engine.
facts::TranslationUnitRecord unitWithLaunch(const std::string &MainFile, const std::string &LaunchFile) {
  facts::TranslationUnitRecord U;
  U.mainFile = MainFile;
  U.arch = "sm_90";
  U.targets = {gpu("H100")};
  facts::KernelRecord K;
  K.location = {LaunchFile, 3, 17};
  K.name = "scale";
  K.mangledName = "_Z5scalePf";
  K.resources.registersPerThread = 72;
  K.resources.staticSharedMem = 4096;
  K.resources.barriers = 1;
  K.resources.launchBoundsMaxThreads = 256;
  K.registersKnown = true;
  K.resourceSource = "ptxas, sm_90";
  K.spillStores = 8;
  K.spillLoads = 12;
  U.kernels.push_back(K);

  facts::LaunchRecord L;
  L.location = {LaunchFile, 20, 3};
  L.launchKind = "<<<...>>>";
  L.caller = "run";
  L.kernel = "scale";
  L.mangledName = "_Z5scalePf";
  L.gpu = U.targets.front();
  L.grid = "1000";
  L.block = "256";
  L.dynamicSharedMem = "1024";
  L.resources = K.resources;
  L.registersKnown = true;
  LaunchShape Shape;
  Shape.blockX = 256;
  Shape.dynamicSharedMem = 1024;
  Shape.gridBlocks = 1000;
  L.shape = Shape;
  L.occupancy = computeOccupancy(L.gpu, K.resources, Shape);
  U.launches.push_back(L);
  return U;
}

TEST(JsonOutput, LaunchFactsAsTheEngineComputedThem) {
  LintResult R;
  R.units.push_back(unitWithLaunch("/src/a.cu", "/src/a.cu"));
  const facts::LaunchRecord &Record = R.units[0].launches[0];
  const OccupancyResult &O = *Record.occupancy;
  ASSERT_EQ(O.failure, LaunchFailure::None);
  const json J = written(R);
  ASSERT_EQ(J["launches"].size(), 1u);
  const json &L = J["launches"][0];
  EXPECT_EQ(L["file"], "/src/a.cu");
  EXPECT_EQ(L["line"], 20);
  EXPECT_EQ(L["column"], 3);
  EXPECT_EQ(L["launchKind"], "<<<...>>>");
  EXPECT_EQ(L["caller"], "run");
  EXPECT_EQ(L["kernel"], "scale");
  EXPECT_EQ(L["mangledName"], "_Z5scalePf");
  EXPECT_EQ(L["arch"], "sm_90");
  EXPECT_EQ(L["gpu"]["name"], Record.gpu.productName);
  EXPECT_EQ(L["gpu"]["arch"], "sm_90");
  EXPECT_EQ(L["gpu"]["smCount"], Record.gpu.smCount);
  EXPECT_EQ(L["grid"], "1000");
  EXPECT_EQ(L["block"], "256");
  EXPECT_EQ(L["dynamicSharedMemory"], "1024");
  EXPECT_EQ(L["cooperative"], false);

  EXPECT_EQ(L["shape"]["block"], json({256, 1, 1}));
  EXPECT_EQ(L["shape"]["threadsPerBlock"], 256);
  EXPECT_EQ(L["shape"]["dynamicSharedMemoryBytes"], 1024);
  EXPECT_TRUE(L["shape"]["optinDynamicSharedMemoryBytes"].is_null());
  EXPECT_EQ(L["shape"]["gridBlocks"], 1000);

  const json &Res = L["resources"];
  EXPECT_EQ(Res["registersPerThread"], 72);
  EXPECT_EQ(Res["registersKnown"], true);
  EXPECT_EQ(Res["resourceSource"], "ptxas, sm_90");
  EXPECT_EQ(Res["staticSharedMemoryBytes"], 4096);
  EXPECT_EQ(Res["barriers"], 1);
  EXPECT_EQ(Res["launchBoundsMaxThreads"], 256);
  EXPECT_TRUE(Res["launchBoundsMinBlocks"].is_null());
  EXPECT_TRUE(Res["maxRegisters"].is_null());
  EXPECT_EQ(Res["spills"], json({{"storeBytes", 8}, {"loadBytes", 12}}));

  const json &Occ = L["occupancy"];
  EXPECT_EQ(Occ["blocksPerSM"], O.blocksPerSM);
  EXPECT_EQ(Occ["warpsPerBlock"], O.warpsPerBlock);
  EXPECT_EQ(Occ["activeWarpsPerSM"], O.activeWarpsPerSM);
  EXPECT_EQ(Occ["maxWarpsPerSM"], O.maxWarpsPerSM);
  EXPECT_DOUBLE_EQ(Occ["fraction"].get<double>(), O.occupancy);
  EXPECT_EQ(Occ["limits"]["warps"], O.limitWarps);
  EXPECT_EQ(Occ["limits"]["registers"], O.limitRegisters);
  EXPECT_EQ(Occ["limits"]["sharedMemory"], O.limitSharedMem);
  EXPECT_EQ(Occ["limits"]["blocks"], O.limitBlocks);
  EXPECT_EQ(Occ["allocatedRegistersPerBlock"], O.allocatedRegistersPerBlock);
  EXPECT_EQ(Occ["allocatedSharedMemoryPerBlock"], O.allocatedSharedMemPerBlock);
  EXPECT_EQ(Occ["sharedMemoryConfigPerSM"], O.sharedMemConfigPerSM);
  // 72 registers x 256 threads: the register file binds on an H100.
  EXPECT_EQ(Occ["bindingLimiters"], json({"registers"})) << limiterNames(O.bindingLimiters);

  EXPECT_TRUE(L["failure"].is_null());
  ASSERT_TRUE(O.waves);
  EXPECT_DOUBLE_EQ(L["waves"]["waves"].get<double>(), *O.waves);
  EXPECT_EQ(L["waves"]["fullWaves"], *O.fullWaves);
  EXPECT_EQ(L["waves"]["tailBlocks"], *O.tailBlocks);
  ASSERT_EQ(L["nextSteps"].size(), O.nextSteps.size());
  ASSERT_FALSE(O.nextSteps.empty());
  EXPECT_EQ(L["nextSteps"][0]["text"], O.nextSteps[0].text);
  EXPECT_EQ(L["nextSteps"][0]["resource"], O.nextSteps[0].resource);
  EXPECT_EQ(L["nextSteps"][0]["reduceBy"], O.nextSteps[0].reduceBy);
  EXPECT_EQ(L["nextSteps"][0]["newValue"], O.nextSteps[0].newValue);
  EXPECT_EQ(L["nextSteps"][0]["blocksPerSM"], O.nextSteps[0].blocksPerSM);

  ASSERT_EQ(J["kernels"].size(), 1u);
  const json &K = J["kernels"][0];
  EXPECT_EQ(K["name"], "scale");
  EXPECT_EQ(K["mangledName"], "_Z5scalePf");
  EXPECT_EQ(K["file"], "/src/a.cu");
  EXPECT_EQ(K["line"], 3);
  EXPECT_EQ(K["column"], 17);
  EXPECT_EQ(K["arch"], "sm_90");
  EXPECT_EQ(K["registersPerThread"], 72);
  EXPECT_EQ(K["registersKnown"], true);
  EXPECT_EQ(K["spills"]["loadBytes"], 12);
}

TEST(JsonOutput, AFailedLaunchSaysWhyAndUnlimitedResourcesAreNull) {
  LintResult R;
  facts::TranslationUnitRecord U = unitWithLaunch("/src/a.cu", "/src/a.cu");
  facts::LaunchRecord &L = U.launches[0];
  // Estimated resources (registers unknown: 0 for the engine), 2048 threads.
  L.registersKnown = false;
  L.resources->registersPerThread = 0;
  L.shape->blockX = 2048;
  L.block = "2048";
  L.occupancy = computeOccupancy(L.gpu, *L.resources, *L.shape);
  ASSERT_NE(L.occupancy->failure, LaunchFailure::None);
  R.units.push_back(U);
  const json J = written(R);
  const json &Launch = J["launches"][0];
  EXPECT_EQ(Launch["failure"]["kind"], launchFailureName(L.occupancy->failure));
  EXPECT_EQ(Launch["failure"]["reason"], L.occupancy->failureReason);
  EXPECT_FALSE(Launch["failure"]["reason"].get<std::string>().empty());
  EXPECT_TRUE(Launch["resources"]["registersPerThread"].is_null());
  EXPECT_EQ(Launch["resources"]["registersKnown"], false);
  // No registers: no register limit (the engine's INT_MAX).
  ASSERT_EQ(L.occupancy->limitRegisters, INT_MAX);
  EXPECT_TRUE(Launch["occupancy"]["limits"]["registers"].is_null());
}

TEST(JsonOutput, AnUnknownKernelOrShapeHasNullFacts) {
  LintResult R;
  facts::TranslationUnitRecord U;
  U.mainFile = "/src/a.cu";
  U.arch = "sm_80";
  facts::LaunchRecord L;
  L.location = {"/src/a.cu", 5, 3};
  L.launchKind = "cudaLaunchKernel";
  L.gpu = gpu("A100");
  L.grid = "unknown";
  L.block = "unknown";
  L.dynamicSharedMem = "0";
  U.launches.push_back(L);
  R.units.push_back(U);
  const json Launch = written(R)["launches"][0];
  EXPECT_TRUE(Launch["kernel"].is_null());
  EXPECT_TRUE(Launch["caller"].is_null());
  EXPECT_TRUE(Launch["shape"].is_null());
  EXPECT_TRUE(Launch["resources"].is_null());
  EXPECT_TRUE(Launch["occupancy"].is_null());
  EXPECT_TRUE(Launch["failure"].is_null());
  EXPECT_TRUE(Launch["waves"].is_null());
  EXPECT_TRUE(Launch["nextSteps"].empty());
  EXPECT_TRUE(Launch["suppressed"].is_array());
  EXPECT_TRUE(Launch["suppressed"].empty());
  EXPECT_EQ(Launch["gpu"]["arch"], "sm_80");
}

TEST(JsonOutput, MootFindingsAreListedOnTheirLaunch) {
  LintResult R;
  facts::TranslationUnitRecord U = unitWithLaunch("/src/a.cu", "/src/a.cu");
  U.launches[0].suppressed = {
      {"cuda-occupancy-block-cap", "cuda-launch-tiny-grid", "the grid of 2 blocks is smaller than the SM count"},
      {"cuda-occupancy-register-cliff", "cuda-launch-tiny-grid", "the same"}};
  R.units.push_back(U);
  const json Launch = written(R)["launches"][0];
  EXPECT_EQ(Launch["suppressed"],
            json::parse(R"json([{"check": "cuda-occupancy-block-cap", "suppressedBy": "cuda-launch-tiny-grid",
                             "reason": "the grid of 2 blocks is smaller than the SM count"},
                            {"check": "cuda-occupancy-register-cliff", "suppressedBy": "cuda-launch-tiny-grid",
                             "reason": "the same"}])json"));
}

TEST(JsonOutput, AHeadersLaunchesFromTwoTranslationUnitsAppearOnce) {
  LintResult R;
  R.units.push_back(unitWithLaunch("/src/a.cu", "/src/common.cuh"));
  R.units.push_back(unitWithLaunch("/src/b.cu", "/src/common.cuh"));
  // The same launch computed for another GPU is another fact.
  facts::TranslationUnitRecord OnA100 = unitWithLaunch("/src/b.cu", "/src/common.cuh");
  OnA100.arch = "sm_80";
  facts::LaunchRecord &L = OnA100.launches[0];
  L.gpu = gpu("A100");
  L.occupancy = computeOccupancy(L.gpu, *L.resources, *L.shape);
  R.units.push_back(OnA100);
  const json J = written(R);
  ASSERT_EQ(J["launches"].size(), 2u);
  EXPECT_EQ(J["launches"][0]["gpu"]["arch"], "sm_90");
  EXPECT_EQ(J["launches"][1]["gpu"]["arch"], "sm_80");
  // The kernel once per arch.
  EXPECT_EQ(J["kernels"].size(), 2u);
}

TEST(JsonOutput, RelativeFactFilesAreMadeAbsolute) {
  LintResult R;
  R.units.push_back(unitWithLaunch("a.cu", "sub/../a.cu"));
  llvm::SmallString<256> Expected;
  ASSERT_FALSE(llvm::sys::fs::current_path(Expected));
  Expected += "/a.cu";
  const json J = written(R);
  EXPECT_EQ(J["launches"][0]["file"], std::string(Expected));
  EXPECT_EQ(J["kernels"][0]["file"], std::string(Expected));
}

} // namespace
