// --format=json: occlint's own schema, documented field by field in
// docs/output-formats.md. Bump JsonSchemaVersion (OutputFormats.h) when a
// field changes meaning or disappears (adding fields keeps the version).
#include "OcclintVersion.h"
#include "gpu/PipelineStaircaseJson.h"
#include "outputs/OutputFormats.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <set>

namespace occlint {

namespace {

using Json = nlohmann::ordered_json;
using clang::tidy::occlint::KernelRecord;
using clang::tidy::occlint::LaunchRecord;
using clang::tidy::occlint::TranslationUnitRecord;

Json nullIfEmpty(const std::string &S) { return S.empty() ? Json(nullptr) : Json(S); }

template <typename T> Json nullIfUnset(const std::optional<T> &V) { return V ? Json(*V) : Json(nullptr); }

Json lineColumn(const SourcePosition &P) { return {{"line", P.line}, {"column", P.column}}; }

Json spanJson(const SourceSpan &S) {
  return {{"file", nullIfEmpty(S.file)}, {"begin", lineColumn(S.begin)}, {"end", lineColumn(S.end)}};
}

Json spansJson(const std::vector<SourceSpan> &Spans) {
  Json Out = Json::array();
  for (const SourceSpan &S : Spans)
    Out.push_back(spanJson(S));
  return Out;
}

Json fixesJson(const std::vector<FixRecord> &Fixes) {
  Json Out = Json::array();
  for (const FixRecord &F : Fixes)
    Out.push_back({{"file", nullIfEmpty(F.span.file)},
                   {"begin", lineColumn(F.span.begin)},
                   {"end", lineColumn(F.span.end)},
                   {"offset", F.span.begin.offset},
                   {"length", F.span.end.offset - F.span.begin.offset},
                   {"replacement", F.text}});
  return Out;
}

Json diagnosticJson(const DiagnosticRecord &D) {
  Json Notes = Json::array();
  for (const NoteRecord &N : D.notes)
    Notes.push_back({{"message", N.message},
                     {"file", nullIfEmpty(N.file)},
                     {"line", N.position.line},
                     {"column", N.position.column},
                     {"ranges", spansJson(N.ranges)},
                     {"fixes", fixesJson(N.fixes)}});
  return {{"check", D.check},
          {"severity", D.severity},
          {"warningAsError", D.warningAsError},
          {"message", D.message},
          {"file", nullIfEmpty(D.file)},
          {"line", D.position.line},
          {"column", D.position.column},
          {"ranges", spansJson(D.ranges)},
          {"notes", std::move(Notes)},
          {"fixes", fixesJson(D.fixes)}};
}

// The facts name files as the parse did: relative to the compile command's
// directory, which for `-- flags` is the current one.
std::string absoluteFile(const std::string &File) {
  if (File.empty() || llvm::sys::path::is_absolute(File))
    return File;
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

Json spillsJson(const KernelRecord *Kernel) {
  // ptxas reports spills; an estimate knows none.
  if (!Kernel || !Kernel->registersKnown)
    return nullptr;
  return {{"storeBytes", Kernel->spillStores}, {"loadBytes", Kernel->spillLoads}};
}

Json resourcesJson(const ::occlint::KernelResources &R, bool RegistersKnown, const KernelRecord *Kernel) {
  return {{"registersPerThread", RegistersKnown ? Json(R.registersPerThread) : Json(nullptr)},
          {"registersKnown", RegistersKnown},
          {"resourceSource", Kernel ? nullIfEmpty(Kernel->resourceSource) : Json(nullptr)},
          {"staticSharedMemoryBytes", R.staticSharedMem},
          {"barriers", R.barriers},
          {"launchBoundsMaxThreads", nullIfUnset(R.launchBoundsMaxThreads)},
          {"launchBoundsMinBlocks", nullIfUnset(R.launchBoundsMinBlocks)},
          {"maxRegisters", nullIfUnset(R.maxRegisters)},
          {"spills", spillsJson(Kernel)}};
}

// A per-resource block limit; INT_MAX (the engine's "no limit") is null.
Json blockLimit(int Limit) { return Limit == INT_MAX ? Json(nullptr) : Json(Limit); }

Json limiterList(unsigned Bits) {
  Json Names = Json::array();
  for (::occlint::Limiter L :
       {::occlint::Limiter::Warps, ::occlint::Limiter::Registers, ::occlint::Limiter::SharedMemory,
        ::occlint::Limiter::Blocks, ::occlint::Limiter::Barriers})
    if (Bits & unsigned(L))
      Names.push_back(::occlint::limiterName(L));
  return Names;
}

Json occupancyJson(const ::occlint::OccupancyResult &O) {
  return {{"blocksPerSM", O.blocksPerSM},
          {"warpsPerBlock", O.warpsPerBlock},
          {"activeWarpsPerSM", O.activeWarpsPerSM},
          {"maxWarpsPerSM", O.maxWarpsPerSM},
          {"fraction", O.occupancy},
          {"limits",
           {{"warps", blockLimit(O.limitWarps)},
            {"registers", blockLimit(O.limitRegisters)},
            {"sharedMemory", blockLimit(O.limitSharedMem)},
            {"blocks", blockLimit(O.limitBlocks)},
            {"barriers", blockLimit(O.limitBarriers)}}},
          {"bindingLimiters", limiterList(O.bindingLimiters)},
          {"allocatedRegistersPerBlock", O.allocatedRegistersPerBlock},
          {"allocatedSharedMemoryPerBlock", O.allocatedSharedMemPerBlock},
          {"sharedMemoryConfigPerSM", O.sharedMemConfigPerSM}};
}

Json wavesJson(const std::optional<::occlint::OccupancyResult> &O) {
  if (!O || !O->waves)
    return nullptr;
  return {{"waves", *O->waves}, {"fullWaves", nullIfUnset(O->fullWaves)}, {"tailBlocks", nullIfUnset(O->tailBlocks)}};
}

Json failureJson(const std::optional<::occlint::OccupancyResult> &O) {
  if (!O || O->failure == ::occlint::LaunchFailure::None)
    return nullptr;
  return {{"kind", ::occlint::launchFailureName(O->failure)}, {"reason", O->failureReason}};
}

Json nextStepsJson(const std::optional<::occlint::OccupancyResult> &O) {
  Json Steps = Json::array();
  if (O)
    for (const ::occlint::NextStep &S : O->nextSteps)
      Steps.push_back({{"resource", S.resource},
                       {"reduceBy", S.reduceBy},
                       {"newValue", S.newValue},
                       {"blocksPerSM", S.blocksPerSM},
                       {"occupancy", S.occupancy},
                       {"text", S.text}});
  return Steps;
}

Json shapeJson(const std::optional<::occlint::LaunchShape> &S) {
  if (!S)
    return nullptr;
  return {
      {"block", {S->blockX, S->blockY, S->blockZ}},
      {"threadsPerBlock", S->threadsPerBlock()},
      {"dynamicSharedMemoryBytes", S->dynamicSharedMemIsUpperBound ? Json(nullptr) : Json(S->dynamicSharedMem)},
      {"dynamicSharedMemoryAtMostBytes", S->dynamicSharedMemIsUpperBound ? Json(S->dynamicSharedMem) : Json(nullptr)},
      {"optinDynamicSharedMemoryBytes", nullIfUnset(S->optinDynamicSharedMem)},
      {"gridBlocks", nullIfUnset(S->gridBlocks)}};
}

const KernelRecord *kernelNamed(const TranslationUnitRecord &Unit, const std::string &MangledName) {
  if (MangledName.empty())
    return nullptr;
  for (const KernelRecord &K : Unit.kernels)
    if (K.mangledName == MangledName)
      return &K;
  return nullptr;
}

// Which variant of the launch's values (LaunchVariants.h) and how it is reached.
Json valuesJson(const LaunchRecord &L) {
  Json Via = Json::array();
  for (const clang::tidy::occlint::SourcePoint &P : L.callChain)
    Via.push_back({{"file", nullIfEmpty(absoluteFile(P.file))}, {"line", P.line}, {"column", P.column}});
  return {{"variant", L.variant + 1},
          {"of", L.variants},
          {"complete", L.valuesComplete},
          {"incompleteBecause", nullIfEmpty(L.incompleteBecause)},
          {"blockComplete", L.blockComplete},
          {"blockSweep", nullIfEmpty(L.blockSweep)},
          {"gridSweep", nullIfEmpty(L.gridSweep)},
          {"via", std::move(Via)}};
}

// Why a value is not exact, per value; null when every value is exact or
// there is nothing to say.
Json unknownJson(const LaunchRecord &L) {
  Json Out = Json::object();
  if (!L.gridUnknown.empty())
    Out["grid"] = L.gridUnknown;
  if (!L.blockUnknown.empty())
    Out["block"] = L.blockUnknown;
  if (!L.dynamicSharedMemUnknown.empty())
    Out["dynamicSharedMemory"] = L.dynamicSharedMemUnknown;
  return Out.empty() ? Json(nullptr) : Out;
}

// The findings the precedence table made moot on this launch (docs/launch-analysis.md).
Json suppressedJson(const std::vector<clang::tidy::occlint::SuppressedFinding> &Suppressed) {
  Json Out = Json::array();
  for (const auto &S : Suppressed)
    Out.push_back({{"check", S.check}, {"suppressedBy", S.suppressedBy}, {"reason", S.reason}});
  return Out;
}

Json pipelineJson(const clang::tidy::occlint::PipelineRecord &P) {
  return {{"forms", P.forms},
          {"stages", P.stages ? Json(*P.stages) : Json(nullptr)},
          {"bytesPerStage", P.bytesPerStage > 0 ? Json(P.bytesPerStage) : Json(nullptr)},
          {"otherSharedBytes", P.otherSharedBytes ? Json(*P.otherSharedBytes) : Json(nullptr)},
          {"stagesFrom", nullIfEmpty(P.stagesFrom)},
          {"stagesUnknown", nullIfEmpty(P.stagesUnknown)},
          {"producer", P.producer},
          {"hazardsNotModelled", nullIfEmpty(P.hazardsNotModelled)},
          {"tileWork", P.fpOpsPerThread && P.tensorFlopsPerWarp && !P.workUnknown
                           ? Json{{"fpOpsPerThread", *P.fpOpsPerThread}, {"tensorFlopsPerWarp", *P.tensorFlopsPerWarp}}
                           : Json(nullptr)},
          {"tileWorkUnknown", P.workUnknown ? Json(*P.workUnknown) : Json(nullptr)},
          {"copiesOverlapWork", P.nothingOverlaps ? Json(!*P.nothingOverlaps) : Json(nullptr)}};
}

Json launchFieldsJson(const TranslationUnitRecord &Unit, const LaunchRecord &L);

Json launchJson(const TranslationUnitRecord &Unit, const LaunchRecord &L) {
  Json Out = launchFieldsJson(Unit, L);
  // Only on launches of pipelined kernels: other launches' JSON is unchanged.
  if (!L.pipelineDepths.empty())
    Out["pipelineDepths"] = pipelineDepthsJson(L.pipelineDepths);
  return Out;
}

Json launchFieldsJson(const TranslationUnitRecord &Unit, const LaunchRecord &L) {
  const KernelRecord *Kernel = kernelNamed(Unit, L.mangledName);
  return {{"file", nullIfEmpty(absoluteFile(L.location.file))},
          {"line", L.location.line},
          {"column", L.location.column},
          {"launchKind", L.launchKind},
          {"caller", nullIfEmpty(L.caller)},
          {"kernel", nullIfEmpty(L.kernel)},
          {"mangledName", nullIfEmpty(L.mangledName)},
          {"arch", Unit.arch},
          {"gpu", {{"name", L.gpu.productName}, {"arch", L.gpu.arch.name}, {"smCount", L.gpu.smCount}}},
          {"grid", L.grid},
          {"block", L.block},
          {"dynamicSharedMemory", L.dynamicSharedMem},
          {"values", valuesJson(L)},
          {"unknown", unknownJson(L)},
          {"cooperative", L.cooperative},
          {"shape", shapeJson(L.shape)},
          {"resources", L.resources ? resourcesJson(*L.resources, L.registersKnown, Kernel) : Json(nullptr)},
          {"occupancy", L.occupancy ? occupancyJson(*L.occupancy) : Json(nullptr)},
          {"failure", failureJson(L.occupancy)},
          {"waves", wavesJson(L.occupancy)},
          {"nextSteps", nextStepsJson(L.occupancy)},
          {"suppressed", suppressedJson(L.suppressed)}};
}

Json kernelJson(const TranslationUnitRecord &Unit, const KernelRecord &K) {
  Json Out = {{"file", nullIfEmpty(absoluteFile(K.location.file))},
              {"line", K.location.line},
              {"column", K.location.column},
              {"name", K.name},
              {"mangledName", K.mangledName},
              {"arch", Unit.arch}};
  const Json Resources = resourcesJson(K.resources, K.registersKnown, &K);
  for (const auto &[Key, Value] : Resources.items())
    Out[Key] = Value;
  if (K.pipeline)
    Out["pipeline"] = pipelineJson(*K.pipeline);
  // Rounded: an estimate (divergence/BranchLoss.h), not a measurement.
  // (Divided by a power of ten, not multiplied by its inverse: 229 * 0.1 is
  // 22.900000000000002, 229 / 10.0 the double nearest to 22.9.)
  auto Rounded = [](std::optional<double> V, double PowerOfTen) {
    return V ? Json(std::round(*V * PowerOfTen) / PowerOfTen) : Json(nullptr);
  };
  Out["branchLoss"] = Rounded(K.branchLoss, 1000);
  Out["predictedActiveThreadsPerWarp"] = Rounded(K.predictedActiveThreadsPerWarp, 10);
  return Out;
}

// Appends `Item` unless an identical one is there: a header's launches and
// kernels come once from each translation unit that includes it.
void appendOnce(Json &Array, std::set<std::string> &Seen, Json Item) {
  if (Seen.insert(Item.dump(-1, ' ', false, Json::error_handler_t::replace)).second)
    Array.push_back(std::move(Item));
}

// "path" (the file as the report and SARIF show it: PathRoots) right after "file".
Json withPath(const Json &Record, const PathRoots &Roots) {
  Json Out = Json::object();
  for (const auto &Item : Record.items()) {
    Out[Item.key()] = Item.value();
    if (Item.key() == "file")
      Out["path"] = Item.value().is_string() ? Json(Roots.display(Item.value().get<std::string>())) : Json(nullptr);
  }
  return Out;
}

// --baseline: which saved findings are fixed (the new ones are marked in place).
Json baselineJson(const std::optional<BaselineComparison> &Baseline) {
  if (!Baseline)
    return nullptr;
  Json Fixed = Json::array();
  for (const BaselineFinding &F : Baseline->fixed)
    Fixed.push_back(
        {{"check", F.check}, {"severity", F.severity}, {"message", F.message}, {"path", F.path}, {"line", F.line}});
  return {{"file", Baseline->file}, {"new", Baseline->newCount()}, {"fixed", std::move(Fixed)}};
}

Json rootsJson(const PathRoots &Roots) {
  return {{"project", nullIfEmpty(Roots.project)},
          {"projectFrom", nullIfEmpty(Roots.projectFrom)},
          {"cuda", nullIfEmpty(Roots.cuda)}};
}

// A parse whose Clang errors occlint hid (nvcc compiled the file).
Json parseGapJson(const ParseGapNotice &N) {
  const DiagnosticRecord &E = N.firstError;
  return {{"level", "warning"},
          {"file", absoluteFile(N.file)},
          {"arch", nullIfEmpty(N.arch)},
          {"message", N.message()},
          {"firstError",
           {{"file", nullIfEmpty(E.file)},
            {"line", E.position.line},
            {"column", E.position.column},
            {"message", E.message}}},
          {"functionsNotAnalysed", nullIfUnset(N.functionsNotAnalysed)},
          {"findingsDropped", N.findingsDropped}};
}

} // namespace

void writeJsonOutput(const LintResult &Result, llvm::raw_ostream &OS) {
  Json Diagnostics = Json::array();
  for (size_t I = 0; I < Result.diagnostics.size(); ++I) {
    Json D = withPath(diagnosticJson(Result.diagnostics[I]), Result.roots);
    if (Result.baseline)
      D["baseline"] = Result.baseline->isNew[I] ? "new" : "unchanged";
    Diagnostics.push_back(std::move(D));
  }

  Json Launches = Json::array(), Kernels = Json::array();
  std::set<std::string> SeenLaunches, SeenKernels;
  for (const TranslationUnitRecord &Unit : Result.units) {
    for (const LaunchRecord &L : Unit.launches)
      appendOnce(Launches, SeenLaunches, withPath(launchJson(Unit, L), Result.roots));
    for (const KernelRecord &K : Unit.kernels)
      appendOnce(Kernels, SeenKernels, withPath(kernelJson(Unit, K), Result.roots));
  }

  Json Notifications = Json::array();
  for (const ParseGapNotice &N : Result.parseGaps)
    Notifications.push_back(parseGapJson(N));

  Json Out = {{"version", JsonSchemaVersion},          {"tool", {{"name", "occlint"}, {"version", OCCLINT_VERSION}}},
              {"fileCount", Result.fileCount},         {"sourceOnly", Result.sourceOnly},
              {"roots", rootsJson(Result.roots)},      {"baseline", baselineJson(Result.baseline)},
              {"diagnostics", std::move(Diagnostics)}, {"launches", std::move(Launches)},
              {"kernels", std::move(Kernels)},         {"notifications", std::move(Notifications)}};
  // Messages quote source text, which need not be UTF-8: bad bytes become U+FFFD.
  OS << Out.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) << "\n";
}

} // namespace occlint
