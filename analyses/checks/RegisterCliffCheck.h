// cuda-occupancy-register-cliff: the kernel's register count sits just past a step of the register staircase: a few
// registers fewer would fit more blocks per SM. docs/checks/cuda-occupancy-register-cliff.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class RegisterCliffCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-occupancy-register-cliff", CheckSeverity::Warning, OnByDefault,
                                                LaunchFindingRow::PerSM, &occupancyOnlyLoss};
  RegisterCliffCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  const unsigned Margin;         // report when at most this many registers fewer reach the next step
  const unsigned MinGainPercent; // ... and that step raises the resident warps by at least this share
};

} // namespace clang::tidy::occlint
