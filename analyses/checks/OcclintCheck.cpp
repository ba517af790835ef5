#include "checks/OcclintCheck.h"
#include "checks/NvccMacroInOwnFiles.h"
#include "divergence/BranchLoss.h"
#include "divergence/DivergenceAnalysis.h"
#include "facts/RunContext.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Tooling/Core/Diagnostic.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace clang::ast_matchers;

namespace clang::tidy::occlint {

OcclintCheck::OcclintCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), TidyContext(Context), CheckName(Name.str()) {
  SharedOptions.targets = ClangTidyCheck::Options.getLocalOrGlobal("Targets", "");
  SharedOptions.ptxasLog = ClangTidyCheck::Options.getLocalOrGlobal("PtxasLog", "");
  SharedOptions.readCache = boolOption("ReadCache", true, /*Global=*/true);
  IgnoreSingleBlock = boolOption("IgnoreSingleBlock", true, /*Global=*/true);
}

void OcclintCheck::registerPPCallbacks(const SourceManager &, Preprocessor *PP, Preprocessor *) {
  NvccMacroInOwnFiles::install(*PP);
}

std::optional<std::string> OcclintCheck::gridBeyondOneWave(const LaunchOnTarget &L, int BlocksPerSM) {
  const int64_t OneWave = int64_t(L.gpu->smCount) * std::max(BlocksPerSM, 1);
  const EvaluatedValue Grid = L.site->grid.product();
  if (Grid.max && *Grid.max <= OneWave)
    return std::nullopt;
  if (Grid.min && *Grid.min > OneWave)
    return std::string();
  return "; this matters when the grid has more than " + std::to_string(OneWave) + " blocks";
}

bool OcclintCheck::isDeliberateSerialLaunch(const LaunchSite &Site) const {
  if (!IgnoreSingleBlock)
    return false;
  const EvaluatedValue Grid = Site.grid.product();
  return Grid.max && *Grid.max == 1;
}

bool OcclintCheck::blockIsDeliberate(const LaunchSite &Site) const {
  return Site.values.blockSweep || isDeliberateSerialLaunch(Site);
}

bool OcclintCheck::gridIsDeliberate(const LaunchSite &Site) const {
  return Site.values.gridSweep || isDeliberateSerialLaunch(Site);
}

LaunchFindingPrecedence OcclintCheck::precedence(const TranslationUnitFacts &Facts) const {
  return LaunchFindingPrecedence(Facts, [this](StringRef Check) { return TidyContext->isCheckEnabled(Check); });
}

static void recordSuppressed(const LaunchOnTarget &L, const std::string &Check, const MootVerdict &V) {
  L.suppressed.push_back({Check, V.by, V.reason});
}

bool OcclintCheck::isMootOnTarget(const LaunchFindingPrecedence &Table, const LaunchOnTarget &L) const {
  const MootVerdict V = Table.mootOnTarget(CheckName, L);
  if (V)
    recordSuppressed(L, CheckName, V);
  return bool(V);
}

bool OcclintCheck::isMootAtSite(const LaunchFindingPrecedence &Table, const LaunchSite &Site) const {
  const MootVerdict V = Table.mootAtSite(CheckName, Site);
  if (V)
    for (const LaunchOnTarget *L : Table.targetsOf(Site))
      recordSuppressed(*L, CheckName, V);
  return bool(V);
}

// ClangTidyCheck's own get<bool> cannot be used: its explicit specialization
// is compiled by Clang into libclangTidy.a and does not link from GCC-built
// code (the mangled names differ), so the text is parsed here, with the same
// message as clang-tidy's for a bad value.
bool OcclintCheck::boolOption(StringRef LocalName, bool Default, bool Global) {
  const std::string DefaultText = Default ? "true" : "false";
  const std::string Text = (Global ? ClangTidyCheck::Options.getLocalOrGlobal(LocalName, DefaultText)
                                   : ClangTidyCheck::Options.get(LocalName, DefaultText))
                               .str();
  const std::string Lower = StringRef(Text).trim().lower();
  if (Lower == "true" || Lower == "1" || Lower == "on")
    return true;
  if (Lower == "false" || Lower == "0" || Lower == "off")
    return false;
  configurationDiag("invalid configuration value '%0' for option '%1%2'; expected a bool")
      << Text << (Global ? "" : CheckName + ".") << LocalName;
  return Default;
}

