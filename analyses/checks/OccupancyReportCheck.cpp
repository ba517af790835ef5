#include "checks/OccupancyReportCheck.h"

#include "gpu/PipelineOverlap.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

OccupancyReportCheck::OccupancyReportCheck(StringRef Name, ClangTidyContext *Context) : OcclintCheck(Name, Context) {}

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
          << Kernel << gpuName(*L.gpu) << L.site->block.product().describe() << L.site->dynamicSharedMem.describe();
      continue;
    }
    // A one-block grid is taken as a deliberate serial step (a final pass,
    // a scalar update): its cost is not the lanes it masks nor the SMs it
    // leaves idle, so no warning judges it; the remark says so.
    const char *Serial = isDeliberateSerialLaunch(*L.site)
                             ? "; one block: taken as a deliberate serial step, so no launch or occupancy "
                               "warning judges it (IgnoreSingleBlock)"
                             : "";
    diag(L.site->loc, "predicted occupancy of '%0' %1%2", DiagnosticIDs::Remark)
        << Kernel << occupancySummary(L) << Serial;
    noteResources(L);
    notePipeline(L);
  }
  reportUnmodelledPipelines(Facts);
}

// The ring's depth and the staircase over it (pipelines/AsyncPipeline.h,
// gpu/PipelineStaircase.h), on the launch's remark.
void OccupancyReportCheck::notePipeline(const LaunchOnTarget &L) {
  const std::optional<AsyncPipelineFacts> &P = L.kernel->pipeline;
  if (!P || L.pipelineDepths.empty())
    return;
  std::string Forms;
  for (AsyncCopyForm Form : P->forms)
    Forms += (Forms.empty() ? "" : ", ") + std::string(asyncCopyFormName(Form));
  diag(P->firstCopy,
       "async-copy pipeline (%0): %1 %plural{1:stage|:stages}1 of %2 bytes in %3; blocks per SM by stages on %4: "
       "%5; %6",
       DiagnosticIDs::Note)
      << Forms << *P->stages << static_cast<unsigned>(P->bytesPerStage) << P->stagesFrom << gpuName(*L.gpu)
      << ::occlint::describeStaircase(L.pipelineDepths) << describeOverlap(*P, L);
}

// The overlap estimate at the ring's depth (gpu/PipelineOverlap.h), or why
// there is none.
std::string OccupancyReportCheck::describeOverlap(const AsyncPipelineFacts &P, const LaunchOnTarget &L) {
  auto Time = [](double Ns) { return llvm::formatv("{0:F0} ns", Ns).str(); };
  const auto &D = L.pipelineDepths;
  const int S = *P.stages;
  if (const std::optional<::occlint::TileTimes> At =
          S <= int(D.size()) ? ::occlint::estimateAt(D[S - 1]) : std::nullopt) {
    const int Covering = ::occlint::firstCoveringDepth(D);
    return llvm::formatv("overlap estimate at {0} {1}: load {2}, compute {3} per tile and SM ({4} bounds), memory "
                         "latency {5}; {6}",
                         S, S == 1 ? "stage" : "stages", Time(At->loadNs), Time(At->computeNs),
                         At->computeBound() ? "compute" : "load", Time(At->latencyNs),
                         Covering ? llvm::formatv("{0} stages cover the load", Covering).str()
                                  : std::string("no depth that fits covers the load"))
        .str();
  }
  if (!P.loopWork.workUnknown.empty())
    return "no overlap estimate: " + P.loopWork.workUnknown;
  if (!L.gpu->throughput)
    return "no overlap estimate: no datasheet rates for " + L.gpu->productName + " in the GPU database";
  return "no overlap estimate: the ring's depth does not fit this launch";
}

// A kernel whose async copies are recognised but whose ring is not read (its
// depth or stage size unknown), or whose hazards are not checked (a form or
// a step the hazard run does not model: TMA's mbarrier completion): said
// once, never guessed.
void OccupancyReportCheck::reportUnmodelledPipelines(const TranslationUnitFacts &Facts) {
  for (const auto &Kernel : Facts.kernels) {
    const std::optional<AsyncPipelineFacts> &P = Kernel->pipeline;
    if (!P)
      continue;
    if (!P->stages || P->bytesPerStage <= 0) {
      diag(P->firstCopy, "async copies of '%0' are not modelled: %1", DiagnosticIDs::Remark)
          << Kernel->displayName << P->stagesUnknown;
    } else if (!P->hazardsNotModelled.empty()) {
      diag(P->firstCopy, "async-copy hazards of '%0' are not checked: %1", DiagnosticIDs::Remark)
          << Kernel->displayName << P->hazardsNotModelled;
    }
  }
}

} // namespace clang::tidy::occlint
