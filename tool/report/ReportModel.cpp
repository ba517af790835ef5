#include "report/ReportModel.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <tuple>

namespace occlint {

using clang::tidy::occlint::KernelRecord;
using clang::tidy::occlint::LaunchRecord;
using clang::tidy::occlint::SourcePoint;
using clang::tidy::occlint::TranslationUnitRecord;
namespace fs = std::filesystem;

std::string reportLossText(const ReportModel &Model, const ReportRankedFinding &R) {
  std::string Text = describeLoss(R.loss);
  if (Model.weightsFile.empty())
    return Text;
  if (!R.share)
    return Text + " (not in the weights)";
  Text += " × " + reportPercent(*R.share) + " of the runtime";
  if (R.loss.kind == FindingLoss::Kind::Estimated)
    Text += " = " + reportPercent(R.loss.loss * *R.share);
  return Text;
}

std::string reportRankingNote(const ReportModel &Model) {
  const std::string Loss = "Each launch finding with what it costs its launch at most, as Nsight Compute's "
                           "estimated speedup: the share of lanes, SMs or the tail wave left idle (an upper "
                           "bound). ";
  const std::string Tail = " Launches that cannot start come first; occupancy-only findings come after the "
                           "estimated losses, the largest launch first: occupancy is not the goal by itself.";
  if (!Model.weightsFile.empty())
    return Loss + "Ordered by that loss times the kernel's share of the runtime in " + Model.weightsFile +
           " (kernels the file does not name after those it does)." + Tail;
  return Loss +
         "Ordered by that loss times the launch's size, what the launch weighs in the program: the blocks it "
         "launches over the blocks the GPU holds at once at its occupancy, in waves (what each thread does "
         "is not known and is taken equal across launches; a grid known only by its bound counts at its "
         "bound, one not known at all as one full wave). --weights orders by measured kernel times "
         "instead." +
         Tail;
}

std::string reportPercent(double Fraction) {
  char Buffer[32];
  std::snprintf(Buffer, sizeof Buffer, "%.1f%%", 100.0 * Fraction);
  return Buffer;
}

std::string reportBytes(int64_t Bytes) {
  if (Bytes >= 1024 && Bytes % 1024 == 0)
    return std::to_string(Bytes / 1024) + " KiB";
  return std::to_string(Bytes) + " B";
}

namespace {

// Files as the parses and the diagnostics name them, made comparable.
std::string normalPath(const std::string &File) {
  if (File.empty())
    return File;
  std::error_code EC;
  fs::path P = fs::absolute(fs::path(File), EC);
  return (EC ? fs::path(File) : P).lexically_normal().string();
}

std::string gpuName(const TargetGpu &Gpu) {
  return Gpu.productName + " (" + Gpu.arch.name + ", " + std::to_string(Gpu.smCount) + " SMs)";
}

// The deepest directory holding every file of the page.
struct DiagnosticIndex {
  // (file, line) -> the diagnostics there (notes are part of them), by index into Result.diagnostics.
  std::map<std::pair<std::string, unsigned>, std::vector<size_t>> byLine;
  std::vector<bool> shown;
};

// The kernel rows before sorting and formatting: the records they come from.
struct LaunchEntry {
  const LaunchRecord *launch = nullptr;
  std::string file;
};
struct KernelEntry {
  const KernelRecord *kernel = nullptr; // null: launched but not defined in the linted files
  std::string file;                     // normalised; "" when unknown
  std::string name, arch;
  std::vector<LaunchEntry> launches;
};

class ModelBuilder {
public:
  ModelBuilder(const LintResult &Result, ReportModel &Model, ReportOptions Options)
      : Result(Result), Model(Model), Options(Options) {}