// Targets and PtxasLog are meant to be set once, globally; a dumped empty
// per-check value copied into a .clang-tidy would hide the global one
// (getLocalOrGlobal reads the check's own first), so only set values are stored.
void OcclintCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  if (!SharedOptions.targets.empty())
    ClangTidyCheck::Options.store(Opts, "Targets", SharedOptions.targets);
  if (!SharedOptions.ptxasLog.empty())
    ClangTidyCheck::Options.store(Opts, "PtxasLog", SharedOptions.ptxasLog);
  if (!SharedOptions.readCache)
    ClangTidyCheck::Options.store(Opts, "ReadCache", "false");
  if (!IgnoreSingleBlock)
    ClangTidyCheck::Options.store(Opts, "IgnoreSingleBlock", "false");
}

void OcclintCheck::registerMatchers(MatchFinder *Finder) { Finder->addMatcher(translationUnitDecl().bind("tu"), this); }

void OcclintCheck::onStartOfTranslationUnit() {
  TranslationUnitFacts::forgetAll();
  CallerNoLints.reset(); // its cache of NOLINT blocks is per file, and files change (the LSP)
}

void OcclintCheck::onEndOfTranslationUnit() {
  // The kernels' branch-loss estimates, when a divergence check computed them.
  TranslationUnitFacts::sendRecords([](const ASTContext &Ctx, TranslationUnitRecord &Record) {
    const DivergenceResults *Divergence = DivergenceResults::computedFor(Ctx);
    if (!Divergence)
      return;
    for (KernelRecord &K : Record.kernels)
      if (auto It = Divergence->LanesByKernel.find(K.name); It != Divergence->LanesByKernel.end()) {
        K.branchLoss = std::min(It->second.Loss, 1.0);
        K.predictedActiveThreadsPerWarp = predictedActiveThreadsPerWarp(It->second.LanesPerWarp, It->second.Loss);
      }
  });
}

void OcclintCheck::check(const MatchFinder::MatchResult &Result) {
  const TranslationUnitFacts &Facts = TranslationUnitFacts::get(*Result.Context, SharedOptions);
  if (!Facts.targetsError.empty())
    configurationDiag("%0") << Facts.targetsError;
  CurrentContext = Result.Context;
  checkFacts(Facts, *Result.Context);
}

bool OcclintCheck::isSilencedAtCaller(const LaunchSite &Site) const {
  if (Site.values.callChain.empty() || !CurrentContext)
    return false;
  if (!CallerNoLints)
    CallerNoLints = std::make_unique<NoLintDirectiveHandler>();
  const DiagnosticsEngine &Engine = CurrentContext->getDiagnostics();
  const DiagnosticStorage NoArguments{};
  auto SilencedAt = [&](SourceLocation Loc) {
    if (Loc.isInvalid())
      return false;
    // The handler reads only the location (and its macro expansions) and the
    // source manager of the diagnostic it is asked about.
    const Diagnostic AtLoc(&Engine, Loc, /*DiagID=*/0, NoArguments, "");
    SmallVector<tooling::Diagnostic, 1> MalformedNoLints; // clang-tidy itself reports those
    return CallerNoLints->shouldSuppress(DiagnosticsEngine::Warning, AtLoc, CheckName, MalformedNoLints,
                                         /*AllowIO=*/true, /*EnableNoLintBlocks=*/true);
  };
  for (const CallExpr *Call : Site.values.callChain) {
    if (SilencedAt(Call->getBeginLoc()))
      return true;
    for (const Expr *Arg : Call->arguments())
      if (SilencedAt(Arg->getBeginLoc()))
        return true;
  }
  return false;
}

void OcclintCheck::noteDerivation(const std::vector<ValueDerivation> &Steps) {
  for (const ValueDerivation &Step : Steps)
    if (Step.loc.isValid())
      diag(Step.loc, "%0", DiagnosticIDs::Note) << Step.text;
}

