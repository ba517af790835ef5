#include "checks/TinyGridCheck.h"

namespace clang::tidy::occlint {

TinyGridCheck::TinyGridCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), MinIdlePercent(Options.get("MinIdlePercent", 10U)) {}

void TinyGridCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "MinIdlePercent", MinIdlePercent);
}

void TinyGridCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    const EvaluatedValue Grid = L.site->grid.product();
    if (!Grid.max || *Grid.max <= 0 || *Grid.max >= L.gpu->smCount)
      continue; // unknown or unbounded grids are never guessed
    if (isDeliberateSerialLaunch(*L.site))
      continue;
    const int64_t Sms = L.gpu->smCount;
    const int64_t Idle = Sms - *Grid.max; // at least this many (a bounded grid may be smaller)
    // 128 blocks on 132 SMs leave 3 % idle: not worth a change of the grid.
    if (Idle * 100 < int64_t(MinIdlePercent) * Sms)
      continue;
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch: its error is the finding
    if (isSilencedAtCaller(*L.site))
      continue;
    diag(L.site->loc, "grid of %0%1 block%s2 on %3 leaves %4%5 of its %6 SMs idle (%7)")
        << (Grid.isExact() ? "" : "at most ") << static_cast<unsigned>(*Grid.max)
        << static_cast<unsigned>(*Grid.max) << gpuName(*L.gpu) << (Grid.isExact() ? "" : "at least ")
        << static_cast<unsigned>(Idle) << static_cast<unsigned>(Sms) << percent(double(Idle) / double(Sms))
        << L.site->range;
    noteDerivation(L.site->grid.derivation());
  }
}

} // namespace clang::tidy::occlint
