// cuda-launch-tail-wave: the last wave of a grid is partial and costs a large share of the runtime.
// docs/checks/cuda-launch-tail-wave.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class TailWaveCheck : public OcclintCheck {
public:
  static FindingLoss launchLoss(const LaunchRecord &L);
  static constexpr CheckDeclaration Declaration{"cuda-launch-tail-wave", CheckSeverity::Warning, OnByDefault,
                                                LaunchFindingRow::PerSM, &launchLoss};
  TailWaveCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  const unsigned ThresholdPercent; // report when the partial wave may cost at least this share
};

} // namespace clang::tidy::occlint
