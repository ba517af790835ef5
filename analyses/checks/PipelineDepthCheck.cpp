#include "checks/PipelineDepthCheck.h"

#include "gpu/PipelineOverlap.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

PipelineDepthCheck::PipelineDepthCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), CoverMarginPercent(Options.get("CoverMarginPercent", 200U)) {}

void PipelineDepthCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "CoverMarginPercent", CoverMarginPercent);
}

namespace {

std::string nanoseconds(double Ns) {
  return Ns >= 10000 ? llvm::formatv("{0:F1} us", Ns / 1000).str() : llvm::formatv("{0:F0} ns", Ns).str();
}

// Case (a), exact: one stage, every copy waited for before any work (nothing
// overlaps the load), and a second stage costs no resident block.
bool secondStageIsFree(const AsyncPipelineFacts &P, const std::vector<::occlint::PipelineDepthPoint> &D) {
  const PipelineLoopWork &W = P.loopWork;
  if (*P.stages != 1 || !W.nothingOverlaps || (W.trips && *W.trips <= 1) || D.size() < 2)
    return false;
  return D[0].fits && D[1].fits && D[0].blocksPerSM > 0 && D[1].blocksPerSM == D[0].blocksPerSM;
}

} // namespace

// The ring's depth against the staircase (gpu/PipelineStaircase.h) and the
// overlap estimate (gpu/PipelineOverlap.h). Case (b) never fires where the
// estimate cannot say (no datasheet rates, the tile's work not counted) or
// says the depth is needed: a deep, low-occupancy ring is not a defect.
void PipelineDepthCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &) {
  const LaunchFindingPrecedence Table = precedence(Facts);
  const double Margin = CoverMarginPercent / 100.0;
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (!L.kernel || !L.kernel->pipeline || !L.kernel->pipeline->stages || L.pipelineDepths.empty())
      continue;
    const AsyncPipelineFacts &P = *L.kernel->pipeline;
    if (isDeliberateSerialLaunch(*L.site))
      continue;
    const std::vector<::occlint::PipelineDepthPoint> &D = L.pipelineDepths;
    const int S = *P.stages;
    if (secondStageIsFree(P, D)) {
      if (isMootOnTarget(Table, L) || isSilencedAtCaller(*L.site))
        continue;
      diag(L.site->loc, "'%0' waits for each async copy before it computes: with 1 stage of %1 bytes nothing "
                        "overlaps the load, and a second stage fits on %2 without losing a resident block (%3 "
                        "per SM at 1 and at 2 stages)")
          << L.kernel->displayName << static_cast<unsigned>(P.bytesPerStage) << gpuName(*L.gpu)
          << static_cast<unsigned>(D[0].blocksPerSM) << L.site->range;
      diag(P.firstCopy,
           "the copy into the single stage; fix: copy the next tile into a second stage before "
           "computing on this one, and wait for it one tile later",
           DiagnosticIDs::Note);
      continue;
    }
    // Case (b): one stage fewer gives more blocks per SM, and by the estimate
    // still covers the load with the margin.
    // Which depth gives more blocks is exact only with the kernel's real
    // registers (a ptxas report): registers could bind at both depths.
    // A ring in dynamic shared memory: the launch's amount may also hold data
    // that reuses the ring's space (an epilogue tile), so fewer stages need
    // not free what the staircase says.
    if (S < 3 || int(D.size()) < S || !L.resources || !L.resources->registersKnown() || P.ringInDynamicSharedMemory)
      continue;
    const ::occlint::PipelineDepthPoint &At = D[S - 1], &Fewer = D[S - 2];
    const std::optional<::occlint::TileTimes> Estimate = ::occlint::estimateAt(Fewer);
    if (!At.fits || !Fewer.fits || Fewer.blocksPerSM <= At.blocksPerSM || !Estimate)
      continue;
    const ::occlint::TileTimes &Times = *Estimate;
    if (!::occlint::ringCoversLoad(Times, S - 1, Margin))
      continue;
    // More blocks per SM help only a grid larger than one wave at this depth.
    const std::optional<std::string> Condition = gridBeyondOneWave(L, At.blocksPerSM);
    if (!Condition)
      continue;
    if (isMootOnTarget(Table, L) || isSilencedAtCaller(*L.site))
      continue;
    const double Covered = (S - 2) * Times.tileNs() / (Times.latencyNs + Times.loadNs);
    // (Clang's diagnostics take at most ten arguments: the times go as one.)
    const std::string Bound = llvm::formatv("{0} bounds the tile: load {1}, compute {2} per tile and SM",
                                            Times.computeBound() ? "compute" : "the load", nanoseconds(Times.loadNs),
                                            nanoseconds(Times.computeNs))
                                  .str();
    diag(L.site->loc, "'%0' keeps %1 stages of %2 bytes, and %3 stages give %4 blocks per SM instead of %5 on %6; "
                      "by the estimate %3 stages already cover the load %7x over (%8)%9")
        << L.kernel->displayName << static_cast<unsigned>(S) << static_cast<unsigned>(P.bytesPerStage)
        << static_cast<unsigned>(S - 1) << static_cast<unsigned>(Fewer.blocksPerSM)
        << static_cast<unsigned>(At.blocksPerSM) << gpuName(*L.gpu) << llvm::formatv("{0:F1}", Covered).str() << Bound
        << *Condition << L.site->range;
    diag(P.firstCopy,
         "the ring's copies; the estimate counts %0 per tile, with datasheet rates and a %1 memory "
         "latency (docs/async-pipelines.md)",
         DiagnosticIDs::Note)
        << (P.loopWork.tensorFlopsPerWarp && *P.loopWork.tensorFlopsPerWarp > 0
                ? llvm::formatv("{0:F0} tensor FLOPs per warp and {1:F0} FP operations per thread",
                                *P.loopWork.tensorFlopsPerWarp, *P.loopWork.fpOpsPerThread)
                      .str()
                : llvm::formatv("{0:F0} FP operations per thread", *P.loopWork.fpOpsPerThread).str())
        << nanoseconds(Times.latencyNs);
  }
}

} // namespace clang::tidy::occlint