  void build() {
    indexDiagnostics();
    collectEntries();
    // One root for every output (outputs/PathRoots.h); a result built
    // without one (a test's) falls back to the files' common directory.
    Roots = Result.roots;
    if (Roots.project.empty())
      Roots.project = commonDirectory(std::vector<std::string>(AllFiles.begin(), AllFiles.end()));
    Model.baseDirectory = Roots.project;
    sortEntries();
    for (const KernelEntry &E : Kernels)
      Model.kernels.push_back(kernelRow(E));
    for (size_t I = 0; I < Result.diagnostics.size(); ++I)
      if (!Diagnostics.shown[I])
        Model.otherFindings.push_back(finding(Result.diagnostics[I]));
    if (Options.weights) {
      // The loss times the kernel's share of the runtime; kernels the file
      // does not name after those it does, within each kind.
      Model.weightsFile = Options.weights->file();
      std::stable_sort(Model.ranked.begin(), Model.ranked.end(),
                       [](const ReportRankedFinding &A, const ReportRankedFinding &B) {
                         if (A.loss.kind != B.loss.kind)
                           return int(A.loss.kind) < int(B.loss.kind);
                         if (bool(A.share) != bool(B.share))
                           return bool(A.share); // the kernels the file names first
                         if (A.loss.kind == FindingLoss::Kind::CannotStart)
                           return A.share.value_or(0) > B.share.value_or(0);
                         if (A.loss.kind == FindingLoss::Kind::Estimated)
                           return A.loss.loss * A.share.value_or(1) > B.loss.loss * B.share.value_or(1);
                         return ranksBefore(A.loss, A.weight, B.loss, B.weight);
                       });
    } else {
      // What the finding costs the program: its launch's loss times the
      // launch's size (ReportRanking.h).
      std::stable_sort(Model.ranked.begin(), Model.ranked.end(),
                       [](const ReportRankedFinding &A, const ReportRankedFinding &B) {
                         return ranksBefore(A.loss, A.weight, B.loss, B.weight);
                       });
    }
    for (const DiagnosticRecord &D : Result.diagnostics)
      if (D.severity != "remark")
        ++Model.findingsByCheck[D.check];
    if (Result.baseline) {
      Model.baselineFile = Result.baseline->file;
      Model.newFindings = Result.baseline->newCount();
      for (const BaselineFinding &B : Result.baseline->fixed)
        Model.fixedSinceBaseline.push_back(
            {B.check, B.severity, B.message, B.path + (B.line ? ":" + std::to_string(B.line) : ""), false});
    }
  }

private:
  void indexDiagnostics() {
    Diagnostics.shown.assign(Result.diagnostics.size(), false);
    for (size_t I = 0; I < Result.diagnostics.size(); ++I) {
      const DiagnosticRecord &D = Result.diagnostics[I];
      ++Model.findingsBySeverity[D.severity];
      const std::string File = normalPath(D.file);
      if (!File.empty())
        AllFiles.insert(File);
      Diagnostics.byLine[{File, D.position.line}].push_back(I);
    }
  }

  std::vector<ReportFinding> findingsAt(const std::string &File, unsigned Line) {
    std::vector<ReportFinding> Out;
    auto It = Diagnostics.byLine.find({File, Line});
    if (It == Diagnostics.byLine.end())
      return Out;
    for (size_t I : It->second) {
      Diagnostics.shown[I] = true;
      Out.push_back(finding(Result.diagnostics[I]));
    }
    return Out;
  }

  std::string relative(const std::string &File) const { return Roots.display(File); }

  ReportFinding finding(const DiagnosticRecord &D) const {
    ReportFinding F;
    F.check = D.check;
    F.severity = D.severity;
    F.message = D.message;
    if (!D.file.empty())
      F.location = relative(normalPath(D.file)) + ":" + std::to_string(D.position.line) + ":" +
                   std::to_string(D.position.column);
    // D is an element of Result.diagnostics: its index is its place there.
    if (Result.baseline)
      F.isNew = Result.baseline->isNew[size_t(&D - Result.diagnostics.data())];
    return F;
  }

