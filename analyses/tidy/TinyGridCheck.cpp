#include "TinyGridCheck.h"

namespace clang::tidy::occlint {

// ClangTidyCheck's bool option accessors are explicit specializations whose
// mangled names differ between GCC (which builds occlint) and Clang (which
// built libclangTidy.a), so a bool is read as text, with clang-tidy's spellings.
static std::optional<bool> parseBool(llvm::StringRef Text) {
  const std::string Lower = Text.trim().lower();
  if (Lower == "true" || Lower == "1" || Lower == "on")
    return true;
  if (Lower == "false" || Lower == "0" || Lower == "off")
    return false;
  return std::nullopt;
}

TinyGridCheck::TinyGridCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), IgnoreSingleBlock(true) {
  const std::string Text = Options.get("IgnoreSingleBlock", "true").str();
  if (std::optional<bool> Value = parseBool(Text))
    IgnoreSingleBlock = *Value;
  else
    configurationDiag("invalid configuration value '%0' for option '%1.IgnoreSingleBlock'; expected a bool")
        << Text << Name;
}

void TinyGridCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "IgnoreSingleBlock", IgnoreSingleBlock ? "true" : "false");
}

void TinyGridCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    const EvaluatedValue Grid = L.site->grid.product();
    if (!Grid.max || *Grid.max <= 0 || *Grid.max >= L.gpu->smCount)
      continue; // unknown or unbounded grids are never guessed
    if (IgnoreSingleBlock && *Grid.max == 1)
      continue;
    const int64_t Sms = L.gpu->smCount;
    const int64_t Idle = Sms - *Grid.max;
    diag(L.site->loc, "grid of %0%1 block%s2 on %3 leaves %4%5 of its %6 SMs idle (%7)")
        << (Grid.isExact() ? "" : "at most ") << static_cast<unsigned>(*Grid.max)
        << static_cast<unsigned>(*Grid.max) << gpuName(*L.gpu) << (Grid.isExact() ? "" : "at least ")
        << static_cast<unsigned>(Idle) << static_cast<unsigned>(Sms) << percent(double(Idle) / double(Sms))
        << L.site->range;
    noteDerivation(L.site->grid.derivation());
  }
}

} // namespace clang::tidy::occlint
