#include "lint/WorkerMessages.h"

#include "gpu/GpuDatabase.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <stdexcept>

using clang::tidy::ClangTidyError;
using clang::tooling::DiagnosticMessage;
using namespace clang::tidy::occlint;
using ::occlint::PipelineDepthPoint;
using json = nlohmann::json;

namespace occlint {

namespace {

template <typename T> void put(json &J, const char *Key, const std::optional<T> &V) {
  J[Key] = V ? json(*V) : json(nullptr);
}
template <typename T> void put(json &J, const char *Key, const T &V) { J[Key] = V; }
// An optional field may be missing (a message from before the field existed).
template <typename T> void get(const json &J, const char *Key, std::optional<T> &V) {
  const auto F = J.find(Key);
  V = F == J.end() || F->is_null() ? std::nullopt : std::optional<T>(F->get<T>());
}
template <typename T> void get(const json &J, const char *Key, T &V) { V = J.at(Key).get<T>(); }

// Each struct's fields once, for both directions.
#define OCCLINT_FIELD(name) Io(#name, X.name);

template <typename X_, typename Io_> void kernelResourcesFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(registersPerThread)
  OCCLINT_FIELD(staticSharedMem) OCCLINT_FIELD(barriers) OCCLINT_FIELD(launchBoundsMaxThreads)
      OCCLINT_FIELD(launchBoundsMinBlocks) OCCLINT_FIELD(maxRegisters)
}
template <typename X_, typename Io_> void shapeFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(blockX)
  OCCLINT_FIELD(blockY) OCCLINT_FIELD(blockZ) OCCLINT_FIELD(dynamicSharedMem) OCCLINT_FIELD(optinDynamicSharedMem)
      OCCLINT_FIELD(gridBlocks) OCCLINT_FIELD(dynamicSharedMemIsUpperBound)
}
template <typename X_, typename Io_> void nextStepFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(resource)
  OCCLINT_FIELD(reduceBy) OCCLINT_FIELD(blocksPerSM) OCCLINT_FIELD(occupancy) OCCLINT_FIELD(text)
      OCCLINT_FIELD(newValue)
}
template <typename X_, typename Io_> void occupancyFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(failureReason)
  OCCLINT_FIELD(blocksPerSM) OCCLINT_FIELD(warpsPerBlock) OCCLINT_FIELD(activeWarpsPerSM) OCCLINT_FIELD(maxWarpsPerSM)
      OCCLINT_FIELD(occupancy) OCCLINT_FIELD(limitWarps) OCCLINT_FIELD(limitRegisters) OCCLINT_FIELD(limitSharedMem)
          OCCLINT_FIELD(limitBlocks) OCCLINT_FIELD(limitBarriers) OCCLINT_FIELD(limitingFactors)
              OCCLINT_FIELD(bindingLimiters) OCCLINT_FIELD(allocatedRegistersPerBlock)
                  OCCLINT_FIELD(allocatedSharedMemPerBlock) OCCLINT_FIELD(sharedMemConfigPerSM)
                      OCCLINT_FIELD(sharedMemLimitPerBlock) OCCLINT_FIELD(fullWaves) OCCLINT_FIELD(tailBlocks)
                          OCCLINT_FIELD(waves)
}
template <typename X_, typename Io_> void pointFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(file) OCCLINT_FIELD(line) OCCLINT_FIELD(column)
}
template <typename X_, typename Io_> void kernelFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(name)
  OCCLINT_FIELD(mangledName) OCCLINT_FIELD(registersKnown) OCCLINT_FIELD(resourceSource) OCCLINT_FIELD(spillStores)
      OCCLINT_FIELD(spillLoads) OCCLINT_FIELD(branchLoss) OCCLINT_FIELD(predictedActiveThreadsPerWarp)
}
template <typename X_, typename Io_> void launchFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(launchKind)
  OCCLINT_FIELD(caller) OCCLINT_FIELD(kernel) OCCLINT_FIELD(mangledName) OCCLINT_FIELD(grid)
      OCCLINT_FIELD(gridBlocksAtMost) OCCLINT_FIELD(block) OCCLINT_FIELD(dynamicSharedMem) OCCLINT_FIELD(cooperative)
          OCCLINT_FIELD(registersKnown) OCCLINT_FIELD(variant) OCCLINT_FIELD(variants) OCCLINT_FIELD(valuesComplete)
              OCCLINT_FIELD(blockComplete) OCCLINT_FIELD(incompleteBecause) OCCLINT_FIELD(blockSweep)
                  OCCLINT_FIELD(gridSweep) OCCLINT_FIELD(gridUnknown) OCCLINT_FIELD(blockUnknown)
                      OCCLINT_FIELD(dynamicSharedMemUnknown)
}
template <typename X_, typename Io_> void suppressedFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(check) OCCLINT_FIELD(suppressedBy) OCCLINT_FIELD(reason)
}
template <typename X_, typename Io_> void pipelineFields(X_ &X, Io_ Io) {
  // A list of macro statements, which clang-format reflows a field at a time.
  // clang-format off
  OCCLINT_FIELD(forms) OCCLINT_FIELD(stages) OCCLINT_FIELD(bytesPerStage) OCCLINT_FIELD(otherSharedBytes)
  OCCLINT_FIELD(stagesFrom) OCCLINT_FIELD(stagesUnknown) OCCLINT_FIELD(producer) OCCLINT_FIELD(hazardsNotModelled)
  OCCLINT_FIELD(fpOpsPerThread) OCCLINT_FIELD(tensorFlopsPerWarp) OCCLINT_FIELD(workUnknown)
  OCCLINT_FIELD(nothingOverlaps)
  // clang-format on
}
template <typename X_, typename Io_> void depthFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(stages)
  OCCLINT_FIELD(sharedBytes) OCCLINT_FIELD(fits) OCCLINT_FIELD(blocksPerSM) OCCLINT_FIELD(occupancy)
      OCCLINT_FIELD(bindingLimiters) OCCLINT_FIELD(loadNs) OCCLINT_FIELD(computeNs) OCCLINT_FIELD(latencyNs)
          OCCLINT_FIELD(coversLoad)
}
template <typename X_, typename Io_> void unitFields(X_ &X, Io_ Io) {
  OCCLINT_FIELD(mainFile) OCCLINT_FIELD(arch) OCCLINT_FIELD(resourceSource)
}
#undef OCCLINT_FIELD