  void collectEntries() {
    std::map<std::pair<std::string, std::string>, size_t> KernelByKey; // (mangled name, arch)
    std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string, std::string, int>> SeenLaunches;
    std::set<std::tuple<std::string, unsigned, unsigned, std::string>> Sites;
    std::set<std::string> Units;
    std::set<std::string> Sources;
    for (const TranslationUnitRecord &Unit : Result.units) {
      Units.insert(normalPath(Unit.mainFile));
      // Formatted once the base directory is known (sortEntries).
      const std::string Source = Unit.mainFile + "\n" + Unit.arch + "\n" + Unit.resourceSource;
      if (Sources.insert(Source).second)
        SourceOrder.push_back(Source);
      for (const KernelRecord &K : Unit.kernels) {
        const std::string Key = K.mangledName.empty() ? K.name : K.mangledName;
        if (KernelByKey.count({Key, Unit.arch}))
          continue;
        KernelEntry E;
        E.kernel = &K;
        E.file = normalPath(K.location.file);
        E.name = K.name;
        E.arch = Unit.arch;
        AllFiles.insert(E.file);
        KernelByKey[{Key, Unit.arch}] = Kernels.size();
        Kernels.push_back(std::move(E));
      }
      for (const LaunchRecord &L : Unit.launches) {
        const std::string File = normalPath(L.location.file);
        const std::string Key = L.mangledName.empty() ? L.kernel : L.mangledName;
        if (!SeenLaunches
                 .insert({File, L.location.line, L.location.column, Key, Unit.arch, L.gpu.productName, L.gpu.smCount})
                 .second)
          continue;
        Sites.insert({File, L.location.line, L.location.column, Key});
        AllFiles.insert(File);
        auto It = KernelByKey.find({Key, Unit.arch});
        if (It == KernelByKey.end()) {
          KernelEntry E;
          E.name = L.kernel;
          E.arch = Unit.arch;
          It = KernelByKey.emplace(std::make_pair(Key, Unit.arch), Kernels.size()).first;
          Kernels.push_back(std::move(E));
        }
        Kernels[It->second].launches.push_back({&L, File});
      }
    }
    Model.translationUnits = Units.size();
    Model.launchCount = Sites.size();
    Model.kernelCount = std::count_if(Kernels.begin(), Kernels.end(), [](const KernelEntry &E) { return E.kernel; });
  }

  void sortEntries() {
    for (KernelEntry &E : Kernels)
      std::stable_sort(E.launches.begin(), E.launches.end(), [](const LaunchEntry &A, const LaunchEntry &B) {
        return std::tie(A.file, A.launch->location.line, A.launch->location.column, A.launch->gpu.productName) <
               std::tie(B.file, B.launch->location.line, B.launch->location.column, B.launch->gpu.productName);
      });
    // Defined kernels by place of definition, then the ones defined elsewhere.
    std::stable_sort(Kernels.begin(), Kernels.end(), [](const KernelEntry &A, const KernelEntry &B) {
      const unsigned LineA = A.kernel ? A.kernel->location.line : 0, LineB = B.kernel ? B.kernel->location.line : 0;
      return std::make_tuple(!A.kernel, A.file, LineA, A.name, A.arch) <
             std::make_tuple(!B.kernel, B.file, LineB, B.name, B.arch);
    });
    for (const std::string &Entry : SourceOrder) {
      const size_t First = Entry.find('\n'), Second = Entry.find('\n', First + 1);
      Model.resourceSources.push_back(relative(normalPath(Entry.substr(0, First))) + ", " +
                                      Entry.substr(First + 1, Second - First - 1) + ": " + Entry.substr(Second + 1));
    }
  }

  ReportKernelRow kernelRow(const KernelEntry &E) {
    ReportKernelRow Row;
    Row.kernel = E.name;
    Row.arch = E.arch;
    if (const KernelRecord *K = E.kernel) {
      Row.location = relative(E.file) + ":" + std::to_string(K->location.line);
      Row.registersEstimated = !K->registersKnown;
      Row.registers = K->registersKnown ? std::to_string(K->resources.registersPerThread) : "unknown (estimate)";
      if (K->registersKnown && K->resources.maxRegisters && *K->resources.maxRegisters > 0 &&
          K->resources.registersPerThread > *K->resources.maxRegisters)
        Row.registers += " (capped at " + std::to_string(*K->resources.maxRegisters) + ")";
      Row.resourceSource = K->resourceSource;
      Row.sharedMemory = reportBytes(K->resources.staticSharedMem) + " static";
      if (!K->registersKnown)
        Row.spills = "unknown";
      else if (K->spillStores == 0 && K->spillLoads == 0)
        Row.spills = "none";
      else
        Row.spills = std::to_string(K->spillStores) + " B stores, " + std::to_string(K->spillLoads) + " B loads";
      Row.findings = findingsAt(E.file, K->location.line);
    } else {
      Row.registers = "unknown";
      Row.registersEstimated = true;
      Row.resourceSource = "not defined in the linted files";
      Row.sharedMemory = Row.spills = "unknown";
    }
    for (const LaunchEntry &L : E.launches)
      Row.launches.push_back(launchRow(L, E));
    return Row;
  }

