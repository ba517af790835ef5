// The base of every cuda-* check that works on the shared translation-unit
// facts: it matches the translation unit once, fetches the facts (computed by
// the first check that asks) and hands them to checkFacts(). Options common
// to all checks, read with getLocalOrGlobal so one global setting serves all:
//   Targets   GPUs to analyse for ("H100,A100", "sm_90:132"); empty: the
//             default product of the arch being parsed
//   PtxasLog  ptxas -v logs to read kernel resources from, used when the
//             checks run inside clang-tidy (occlint itself compiles or reads
//             --ptxas-log)
//   ReadCache inside clang-tidy without PtxasLog: read the latest ptxas
//             report occlint's cache holds for the file (default true)
//   IgnoreSingleBlock  a grid of one block is a deliberate serial launch:
//             the launch and occupancy checks other than invalid-config say
//             nothing about it (default true; docs/launch-analysis.md)
#pragma once

#include "checks/CheckDeclaration.h"
#include "checks/LaunchFindingPrecedence.h"
#include "facts/TranslationUnitFacts.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/NoLintDirectiveHandler.h"

#include <memory>

namespace clang::tidy::occlint {

class OcclintCheck : public ClangTidyCheck {
public:
  OcclintCheck(StringRef Name, ClangTidyContext *Context);

  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override { return LangOpts.CUDA; }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  /// Defines __NVCC__ in the project's own files of an nvcc build
  /// (NvccMacroInOwnFiles.h); an override must call this.
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP, Preprocessor *ModuleExpanderPP) override;
  /// Sends the facts' records (with the findings the checks suppressed) once
  /// every check has run: MatchFinder calls this for every check after the
  /// whole translation unit was matched.
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// A true/false option (also 1/0, on/off); another value is a
  /// configuration error naming the option, and the default is used.
  /// `Global`: read with getLocalOrGlobal.
  bool boolOption(StringRef LocalName, bool Default, bool Global = false);

  virtual void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) = 0;

  /// A grid of exactly one block (or at most one) while IgnoreSingleBlock is
  /// on: a scalar update, a flag, a final reduction pass; its block size,
  /// occupancy and waves do not matter.
  bool isDeliberateSerialLaunch(const LaunchSite &Site) const;
  /// Whether the check should leave the launch's block (grid) unjudged: a
  /// deliberate serial launch, or a variant whose block (grid) is one
  /// element of an array a loop walks (a benchmark trying each block size in
  /// turn, LaunchSites.h values.blockSweep): each element is chosen on
  /// purpose, and a finding for the worst of them is not worth acting on. A
  /// grid computed from a swept block is swept too.
  bool blockIsDeliberate(const LaunchSite &Site) const;
  bool gridIsDeliberate(const LaunchSite &Site) const;

  /// The precedence table for this run: which checks are enabled decides
  /// which rows apply (LaunchFindingPrecedence.h).
  LaunchFindingPrecedence precedence(const TranslationUnitFacts &Facts) const;
  /// True when the table makes this check's finding on the launch moot; the
  /// finding is then recorded on the launch as suppressed. Asked only once the
  /// check knows it has a finding there.
  bool isMootOnTarget(const LaunchFindingPrecedence &Table, const LaunchOnTarget &L) const;
  /// The same for a finding reported once per launch site, recorded on each
  /// of the site's launches on targets.
  bool isMootAtSite(const LaunchFindingPrecedence &Table, const LaunchSite &Site) const;

  /// A variant reached through helper calls (LaunchSite::values.callChain)
  /// that a NOLINT for this check silences at one of those calls: on the
  /// line of the call or of one of its arguments, NOLINTNEXTLINE above it, or
  /// a NOLINTBEGIN/END block around it, read by clang-tidy's own
  /// NoLintDirectiveHandler. The finding is for the values that caller
  /// passes, so the caller is where a user says it is deliberate. As at the
  /// launch itself, an error is never silenced.
  bool isSilencedAtCaller(const LaunchSite &Site) const;

  /// One note per derivation step of a value ("'threads' is defined here as 256").
  void noteDerivation(const std::vector<ValueDerivation> &Steps);
  /// Where a grid its callers give comes from ("'run' is called here with
  /// 'n' = 784"), for a finding the grid's size decides; nothing for a grid
  /// the launch's own function gives.
  void noteGridFromCallers(const LaunchOnTarget &L);
  /// "ptxas, sm_90: 130 registers, ..." at the kernel, or the estimate's reason.
  void noteResources(const LaunchOnTarget &L);
  /// Inside clang-tidy (no occlint binary behind the checks) a check that
  /// needs ptxas data says, once per file, when there is none for it: a
  /// remark at the first kernel of the main file: "spills cannot be checked
  /// on sm_90: no ptxas report (...)".
  void remarkMissingResources(const TranslationUnitFacts &Facts, ASTContext &Ctx, StringRef WhatIsOff);
  /// The predicted occupancy of a launch on its target: "on H100 (sm_90,
  /// 132 SMs): 8 blocks of 256 threads per SM, 64 of 64 warps (100.0%
  /// occupancy), limited by warps; 1.2 waves".
  static std::string occupancySummary(const LaunchOnTarget &L);
  /// "H100 (sm_90, 132 SMs)".
  static std::string gpuName(const ::occlint::TargetGpu &Gpu);
  /// "1.5%" style, one decimal.
  static std::string percent(double Fraction);
  /// A finding that more blocks per SM would help matters only for a grid
  /// larger than one wave at the launch's BlocksPerSM (SMs x BlocksPerSM
  /// blocks all resident at once): nullopt when the grid is known to fit one
  /// wave (no finding), "" when it is known to be larger, and the condition
  /// ("; this matters when the grid has more than 432 blocks") when its size
  /// is not known.
  static std::optional<std::string> gridBeyondOneWave(const LaunchOnTarget &L, int BlocksPerSM);

private:
  ClangTidyContext *TidyContext;
  ASTContext *CurrentContext = nullptr;                          // of the translation unit being checked
  mutable std::unique_ptr<NoLintDirectiveHandler> CallerNoLints; // per translation unit
  std::string CheckName;
  FactsOptions SharedOptions;
  bool IgnoreSingleBlock;
};

} // namespace clang::tidy::occlint
