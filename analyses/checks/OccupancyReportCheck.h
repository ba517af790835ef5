// cuda-occupancy-report: the predicted occupancy of every launch, as a remark (off by default).
// docs/checks/cuda-occupancy-report.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class OccupancyReportCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-occupancy-report", CheckSeverity::Remark, OffByDefault,
                                                LaunchFindingRow::Remark};
  OccupancyReportCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  void notePipeline(const LaunchOnTarget &L);
  static std::string describeOverlap(const AsyncPipelineFacts &P, const LaunchOnTarget &L);
  void reportUnmodelledPipelines(const TranslationUnitFacts &Facts);
};

} // namespace clang::tidy::occlint