template <typename T, typename Fields> json write(const T &X, Fields F) {
  json J = json::object();
  F(X, [&J](const char *Key, const auto &V) { put(J, Key, V); });
  return J;
}
template <typename T, typename Fields> void read(const json &J, T &X, Fields F) {
  F(X, [&J](const char *Key, auto &V) { get(J, Key, V); });
}

// Each struct, both ways.
#define OCCLINT_FIELDS_OF(Type, Fields)                                                                                \
  json toJson(const Type &X) {                                                                                         \
    return write(X, [](auto &Y, auto Io) { Fields(Y, Io); });                                                          \
  }                                                                                                                    \
  void fromJson(const json &J, Type &X) {                                                                              \
    read(J, X, [](auto &Y, auto Io) { Fields(Y, Io); });                                                               \
  }
OCCLINT_FIELDS_OF(KernelResources, kernelResourcesFields)
OCCLINT_FIELDS_OF(LaunchShape, shapeFields)
OCCLINT_FIELDS_OF(NextStep, nextStepFields)
OCCLINT_FIELDS_OF(SourcePoint, pointFields)
OCCLINT_FIELDS_OF(SuppressedFinding, suppressedFields)
OCCLINT_FIELDS_OF(PipelineRecord, pipelineFields)
OCCLINT_FIELDS_OF(PipelineDepthPoint, depthFields)
#undef OCCLINT_FIELDS_OF

json toJson(const TargetGpu &G) {
  return {{"arch", G.arch.name}, {"productName", G.productName}, {"smCount", G.smCount}};
}
void fromJson(const json &J, TargetGpu &G) {
  const ArchLimits *Arch = GpuDatabase::builtin().findArch(J.at("arch").get<std::string>());
  if (!Arch)
    throw std::runtime_error("unknown arch in a worker's result");
  G.arch = *Arch;
  G.productName = J.at("productName").get<std::string>();
  G.smCount = J.at("smCount").get<int>();
}

json toJson(const OccupancyResult &R) {
  json J = write(R, [](auto &Y, auto Io) { occupancyFields(Y, Io); });
  J["failure"] = int(R.failure);
  for (const NextStep &S : R.nextSteps)
    J["nextSteps"].push_back(toJson(S));
  return J;
}
void fromJson(const json &J, OccupancyResult &R) {
  read(J, R, [](auto &Y, auto Io) { occupancyFields(Y, Io); });
  R.failure = LaunchFailure(J.at("failure").get<int>());
  if (J.contains("nextSteps"))
    for (const json &S : J["nextSteps"])
      fromJson(S, R.nextSteps.emplace_back());
}