void OcclintCheck::noteGridFromCallers(const LaunchOnTarget &L) {
  if (!L.site->values.callChain.empty() && L.site->grid.isExact())
    noteDerivation(L.site->grid.derivation());
}

void OcclintCheck::noteResources(const LaunchOnTarget &L) {
  if (!L.kernel || !L.resources)
    return;
  const KernelResourceFacts &R = *L.resources;
  SourceLocation At = L.kernel->decl->getLocation();
  if (R.report) {
    diag(At, "'%0' uses %1 registers per thread, %2 bytes of static shared memory%3 (%4)", DiagnosticIDs::Note)
        << L.kernel->displayName << R.report->registers << static_cast<unsigned>(R.report->sharedMem)
        << (R.report->spillStores || R.report->spillLoads
                ? llvm::formatv(", {0} bytes spill stores, {1} bytes spill loads", R.report->spillStores,
                                R.report->spillLoads)
                      .str()
                : std::string())
        << R.source;
  } else {
    diag(At, "'%0': registers unknown, %1 bytes of static shared memory declared (%2)", DiagnosticIDs::Note)
        << L.kernel->displayName << static_cast<unsigned>(R.model.staticSharedMem) << R.source;
  }
}

std::string OcclintCheck::occupancySummary(const LaunchOnTarget &L) {
  if (!L.occupancy || !L.shape)
    return "";
  const ::occlint::OccupancyResult &R = *L.occupancy;
  if (R.failure != ::occlint::LaunchFailure::None)
    return "on " + gpuName(*L.gpu) + ": cannot launch: " + R.failureReason;
  const bool Estimate = L.resources && !L.resources->registersKnown();
  std::string Text =
      llvm::formatv("on {0}: {1}{2} block{3} of {4} thread{9} per SM, {5} of {6} warps ({7} "
                    "occupancy), limited by {8}",
                    gpuName(*L.gpu), Estimate ? "at most " : "", R.blocksPerSM, R.blocksPerSM == 1 ? "" : "s",
                    L.shape->threadsPerBlock(), R.activeWarpsPerSM, R.maxWarpsPerSM, percent(R.occupancy),
                    ::occlint::limiterNames(R.bindingLimiters), L.shape->threadsPerBlock() == 1 ? "" : "s")
          .str();
  if (Estimate)
    Text += " (registers unknown)";
  if (L.shape->dynamicSharedMemIsUpperBound)
    Text += llvm::formatv(" (the same for any dynamic shared memory up to the {0} B the launch can be given)",
                          L.shape->dynamicSharedMem)
                .str();
  if (R.waves) {
    const int64_t Grid = *L.shape->gridBlocks;
    const char *Blocks = Grid == 1 ? "block" : "blocks";
    if (*R.waves < 1.0)
      Text += llvm::formatv("; the grid of {0} {1} fills {2} of one wave", Grid, Blocks, percent(*R.waves)).str();
    else
      Text += llvm::formatv("; the grid of {0} {1} runs in {2:F2} waves", Grid, Blocks, *R.waves).str();
  }
  return Text;
}

std::string OcclintCheck::gpuName(const ::occlint::TargetGpu &Gpu) {
  return llvm::formatv("{0} ({1}, {2} SMs)", Gpu.productName, Gpu.arch.name, Gpu.smCount).str();
}

std::string OcclintCheck::percent(double Fraction) { return llvm::formatv("{0:F1}%", 100.0 * Fraction).str(); }

void OcclintCheck::remarkMissingResources(const TranslationUnitFacts &Facts, ASTContext &Ctx, StringRef WhatIsOff) {
  if (runContext().resourceReports || Facts.hasReport || Facts.arch.empty())
    return; // occlint says it itself (source-only mode note, failed compile warning)
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &Kernel : Facts.kernels) {
    const SourceLocation Loc = Kernel->decl->getLocation();
    if (!SM.isInMainFile(SM.getExpansionLoc(Loc)))
      continue;
    StringRef Why = Facts.resourceSource;
    Why.consume_front("estimate: ");
    diag(Loc, "%0 cannot be checked on %1: %2", DiagnosticIDs::Remark) << WhatIsOff << Facts.arch << Why;
    return;
  }
}

} // namespace clang::tidy::occlint
