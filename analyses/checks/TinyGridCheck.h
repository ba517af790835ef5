// cuda-launch-tiny-grid: a grid with fewer blocks than the target GPU has SMs leaves SMs idle.
// docs/checks/cuda-launch-tiny-grid.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class TinyGridCheck : public OcclintCheck {
public:
  static FindingLoss launchLoss(const LaunchRecord &L);
  static constexpr CheckDeclaration Declaration{"cuda-launch-tiny-grid", CheckSeverity::Warning, OnByDefault,
                                                LaunchFindingRow::SmallGrid, &launchLoss};
  TinyGridCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  const unsigned MinIdlePercent; // report only when at least this share of the SMs is idle
};

} // namespace clang::tidy::occlint
