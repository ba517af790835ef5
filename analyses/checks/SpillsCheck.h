// cuda-occupancy-spills: ptxas reports that a kernel spills registers to local memory; stronger when __launch_bounds__,
// __maxnreg__ or -maxrregcount forced the register count down. docs/checks/cuda-occupancy-spills.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class SpillsCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-occupancy-spills", CheckSeverity::Warning, OnByDefault};
  SpillsCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
