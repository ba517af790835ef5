// Everything the cuda-* checks know about one translation unit, computed once
// and shared by all of them: the kernels, the launches with their evaluated
// configuration, each kernel's resources for the arch of this parse (ptxas
// report, or an estimate from the source), and the predicted occupancy of
// each launch on each target GPU.
//
// Every check asks for the facts with TranslationUnitFacts::get(); the first
// request of a translation unit computes them, the others reuse them. The
// cache is emptied at the start of every translation unit (OcclintCheck does
// it in onStartOfTranslationUnit).
#pragma once

#include "facts/FactsRecords.h"
#include "facts/KernelFacts.h"
#include "facts/LaunchSites.h"
#include "gpu/Occupancy.h"
#include "gpu/PipelineStaircase.h"
#include "gpu/PtxasReport.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// A kernel's resources on the arch of this parse.
struct KernelResourceFacts {
  ::occlint::KernelResources model;                     // what the occupancy engine gets
  const ::occlint::FunctionResources *report = nullptr; // null: estimated from the source
  /// "ptxas, sm_90" (with the report) or why there is none: "estimate: no CUDA toolkit".
  std::string source;
  bool registersKnown() const { return report != nullptr; }
};

/// One launch on one target GPU.
struct LaunchOnTarget {
  const LaunchSite *site = nullptr;
  const KernelInfo *kernel = nullptr; // null when the kernel is not resolvable
  const ::occlint::TargetGpu *gpu = nullptr;
  const KernelResourceFacts *resources = nullptr; // null when kernel is null
  /// Filled when the block size is exact and the kernel is known, and the
  /// dynamic shared memory is exact or a runtime amount that cannot change
  /// the blocks per SM (shape->dynamicSharedMemIsUpperBound); with estimated
  /// resources (registers unknown, taken as 0) the occupancy is an upper bound.
  std::optional<::occlint::LaunchShape> shape;
  std::optional<::occlint::OccupancyResult> occupancy;
  /// The findings the checks left out on this launch as moot
  /// (checks/LaunchFindingPrecedence.h). The one part of the facts the checks
  /// write, as they run; it reaches the record sent at the end of the
  /// translation unit.
  mutable std::vector<SuppressedFinding> suppressed;
  /// For a kernel with an async-copy ring of known depth and stage size
  /// (KernelInfo::pipeline), the blocks per SM at each depth with this
  /// launch's block and the kernel's registers (gpu/PipelineStaircase.h).
  std::vector<::occlint::PipelineDepthPoint> pipelineDepths;
};

struct FactsOptions {
  std::string targets;   // the global `Targets` check option
  std::string ptxasLog;  // the global `PtxasLog` check option (used when occlint installed no source)
  bool readCache = true; // the global `ReadCache` option: without PtxasLog, read occlint's cache
};

class CallSiteIndex;

class TranslationUnitFacts {
public:
  static const TranslationUnitFacts &get(ASTContext &Ctx, const FactsOptions &Options);
  /// Drops the facts of the previous translation unit.
  static void forgetAll();
  /// Hands the installed FactsRecordSink the record of each facts of this
  /// translation unit not sent yet. Called when every check has run
  /// (OcclintCheck::onEndOfTranslationUnit), so that the records carry the
  /// findings the checks suppressed.
  /// `Amend`, when given, completes each record before it is sent (the
  /// divergence analysis's per-kernel estimates: OcclintCheck).
  static void sendRecords(llvm::function_ref<void(const ASTContext &, TranslationUnitRecord &)> Amend = nullptr);

  std::string arch;                          // "sm_90"; "" when the parse has no device target
  std::vector<::occlint::TargetGpu> targets; // the GPUs analysed on this pass
  std::string targetsError;                  // a bad name in Targets
  std::string resourceSource;                // where the report came from / why there is none
  std::string resourceOrigin;                // ResourceReportLookup::origin ("from the build")
  bool hasReport = false;                    // a ptxas report (of any kernel) for this parse
  std::optional<int> maxRegisterCount;       // -maxrregcount of the compile command, when known
  std::vector<std::unique_ptr<KernelInfo>> kernels;
  std::vector<LaunchSite> launches;
  std::vector<LaunchOnTarget> launchesOnTargets; // launches x targets, in source order

  const KernelInfo *kernelFor(const FunctionDecl *Kernel) const;
  const KernelResourceFacts *resourcesFor(const KernelInfo &Kernel) const;
  /// A copy without AST pointers, for the installed FactsRecordSink.
  TranslationUnitRecord toRecord(const ASTContext &Ctx) const;

private:
  // kernelFor's index by canonical declaration, caught up with `kernels` on
  // use (thousands of launches of thousands of kernels in one file).
  mutable llvm::DenseMap<const FunctionDecl *, const KernelInfo *> KernelsByDecl;
  mutable size_t KernelsIndexed = 0;
  /// Kernels and launches, in one walk that also fills `Calls` (the callers
  /// a launch's variants are read through).
  void collect(ASTContext &Ctx, CallSiteIndex &Calls);
  void joinResources(ASTContext &Ctx, const FactsOptions &Options);
  /// Launches whose values depend on the GPU, evaluated again per target
  /// (device properties, the occupancy API with the kernels' resources).
  void evaluatePerTarget(ASTContext &Ctx, CallSiteIndex &Calls);
  /// A one-stage ring of no declared size gets its bytes from its launches.
  void sizeOneStageRings(ASTContext &Ctx);
  void predictOccupancy();
  void findCertainPipelineHazards(ASTContext &Ctx);

  std::shared_ptr<const ::occlint::PtxasReport> Report; // keeps a log-file report alive
  const ::occlint::PtxasReport *ReportView = nullptr;
  std::map<const KernelInfo *, KernelResourceFacts> Resources;
};

} // namespace clang::tidy::occlint
