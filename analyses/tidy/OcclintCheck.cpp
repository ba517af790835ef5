#include "OcclintCheck.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/FormatVariadic.h"

using namespace clang::ast_matchers;

namespace clang::tidy::occlint {

OcclintCheck::OcclintCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context) {
  SharedOptions.targets = ClangTidyCheck::Options.getLocalOrGlobal("Targets", "");
  SharedOptions.ptxasLog = ClangTidyCheck::Options.getLocalOrGlobal("PtxasLog", "");
}

void OcclintCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  ClangTidyCheck::Options.store(Opts, "Targets", SharedOptions.targets);
  ClangTidyCheck::Options.store(Opts, "PtxasLog", SharedOptions.ptxasLog);
}

void OcclintCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(translationUnitDecl().bind("tu"), this);
}

void OcclintCheck::onStartOfTranslationUnit() { TranslationUnitFacts::forgetAll(); }

void OcclintCheck::check(const MatchFinder::MatchResult &Result) {
  const TranslationUnitFacts &Facts = TranslationUnitFacts::get(*Result.Context, SharedOptions);
  if (!Facts.targetsError.empty())
    configurationDiag("%0") << Facts.targetsError;
  checkFacts(Facts, *Result.Context);
}

void OcclintCheck::noteDerivation(const std::vector<ValueDerivation> &Steps) {
  for (const ValueDerivation &Step : Steps)
    if (Step.loc.isValid())
      diag(Step.loc, "%0", DiagnosticIDs::Note) << Step.text;
}

void OcclintCheck::noteResources(const LaunchOnTarget &L) {
  if (!L.kernel || !L.resources)
    return;
  const KernelResourceFacts &R = *L.resources;
  SourceLocation At = L.kernel->decl->getLocation();
  if (R.report) {
    diag(At, "'%0' uses %1 registers per thread, %2 bytes of static shared memory%3 (%4)",
         DiagnosticIDs::Note)
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
  std::string Text = llvm::formatv("on {0}: {1}{2} block{3} of {4} thread{9} per SM, {5} of {6} warps ({7} "
                                   "occupancy), limited by {8}",
                                   gpuName(*L.gpu), Estimate ? "at most " : "", R.blocksPerSM,
                                   R.blocksPerSM == 1 ? "" : "s", L.shape->threadsPerBlock(),
                                   R.activeWarpsPerSM, R.maxWarpsPerSM, percent(R.occupancy),
                                   ::occlint::limiterNames(R.bindingLimiters),
                                   L.shape->threadsPerBlock() == 1 ? "" : "s")
                         .str();
  if (Estimate)
    Text += " (registers unknown)";
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

void OcclintCheck::noteOccupancy(const LaunchOnTarget &L) {
  const std::string Text = occupancySummary(L);
  if (!Text.empty())
    diag(L.site->loc, "%0", DiagnosticIDs::Note) << Text;
}

std::string OcclintCheck::gpuName(const ::occlint::TargetGpu &Gpu) {
  return llvm::formatv("{0} ({1}, {2} SMs)", Gpu.productName, Gpu.arch.name, Gpu.smCount).str();
}

std::string OcclintCheck::percent(double Fraction) { return llvm::formatv("{0:F1}%", 100.0 * Fraction).str(); }

} // namespace clang::tidy::occlint
