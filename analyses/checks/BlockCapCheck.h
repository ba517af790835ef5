// cuda-occupancy-block-cap: the blocks-per-SM cap binds before the warp limit (tiny blocks), so warp slots stay empty.
// docs/checks/cuda-occupancy-block-cap.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class BlockCapCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-occupancy-block-cap", CheckSeverity::Warning, OnByDefault,
                                                LaunchFindingRow::PerSM, &occupancyOnlyLoss};
  BlockCapCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
