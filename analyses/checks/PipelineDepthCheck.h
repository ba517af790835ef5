// cuda-occupancy-pipeline-depth: an async-copy ring whose depth costs more than it buys (a single stage nothing
// overlaps, or one stage more than the estimate says the load needs, at the price of resident blocks).
// docs/checks/cuda-occupancy-pipeline-depth.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class PipelineDepthCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-occupancy-pipeline-depth", CheckSeverity::Warning, OnByDefault,
                                                LaunchFindingRow::Launch};
  PipelineDepthCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  /// Case (b) warns only when the shallower ring covers the load this many
  /// times over by the estimate (gpu/PipelineOverlap.h), in percent.
  const unsigned CoverMarginPercent;
};

} // namespace clang::tidy::occlint
