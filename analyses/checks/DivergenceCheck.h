// The base of the cuda-divergence-* checks: the shared per-TU facts (for the
// launches' block shapes) plus the shared divergence analysis, and the notes
// that explain why code is reached by only part of the threads.
#pragma once

#include "checks/OcclintCheck.h"
#include "divergence/DivergenceAnalysis.h"

namespace clang::tidy::occlint {

class DivergenceCheck : public OcclintCheck {
public:
  using OcclintCheck::OcclintCheck;
  void onStartOfTranslationUnit() override;
  /// Records the translation unit's `assert`s: a kernel's assertion of its
  /// block shape is read even where NDEBUG removes it (StatedBlockShape.h).
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP, Preprocessor *ModuleExpanderPP) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) final;
  virtual void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) = 0;

  /// The note at the responsible branch, and one per call on the way.
  void noteContext(const DivergenceContext &C);
  /// ", assuming blockDim.x is a multiple of 32 ..." when the verdict rests on it.
  static std::string assumption(bool Assumed, const std::string &Kernel);
};

/// The base of the checks on barriers and warp collectives
/// (cuda-divergence-barrier, cuda-divergence-warp-sync-mask), with their
/// option ReportExitedThreads (default false): whether threads that have
/// exited the kernel count as threads that miss a barrier, __syncwarp or a
/// vote. Off, as the PTX ISA (a barrier held up only by exited threads is
/// released) and the CUDA guide (the non-exited threads of the mask) have it;
/// a shuffle whose source lane may have exited is reported either way.
class DivergenceCollectiveCheck : public DivergenceCheck {
public:
  DivergenceCollectiveCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  /// The control the collective is reached under, as this check counts the
  /// threads; null when every thread that must arrive does.
  const DivergenceContext *missedUnder(const DivergenceCollective &C) const;

  /// A collective to report and the control it is missed under.
  struct MissedCollective {
    const DivergenceCollective *collective;
    const DivergenceContext *missed;
  };
  /// The barriers (Barriers true) or warp collectives to report, once per
  /// place, with what the kernel's launches make of each (severity earned
  /// by launches): a miss the agreed analysis finds only past a bound
  /// (a warning) is an error where one launch's own block shape and
  /// arguments make it certain (that launch's context, which names it), and
  /// no finding where none of the kernel's launches misses it.
  std::vector<MissedCollective> collectivesToReport(const DivergenceResults &R, bool Barriers) const;

private:
  bool ReportExitedThreads;
};

} // namespace clang::tidy::occlint
