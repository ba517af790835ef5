// The base of the cuda-divergence-* checks: the shared per-TU facts (for the
// launches' block shapes) plus the shared divergence analysis, and the notes
// that explain why code is reached by only part of the threads.
#pragma once

#include "divergence/DivergenceAnalysis.h"
#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class DivergenceCheck : public OcclintCheck {
public:
  using OcclintCheck::OcclintCheck;
  void onStartOfTranslationUnit() override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) final;
  virtual void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) = 0;

  /// The note at the responsible branch, and one per call on the way.
  void noteContext(const DivergenceContext &C);
  /// ", assuming blockDim.x is a multiple of 32 ..." when the verdict rests on it.
  static std::string assumption(bool Assumed, const std::string &Kernel);
};

} // namespace clang::tidy::occlint