template <typename T> json optionalToJson(const std::optional<T> &V) { return V ? toJson(*V) : json(nullptr); }
template <typename T> void optionalFromJson(const json &J, std::optional<T> &V) {
  if (J.is_null())
    return V.reset();
  fromJson(J, V.emplace());
}

json toJson(const TranslationUnitRecord &U) {
  json J = write(U, [](auto &Y, auto Io) { unitFields(Y, Io); });
  J["targets"] = json::array();
  for (const TargetGpu &G : U.targets)
    J["targets"].push_back(toJson(G));
  J["kernels"] = json::array();
  for (const KernelRecord &K : U.kernels) {
    json KJ = write(K, [](auto &Y, auto Io) { kernelFields(Y, Io); });
    KJ["location"] = toJson(K.location);
    KJ["resources"] = toJson(K.resources);
    if (K.pipeline) // only on pipelined kernels (and absent from older records)
      KJ["pipeline"] = toJson(*K.pipeline);
    J["kernels"].push_back(std::move(KJ));
  }
  J["launches"] = json::array();
  for (const LaunchRecord &L : U.launches) {
    json LJ = write(L, [](auto &Y, auto Io) { launchFields(Y, Io); });
    LJ["location"] = toJson(L.location);
    LJ["gpu"] = toJson(L.gpu);
    LJ["resources"] = optionalToJson(L.resources);
    LJ["shape"] = optionalToJson(L.shape);
    LJ["occupancy"] = optionalToJson(L.occupancy);
    LJ["callChain"] = json::array();
    for (const auto &P : L.callChain)
      LJ["callChain"].push_back(toJson(P));
    LJ["suppressed"] = json::array();
    for (const SuppressedFinding &S : L.suppressed)
      LJ["suppressed"].push_back(toJson(S));
    if (!L.pipelineDepths.empty())
      for (const PipelineDepthPoint &P : L.pipelineDepths)
        LJ["pipelineDepths"].push_back(toJson(P));
    J["launches"].push_back(std::move(LJ));
  }
  return J;
}
void fromJson(const json &J, TranslationUnitRecord &U) {
  read(J, U, [](auto &Y, auto Io) { unitFields(Y, Io); });
  for (const json &G : J.at("targets"))
    fromJson(G, U.targets.emplace_back());
  for (const json &KJ : J.at("kernels")) {
    KernelRecord &K = U.kernels.emplace_back();
    read(KJ, K, [](auto &Y, auto Io) { kernelFields(Y, Io); });
    fromJson(KJ.at("location"), K.location);
    fromJson(KJ.at("resources"), K.resources);
    if (KJ.contains("pipeline"))
      fromJson(KJ.at("pipeline"), K.pipeline.emplace());
  }
  for (const json &LJ : J.at("launches")) {
    LaunchRecord &L = U.launches.emplace_back();
    read(LJ, L, [](auto &Y, auto Io) { launchFields(Y, Io); });
    fromJson(LJ.at("location"), L.location);
    fromJson(LJ.at("gpu"), L.gpu);
    optionalFromJson(LJ.at("resources"), L.resources);
    optionalFromJson(LJ.at("shape"), L.shape);
    optionalFromJson(LJ.at("occupancy"), L.occupancy);
    for (const json &P : LJ.at("callChain"))
      fromJson(P, L.callChain.emplace_back());
    for (const json &S : LJ.at("suppressed"))
      fromJson(S, L.suppressed.emplace_back());
    if (LJ.contains("pipelineDepths"))
      for (const json &P : LJ.at("pipelineDepths"))
        fromJson(P, L.pipelineDepths.emplace_back());
  }
}

// ---- clang-tidy's errors --------------------------------------------------

