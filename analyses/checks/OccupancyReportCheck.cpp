#include "checks/OccupancyReportCheck.h"

namespace clang::tidy::occlint {

OccupancyReportCheck::OccupancyReportCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context) {}

void OccupancyReportCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

void OccupancyReportCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch: its error says why it cannot start
    if (isSilencedAtCaller(*L.site))
      continue;
    const std::string Kernel = L.kernel ? L.kernel->displayName : "kernel";
    if (!L.kernel) {
      diag(L.site->loc, "predicted occupancy on %0: unknown (the launched kernel is not known here)",
           DiagnosticIDs::Remark)
          << gpuName(*L.gpu);
      continue;
    }
    if (!L.occupancy) {
      diag(L.site->loc, "predicted occupancy of '%0' on %1: unknown (block %2, dynamic shared memory %3)",
           DiagnosticIDs::Remark)
          << Kernel << gpuName(*L.gpu) << L.site->block.product().describe()
          << L.site->dynamicSharedMem.describe();
      continue;
    }
    diag(L.site->loc, "predicted occupancy of '%0' %1", DiagnosticIDs::Remark) << Kernel << occupancySummary(L);
    noteResources(L);
  }
}

} // namespace clang::tidy::occlint