  std::string blockText(const LaunchRecord &L) const {
    if (!L.shape)
      return L.block;
    const LaunchShape &S = *L.shape;
    if (S.blockY == 1 && S.blockZ == 1)
      return std::to_string(S.blockX);
    std::string Text = std::to_string(S.blockX) + "x" + std::to_string(S.blockY);
    if (S.blockZ != 1)
      Text += "x" + std::to_string(S.blockZ);
    return Text + " (" + std::to_string(S.threadsPerBlock()) + ")";
  }

  ReportLaunchRow launchRow(const LaunchEntry &Entry, const KernelEntry &Kernel) {
    const LaunchRecord &L = *Entry.launch;
    ReportLaunchRow Row;
    Row.location = relative(Entry.file) + ":" + std::to_string(L.location.line);
    Row.kernel = L.kernel.empty() ? "(unknown kernel)" : L.kernel;
    Row.launchKind = L.launchKind;
    Row.caller = L.caller;
    Row.gpu = gpuName(L.gpu);
    Row.gpuName = L.gpu.productName;
    Row.gpuDetail = L.gpu.arch.name + ", " + std::to_string(L.gpu.smCount) + " SMs";
    std::string Dynamic = L.dynamicSharedMem; // as evaluated: "4096", "[0, 1024]", "unknown"
    if (L.shape)
      Dynamic = L.shape->dynamicSharedMemIsUpperBound
                    ? Dynamic + " (≤ " + reportBytes(L.shape->dynamicSharedMem) + ")" // the spelling, then the bound
                    : reportBytes(L.shape->dynamicSharedMem);
    else if (!Dynamic.empty() && Dynamic.size() < 18 &&
             std::all_of(Dynamic.begin(), Dynamic.end(), [](char C) { return C >= '0' && C <= '9'; }))
      Dynamic = reportBytes(std::stoll(Dynamic));
    Row.sharedMemory = (L.resources ? reportBytes(L.resources->staticSharedMem) : std::string("?")) + " + " + Dynamic;
    Row.block = blockText(L);
    Row.grid = L.grid;
    std::vector<ReportFinding> Findings = findingsAt(Entry.file, L.location.line);
    if (L.occupancy && L.shape && L.resources) {
      const OccupancyResult &R = *L.occupancy;
      if (R.failure != LaunchFailure::None) {
        Row.cannotLaunch = true;
        Row.occupancy = "cannot launch";
        Row.limits = launchFailureName(R.failure);
        Row.limitsDetail = R.failureReason;
      } else {
        Row.occupancyValue = R.occupancy;
        Row.occupancyUpperBound = !L.registersKnown;
        Row.occupancy = (Row.occupancyUpperBound ? "≤ " : "") + reportPercent(R.occupancy);
        Row.limits = limiterNames(R.bindingLimiters);
        if (R.waves) {
          char Buffer[32];
          std::snprintf(Buffer, sizeof Buffer, "%.2f", *R.waves);
          Row.waves = std::string(Buffer) + " (" + std::to_string(R.fullWaves.value_or(0)) + " full";
          if (R.tailBlocks.value_or(0) > 0)
            Row.waves += " + tail of " + std::to_string(*R.tailBlocks) + " of " +
                         std::to_string(int64_t(R.blocksPerSM) * L.gpu.smCount) + " blocks";
          Row.waves += ")";
        }
      }
      // Only the launches with a finding get their charts, unless asked:
      // on a big project the charts are most of the page.
      const bool HasFinding =
          std::any_of(Findings.begin(), Findings.end(), [](const ReportFinding &F) { return F.severity != "remark"; });
      if (Options.allStaircases || HasFinding)
        Row.staircase = staircaseFor(L, Kernel, Row);
    } else {
      Row.occupancy = "unknown";
      if (!L.resources)
        Row.limits = L.kernel.empty() ? "the launched kernel is not known" : "the kernel is not defined here";
      else
        Row.limits = "block " + L.block + ", dynamic shared memory " + L.dynamicSharedMem + ": not constants";
    }
    Row.findings = std::move(Findings);
    for (const ReportFinding &F : Row.findings)
      if (F.severity != "remark")
        Model.ranked.push_back({F, Row.kernel, Row.gpu, estimateFindingLoss(F.check, L),
                                Options.weights ? Options.weights->shareOf(L.kernel) : std::nullopt,
                                estimateLaunchWeight(L)});
    for (const auto &S : L.suppressed)
      Row.moot.push_back({S.check, S.suppressedBy, S.reason});
    return Row;
  }