json toJson(const DiagnosticMessage &M) {
  json J = {{"message", M.Message}, {"filePath", M.FilePath}, {"fileOffset", M.FileOffset}};
  J["fix"] = json::array();
  for (const auto &File : M.Fix)
    for (const clang::tooling::Replacement &R : File.getValue())
      J["fix"].push_back({{"key", File.getKey().str()},
                          {"file", R.getFilePath().str()},
                          {"offset", R.getOffset()},
                          {"length", R.getLength()},
                          {"text", R.getReplacementText().str()}});
  J["ranges"] = json::array();
  for (const clang::tooling::FileByteRange &R : M.Ranges)
    J["ranges"].push_back({{"file", R.FilePath}, {"offset", R.FileOffset}, {"length", R.Length}});
  return J;
}
void fromJson(const json &J, DiagnosticMessage &M) {
  M.Message = J.at("message").get<std::string>();
  M.FilePath = J.at("filePath").get<std::string>();
  M.FileOffset = J.at("fileOffset").get<unsigned>();
  for (const json &R : J.at("fix")) {
    clang::tooling::Replacement Rep(R.at("file").get<std::string>(), R.at("offset").get<unsigned>(),
                                    R.at("length").get<unsigned>(), R.at("text").get<std::string>());
    if (llvm::Error E = M.Fix[R.at("key").get<std::string>()].add(Rep))
      throw std::runtime_error("conflicting replacements in a worker's result: " + llvm::toString(std::move(E)));
  }
  for (const json &R : J.at("ranges")) {
    clang::tooling::FileByteRange Range;
    Range.FilePath = R.at("file").get<std::string>();
    Range.FileOffset = R.at("offset").get<unsigned>();
    Range.Length = R.at("length").get<unsigned>();
    M.Ranges.push_back(std::move(Range));
  }
}

json toJson(const ClangTidyError &E) {
  json J = {{"name", E.DiagnosticName},
            {"level", int(E.DiagLevel)},
            {"buildDirectory", E.BuildDirectory},
            {"warningAsError", E.IsWarningAsError},
            {"aliases", E.EnabledDiagnosticAliases},
            {"message", toJson(E.Message)}};
  J["notes"] = json::array();
  for (const DiagnosticMessage &N : E.Notes)
    J["notes"].push_back(toJson(N));
  return J;
}
ClangTidyError errorFromJson(const json &J) {
  ClangTidyError E(J.at("name").get<std::string>(), ClangTidyError::Level(J.at("level").get<int>()),
                   J.at("buildDirectory").get<std::string>(), J.at("warningAsError").get<bool>());
  E.EnabledDiagnosticAliases = J.at("aliases").get<std::vector<std::string>>();
  fromJson(J.at("message"), E.Message);
  for (const json &N : J.at("notes"))
    fromJson(N, E.Notes.emplace_back());
  return E;
}

json toJson(const ParseGap &G) {
  return {{"file", G.file},
          {"arch", G.arch},
          {"firstError", toJson(G.firstError)},
          {"functionsNotAnalysed", G.functionsNotAnalysed ? json(*G.functionsNotAnalysed) : json(nullptr)},
          {"findingsDropped", G.findingsDropped}};
}
ParseGap parseGapFromJson(const json &J) {
  ParseGap G;
  get(J, "file", G.file);
  get(J, "arch", G.arch);
  G.firstError = errorFromJson(J.at("firstError"));
  get(J, "functionsNotAnalysed", G.functionsNotAnalysed);
  get(J, "findingsDropped", G.findingsDropped);
  return G;
}

} // namespace

json workerResultToJson(const WorkerResult &Result) {
  json J = {{"errors", json::array()}, {"units", json::array()}, {"deferred", Result.deferred}};
  for (const ClangTidyError &E : Result.errors)
    J["errors"].push_back(toJson(E));
  for (const TranslationUnitRecord &U : Result.units)
    J["units"].push_back(toJson(U));
  J["parseGaps"] = json::array();
  for (const ParseGap &G : Result.parseGaps)
    J["parseGaps"].push_back(toJson(G));
  J["cache"] = Result.cache;
  return J;
}

WorkerResult workerResultFromJson(const json &J) {
  WorkerResult R;
  for (const json &E : J.at("errors"))
    R.errors.push_back(errorFromJson(E));
  for (const json &U : J.at("units"))
    fromJson(U, R.units.emplace_back());
  for (const json &G : J.at("parseGaps"))
    R.parseGaps.push_back(parseGapFromJson(G));
  R.deferred = J.at("deferred");
  R.cache = J.value("cache", json());
  return R;
}

json unitRecordsToJson(const std::vector<TranslationUnitRecord> &Units) {
  json J = json::array();
  for (const TranslationUnitRecord &U : Units)
    J.push_back(toJson(U));
  return J;
}

std::vector<TranslationUnitRecord> unitRecordsFromJson(const json &J) {
  std::vector<TranslationUnitRecord> Units;
  for (const json &U : J)
    fromJson(U, Units.emplace_back());
  return Units;
}

} // namespace occlint