  // The group of launches with this kernel, GPU and configuration.
  int staircaseFor(const LaunchRecord &L, const KernelEntry &Kernel, const ReportLaunchRow &Row) {
    const KernelResources &K = *L.resources;
    const LaunchShape &S = *L.shape;
    const std::string Key = Kernel.name + "\n" + L.mangledName + "\n" + Kernel.arch + "\n" + Row.gpu + "\n" +
                            std::to_string(K.registersPerThread) + "/" + std::to_string(K.staticSharedMem) + "/" +
                            std::to_string(K.barriers) + "/" + std::to_string(K.launchBoundsMaxThreads.value_or(0)) +
                            "/" + std::to_string(K.maxRegisters.value_or(0)) + "/" + std::to_string(S.blockX) + "x" +
                            std::to_string(S.blockY) + "x" + std::to_string(S.blockZ) + "/" +
                            std::to_string(S.dynamicSharedMem) + "/" +
                            std::to_string(S.optinDynamicSharedMem.value_or(-1)) + "/" +
                            std::to_string(S.dynamicSharedMemIsUpperBound) + "/" + std::to_string(L.registersKnown);
    auto [It, New] = StaircaseByKey.emplace(Key, int(Model.staircases.size()));
    if (New) {
      ReportStaircaseGroup G;
      G.anchor = "staircase-" + std::to_string(Model.staircases.size() + 1);
      G.kernel = Row.kernel;
      G.gpu = Row.gpu;
      G.registersKnown = L.registersKnown;
      G.configuration =
          "block " + Row.block + ", " +
          (L.registersKnown ? std::to_string(K.registersPerThread) + " registers" : std::string("registers unknown")) +
          ", " + reportBytes(K.staticSharedMem) + " static + " + (S.dynamicSharedMemIsUpperBound ? "≤ " : "") +
          reportBytes(S.dynamicSharedMem) + " dynamic shared memory";
      G.occupancy = Row.occupancy;
      if (Row.cannotLaunch)
        G.failure = L.occupancy->failureReason;
      G.charts = computeStaircases(L.gpu, K, S, L.registersKnown);
      if (Kernel.kernel && Kernel.kernel->pipeline && Kernel.kernel->pipeline->stages && !L.pipelineDepths.empty())
        G.charts.pipelineStages = pipelineStagesStaircase(L.pipelineDepths, *Kernel.kernel->pipeline->stages);
      Model.staircases.push_back(std::move(G));
    }
    std::vector<std::string> &Sites = Model.staircases[It->second].launchLocations;
    if (std::find(Sites.begin(), Sites.end(), Row.location) == Sites.end())
      Sites.push_back(Row.location);
    return It->second;
  }

  const LintResult &Result;
  ReportModel &Model;
  DiagnosticIndex Diagnostics;
  std::vector<KernelEntry> Kernels;
  ReportOptions Options;
  std::set<std::string> AllFiles;
  PathRoots Roots;
  std::vector<std::string> SourceOrder;
  std::map<std::string, int> StaircaseByKey;
};

} // namespace

ReportModel buildReportModel(const LintResult &Result, std::string InputDescription, ReportOptions Options) {
  ReportModel Model;
  Model.input = std::move(InputDescription);
  Model.files = Result.fileCount;
  Model.sourceOnly = Result.sourceOnly;
  Model.allStaircases = Options.allStaircases;
  ModelBuilder(Result, Model, Options).build();
  return Model;
}

} // namespace occlint
