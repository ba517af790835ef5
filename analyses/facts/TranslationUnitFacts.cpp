#include "facts/TranslationUnitFacts.h"

#include "gpu/PipelineOverlap.h"

#include "ast/InstantiatedFunctionVisitor.h"
#include "facts/CallSites.h"
#include "facts/FactsRecords.h"
#include "facts/FunctionExtents.h"
#include "facts/LaunchVariants.h"
#include "facts/RunContext.h"
#include "facts/TargetSelection.h"
#include "gpu/OccupancyUnknownSharedMemory.h"
#include "pipelines/AsyncPipelineOffsets.h"
#include "toolchain/ResourceCompiler.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace clang::tidy::occlint {

namespace {

// Walks every function body of the translation unit once: kernels, launches
// (their variants read after the walk, when every caller is known), opt-ins,
// and every call for the call index.
class FactsCollector : public InstantiatedFunctionVisitor {
public:
  FactsCollector(ASTContext &Ctx, TranslationUnitFacts &Facts, CallSiteIndex &Calls)
      : Ctx(Ctx), Facts(Facts), Values(Ctx), Calls(Calls) {}

  void enterFunction(const FunctionDecl &FD) override {
    if (FD.hasAttr<CUDAGlobalAttr>() && FD.doesThisDeclarationHaveABody() && Seen.insert(&FD).second)
      Facts.kernels.push_back(std::make_unique<KernelInfo>(describeKernel(FD, Ctx, Values)));
  }

  bool visitStmt(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      visitCall(*Call);
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      visitReference(*Ref);
    return true;
  }

  /// After the walk: each launch's variants, in source order.
  void expandLaunches() {
    Calls.seal();
    for (const LaunchSite &Site : Launches)
      for (LaunchSite &Variant : launchVariants(Site, Values, Calls))
        Facts.launches.push_back(std::move(Variant));
  }

  std::vector<DynamicSharedMemOptin> Optins;

private:
  void visitCall(const CallExpr &Call) {
    Calls.noteCall(Call, currentFunction());
    if (!currentFunction() || Call.isValueDependent() || Call.isTypeDependent())
      return;
    if (std::optional<LaunchSite> Site = recognizeLaunch(Call, currentFunction(), Ctx, Values))
      Launches.push_back(std::move(*Site));
    else if (std::optional<DynamicSharedMemOptin> Optin = recognizeOptin(Call, Ctx, Values))
      Optins.push_back(std::move(*Optin));
  }

  void visitReference(const DeclRefExpr &Ref) {
    Calls.noteFunctionReference(Ref);
    Calls.noteParameterReference(Ref);
  }

  ASTContext &Ctx;
  TranslationUnitFacts &Facts;
  ValueEvaluator Values;
  CallSiteIndex &Calls;
  std::vector<LaunchSite> Launches; // as recognized, values not read yet
  llvm::SmallPtrSet<const FunctionDecl *, 32> Seen;
};

struct CacheEntry {
  const ASTContext *context;
  std::string key;
  std::unique_ptr<TranslationUnitFacts> facts;
  bool recordSent = false;
};

// One cache per thread: occlint --jobs parses several translation units at once.
std::vector<CacheEntry> &cache() {
  thread_local std::vector<CacheEntry> Entries;
  return Entries;
}

// Log files named by the PtxasLog option, parsed once per process.
std::shared_ptr<const ::occlint::PtxasReport> reportFromLogFiles(llvm::StringRef Files, std::string &Source) {
  static std::mutex Lock;
  static std::map<std::string, std::shared_ptr<const ::occlint::PtxasReport>> Parsed;
  std::lock_guard<std::mutex> Guard(Lock);
  auto &Slot = Parsed[Files.str()];
  Source = "ptxas log";
  if (Slot)
    return Slot;
  auto Merged = std::make_shared<::occlint::PtxasReport>();
  for (llvm::StringRef Path : splitOptionList(Files)) {
    auto Text = llvm::MemoryBuffer::getFile(Path);
    if (!Text) {
      Source = "estimate: cannot read PtxasLog file '" + Path.str() + "'";
      return nullptr;
    }
    Merged->merge(::occlint::parsePtxasLog((*Text)->getBuffer().str()));
  }
  Slot = Merged;
  return Slot;
}

// Inside clang-tidy: the latest report occlint's cache holds for this file
// and arch (ResourceCompiler's latestReportKey), if its source and headers
// are unchanged since.
std::shared_ptr<const ::occlint::PtxasReport> reportFromCache(ASTContext &Ctx, const std::string &Arch,
                                                              std::string &Source) {
  const SourceManager &SM = Ctx.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main) {
    Source = "estimate: no ptxas report (set the PtxasLog option or run occlint)";
    return nullptr;
  }
  llvm::SmallString<256> Path(Main->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  std::optional<std::string> Log = ::occlint::latestCachedPtxasLog(std::string(Path), Arch);
  if (!Log) {
    Source = "estimate: no ptxas report (occlint's cache has none that is current for this file on " + Arch +
             "; run occlint on it once, or set the PtxasLog option)";
    return nullptr;
  }
  Source = "ptxas, " + Arch + ", from occlint's cache";
  return std::make_shared<const ::occlint::PtxasReport>(::occlint::parsePtxasLog(*Log));
}

} // namespace

const TranslationUnitFacts &TranslationUnitFacts::get(ASTContext &Ctx, const FactsOptions &Options) {
  const std::string Arch = deviceArchOf(Ctx);
  const std::string Key = Arch + '\n' + Options.targets + '\n' + Options.ptxasLog;
  for (const CacheEntry &Entry : cache())
    if (Entry.context == &Ctx && Entry.key == Key)
      return *Entry.facts;
  auto Facts = std::make_unique<TranslationUnitFacts>();
  Facts->arch = Arch;
  TargetSelection Selection = selectTargets(Options.targets, Facts->arch);
  Facts->targets = std::move(Selection.gpus);
  Facts->targetsError = std::move(Selection.error);
  CallSiteIndex Calls(Ctx);
  Facts->collect(Ctx, Calls);
  Facts->joinResources(Ctx, Options);
  Facts->evaluatePerTarget(Ctx, Calls);
  Facts->sizeOneStageRings(Ctx);
  Facts->predictOccupancy();
  Facts->findCertainPipelineHazards(Ctx);
  // A parse with errors: where its functions are, so that occlint can tell
  // which findings lie in code Clang could not parse (FunctionExtents.h).
  if (FunctionExtentSink *Sink = parseContext().extents; Sink && Ctx.getDiagnostics().hasErrorOccurred())
    Sink->record(functionExtents(Ctx));
  cache().push_back({&Ctx, Key, std::move(Facts)});
  return *cache().back().facts;
}

void TranslationUnitFacts::forgetAll() { cache().clear(); }

void TranslationUnitFacts::sendRecords(llvm::function_ref<void(const ASTContext &, TranslationUnitRecord &)> Amend) {
  FactsRecordSink *Sink = runContext().records;
  for (CacheEntry &Entry : cache()) {
    if (Sink && !Entry.recordSent) {
      TranslationUnitRecord Record = Entry.facts->toRecord(*Entry.context);
      if (Amend)
        Amend(*Entry.context, Record);
      Sink->record(std::move(Record));
    }
    Entry.recordSent = true;
  }
}

const KernelInfo *TranslationUnitFacts::kernelFor(const FunctionDecl *Kernel) const {
  if (!Kernel)
    return nullptr;
  for (; KernelsIndexed < kernels.size(); ++KernelsIndexed) // the first kernel of a declaration wins
    KernelsByDecl.try_emplace(kernels[KernelsIndexed]->decl->getCanonicalDecl(), kernels[KernelsIndexed].get());
  return KernelsByDecl.lookup(Kernel->getCanonicalDecl());
}

const KernelResourceFacts *TranslationUnitFacts::resourcesFor(const KernelInfo &Kernel) const {
  auto It = Resources.find(&Kernel);
  return It == Resources.end() ? nullptr : &It->second;
}

void TranslationUnitFacts::collect(ASTContext &Ctx, CallSiteIndex &Calls) {
  FactsCollector Collector(Ctx, *this, Calls);
  Collector.traverseDecl(Ctx.getTranslationUnitDecl());
  Collector.expandLaunches();
  for (const DynamicSharedMemOptin &Optin : Collector.Optins) {
    const KernelInfo *Found = kernelFor(Optin.kernel);
    if (!Found || !Optin.bytes.max)
      continue;
    auto *Kernel = const_cast<KernelInfo *>(Found);
    if (!Kernel->dynamicSharedMemOptin || *Kernel->dynamicSharedMemOptin < *Optin.bytes.max) {
      Kernel->dynamicSharedMemOptin = *Optin.bytes.max;
      Kernel->dynamicSharedMemOptinLoc = Optin.loc;
    }
  }
  // An unbounded opt-in (a runtime value) still opts in: the launch may be
  // valid, so it is recorded as the arch's maximum when the targets are known.
  for (const DynamicSharedMemOptin &Optin : Collector.Optins) {
    const KernelInfo *Found = kernelFor(Optin.kernel);
    if (Found && !Optin.bytes.max && !Found->dynamicSharedMemOptin) {
      auto *Kernel = const_cast<KernelInfo *>(Found);
      Kernel->dynamicSharedMemOptin = INT64_MAX;
      Kernel->dynamicSharedMemOptinLoc = Optin.loc;
    }
  }
  // An opt-in for a kernel not resolved here (a function pointer, a wrapper's
  // parameter) may be any kernel's: each kernel may have opted in to its
  // value (any value, when it is not known).
  for (const DynamicSharedMemOptin &Optin : Collector.Optins) {
    if (Optin.kernel)
      continue;
    const int64_t Bytes = Optin.bytes.max ? *Optin.bytes.max : INT64_MAX;
    for (const auto &Kernel : kernels)
      if (!Kernel->dynamicSharedMemOptin || *Kernel->dynamicSharedMemOptin < Bytes) {
        Kernel->dynamicSharedMemOptin = Bytes;
        Kernel->dynamicSharedMemOptinLoc = Optin.loc;
      }
  }
}

// The names a kernel's entry may have in a ptxas report: its mangled name
// and, for a static kernel, the same without the Itanium ABI's internal-
// linkage marker, which nvcc drops (clang's `_ZL10accumulatePKfPfi` is
// `_Z10accumulatePKfPfi` in nvcc's report).
static std::vector<std::string> reportNamesOf(const std::string &Mangled) {
  std::vector<std::string> Names{Mangled};
  if (Mangled.rfind("_ZL", 0) == 0)
    Names.push_back("_Z" + Mangled.substr(3));
  return Names;
}

void TranslationUnitFacts::joinResources(ASTContext &Ctx, const FactsOptions &Options) {
  const SourceManager &SM = Ctx.getSourceManager();
  // Absolute, against the parse's working directory (the compile command's):
  // a relative name would miss the compile database's entry, and its report
  // would come from a command inferred from a neighbour's.
  std::string MainFile;
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
    llvm::SmallString<256> Path(Main->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    MainFile = std::string(Path);
  }
  if (ResourceReportSource *Installed = runContext().resourceReports; Installed && !arch.empty()) {
    ResourceReportLookup Lookup = Installed->reportFor(MainFile, arch);
    ReportView = Lookup.report;
    resourceSource = Lookup.source;
    maxRegisterCount = Lookup.maxRegisterCount;
    resourceOrigin = Lookup.origin;
  } else if (!Options.ptxasLog.empty()) {
    Report = reportFromLogFiles(Options.ptxasLog, resourceSource);
    ReportView = Report.get();
  } else if (Options.readCache && !arch.empty()) {
    Report = reportFromCache(Ctx, arch, resourceSource);
    ReportView = Report.get();
  } else {
    resourceSource = "estimate: no ptxas report (set the PtxasLog option or run occlint)";
  }
  hasReport = ReportView != nullptr;
  for (const auto &Kernel : kernels) {
    KernelResourceFacts Facts;
    const ::occlint::FunctionResources *Found = nullptr;
    if (ReportView)
      for (const std::string &Name : reportNamesOf(Kernel->mangledName)) {
        for (const ::occlint::FunctionResources *F : ReportView->findAll(Name, arch))
          if (!Found || (F->isEntry && !Found->isEntry))
            Found = F;
        if (Found)
          break;
      }
    Facts.model.launchBoundsMaxThreads =
        Kernel->launchBoundsMaxThreads ? std::optional<int>(int(*Kernel->launchBoundsMaxThreads)) : std::nullopt;
    Facts.model.launchBoundsMinBlocks =
        Kernel->launchBoundsMinBlocks ? std::optional<int>(int(*Kernel->launchBoundsMinBlocks)) : std::nullopt;
    if (Found) {
      Facts.report = Found;
      Facts.source = "ptxas, " + Found->arch + (resourceOrigin.empty() ? "" : ", " + resourceOrigin);
      Facts.model.registersPerThread = Found->registers;
      Facts.model.staticSharedMem = Found->sharedMem;
      Facts.model.barriers = Found->barriers;
    } else {
      Facts.source = ReportView ? "estimate: the ptxas report has no entry for this kernel on " + arch
                     : resourceSource.rfind("estimate", 0) == 0 ? resourceSource
                                                                : "estimate: " + resourceSource;
      Facts.model.registersPerThread = 0; // unknown: the occupancy is an upper bound
      Facts.model.staticSharedMem = Kernel->staticSharedMemEstimate;
      Facts.model.barriers = 1;
    }
    Resources.emplace(Kernel.get(), std::move(Facts));
  }
}

void TranslationUnitFacts::evaluatePerTarget(ASTContext &Ctx, CallSiteIndex &Calls) {
  if (std::none_of(launches.begin(), launches.end(), [](const LaunchSite &S) { return S.needsTarget; }))
    return;
  ValueEvaluator Values(Ctx);
  std::vector<LaunchSite> Out;
  llvm::SmallPtrSet<const CallExpr *, 16> Redone;
  for (LaunchSite &Site : launches) {
    if (!Site.needsTarget) {
      Out.push_back(std::move(Site));
      continue;
    }
    if (!Redone.insert(Site.call).second)
      continue; // another variant of a launch already evaluated per target
    for (unsigned T = 0; T < targets.size(); ++T) {
      ValueContext Base;
      Base.target = &targets[T];
      Base.kernelModel = [this](const FunctionDecl &K) -> std::optional<KernelModel> {
        const KernelInfo *Info = kernelFor(&K);
        const KernelResourceFacts *Res = Info ? resourcesFor(*Info) : nullptr;
        if (!Res || !Res->registersKnown())
          return std::nullopt;
        return KernelModel{Res->model, Info->dynamicSharedMemOptin};
      };
      for (LaunchSite &Variant : launchVariants(Site, Values, Calls, Base)) {
        Variant.targetIndex = T;
        Out.push_back(std::move(Variant));
      }
    }
  }
  launches = std::move(Out);
}

// The kernel's resources with the ring's stages taken out of its shared
// memory: what every depth of the staircase adds its stages to.
static ::occlint::KernelResources resourcesOutsideRing(::occlint::KernelResources Model,
                                                       const AsyncPipelineFacts &Pipeline) {
  Model.staticSharedMem =
      std::max<int64_t>(0, Model.staticSharedMem - int64_t(*Pipeline.stages) * Pipeline.bytesPerStage);
  return Model;
}

// A pipeline hazard found in the steady state assumes the loop runs long
// enough and its guards are taken; a launch whose argument values decide
// every condition the run meets makes the hazards of that run certain
// (pipelines/AsyncPipelineHazards.h, pipelineHazardsForLaunch). Each launch site
// is run once, whatever its targets.
void TranslationUnitFacts::findCertainPipelineHazards(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::map<const KernelInfo *, KernelInfo *> Hazardous; // the kernels with hazards, to amend
  for (const std::unique_ptr<KernelInfo> &K : kernels)
    if (!K->pipelineHazards.empty() && K->pipeline)
      Hazardous[K.get()] = K.get();
  for (const LaunchSite &Site : launches) {
    auto Found = Hazardous.find(kernelFor(Site.kernel));
    if (Found == Hazardous.end() || Site.argumentValues.empty())
      continue;
    KernelInfo &Kernel = *Found->second;
    const std::optional<std::vector<PipelineHazard>> Certain =
        pipelineHazardsForLaunch(*Kernel.decl, *Kernel.pipeline, Site.argumentValues, Ctx);
    if (!Certain)
      continue;
    std::string Arguments; // "tiles = 8", or what the note says when no argument decides
    for (unsigned I = 0; I < Kernel.decl->getNumParams() && I < Site.argumentValues.size(); ++I)
      if (Site.argumentValues[I] && Kernel.decl->getParamDecl(I)->getType()->isIntegerType())
        Arguments += (Arguments.empty() ? "" : ", ") + Kernel.decl->getParamDecl(I)->getNameAsString() + " = " +
                     std::to_string(*Site.argumentValues[I]);
    Arguments = Arguments.empty() ? "the pipelined loop's trips, which do not depend on the launch,"
                                  : "with " + Arguments + " the pipelined loop";
    for (PipelineHazard &H : Kernel.pipelineHazards)
      for (const PipelineHazard &C : *Certain)
        if (C.kind == H.kind && SM.getExpansionLoc(C.at) == SM.getExpansionLoc(H.at)) {
          H.certainFor.push_back({Site.loc, Arguments});
          break;
        }
  }
}

// A one-stage ring in a buffer of no constant size (`extern __shared__ T
// smem[]`) is as large as the bytes one trip's copies span, for the block
// every launch of the kernel here gives (pipelines/AsyncPipelineOffsets.h,
// oneStageSpan). Launches that disagree, or none, leave it unknown. (A launch
// in another translation unit is not seen: the plugin's view.)
void TranslationUnitFacts::sizeOneStageRings(ASTContext &Ctx) {
  for (const std::unique_ptr<KernelInfo> &Kernel : kernels) {
    std::optional<AsyncPipelineFacts> &P = Kernel->pipeline;
    if (!P || P->stages != 1 || P->bytesPerStage > 0 || P->offsetRingStride != WholeBufferStage)
      continue;
    std::optional<std::array<int64_t, 3>> Block;
    bool Agree = true;
    for (const LaunchSite &Site : launches) {
      if (kernelFor(Site.kernel) != Kernel.get())
        continue;
      const bool Exact = Site.block.isExact() && Site.block.product().exactValue() <= 1024;
      Agree = Agree && Exact && (!Block || *Block == Site.block.exactValues());
      if (Exact)
        Block = Site.block.exactValues();
    }
    if (!Agree || !Block) {
      P->stagesUnknown += Block ? "; its launches here differ in their blocks" : "; no launch here with a known block";
      continue;
    }
    std::string Why;
    if (std::optional<int64_t> Span = oneStageSpan(*Kernel->decl, *Block, Ctx, Why)) {
      P->bytesPerStage = *Span;
      P->stagesFrom += " (the bytes one trip's copies span for the block of every launch here, " +
                       std::to_string((*Block)[0]) + "x" + std::to_string((*Block)[1]) + "x" +
                       std::to_string((*Block)[2]) + ")";
      P->stagesUnknown.clear();
    } else {
      P->stagesUnknown += "; " + Why;
    }
  }
}

void TranslationUnitFacts::predictOccupancy() {
  for (const LaunchSite &Site : launches) {
    const KernelInfo *Kernel = kernelFor(Site.kernel);
    const KernelResourceFacts *Res = Kernel ? resourcesFor(*Kernel) : nullptr;
    for (unsigned TargetIndex = 0; TargetIndex < targets.size(); ++TargetIndex) {
      if (Site.targetIndex && *Site.targetIndex != TargetIndex)
        continue;
      const ::occlint::TargetGpu &Gpu = targets[TargetIndex];
      LaunchOnTarget L;
      L.site = &Site;
      L.kernel = Kernel;
      L.gpu = &Gpu;
      L.resources = Res;
      // (Blocks of absurd sizes are cuda-launch-invalid-config's business; the
      // engine's int arithmetic is kept away from them.)
      const bool BlockKnown = Site.block.isExact() && Site.block.product().exactValue() <= (1 << 24);
      if (Res && BlockKnown) {
        const std::array<int64_t, 3> B = Site.block.exactValues();
        ::occlint::LaunchShape Shape;
        Shape.blockX = int(std::min<int64_t>(B[0], INT32_MAX));
        Shape.blockY = int(std::min<int64_t>(B[1], INT32_MAX));
        Shape.blockZ = int(std::min<int64_t>(B[2], INT32_MAX));
        if (Kernel->dynamicSharedMemOptin)
          Shape.optinDynamicSharedMem =
              std::min<int64_t>(*Kernel->dynamicSharedMemOptin, Gpu.arch.sharedMemPerBlockOptin);
        const EvaluatedValue Grid = Site.grid.product();
        if (Grid.isExact())
          Shape.gridBlocks = Grid.exactValue();
        if (Site.dynamicSharedMem.isExact()) {
          Shape.dynamicSharedMem = Site.dynamicSharedMem.exactValue();
          L.shape = Shape;
          L.occupancy = ::occlint::computeOccupancy(Gpu, Res->model, Shape);
        } else if (auto Any = ::occlint::occupancyForAnyDynamicSharedMemory(Gpu, Res->model, Shape)) {
          // A runtime amount that cannot change the blocks per SM. (The
          // largest amount reads the kernel's opt-in from this translation
          // unit's cudaFuncSetAttribute calls, as the launch checks do.)
          Shape.dynamicSharedMem = Any->largestDynamicSharedMemory;
          Shape.dynamicSharedMemIsUpperBound = true;
          L.shape = Shape;
          L.occupancy = std::move(Any->result);
        }
      }
      if (L.shape && Kernel->pipeline && Kernel->pipeline->stages && Kernel->pipeline->bytesPerStage > 0) {
        const AsyncPipelineFacts &P = *Kernel->pipeline;
        // The ring's bytes come out of the part of the block's shared memory
        // that holds them (static declarations, or the launch's dynamic
        // amount), and every depth adds its stages back.
        ::occlint::KernelResources Outside = Res->model;
        ::occlint::LaunchShape Shape = *L.shape;
        const int64_t Ring = int64_t(*P.stages) * P.bytesPerStage;
        if (P.ringInDynamicSharedMemory)
          Shape.dynamicSharedMem = std::max<int64_t>(0, Shape.dynamicSharedMem - Ring);
        else
          Outside = resourcesOutsideRing(Res->model, P);
        L.pipelineDepths = ::occlint::pipelineStaircase(Gpu, Outside, Shape, P.bytesPerStage);
        // The overlap estimate, where one tile's arithmetic was counted: per
        // block, the threads' FP operations and the warps' tensor FLOPs.
        const PipelineLoopWork &W = P.loopWork;
        if (W.workUnknown.empty() && W.fpOpsPerThread && W.tensorFlopsPerWarp) {
          const int64_t Threads = int64_t(L.shape->blockX) * L.shape->blockY * L.shape->blockZ;
          const int64_t Warps = (Threads + Gpu.arch.warpSize - 1) / Gpu.arch.warpSize;
          ::occlint::estimateOverlap(L.pipelineDepths, Gpu, P.bytesPerStage,
                                     {*W.fpOpsPerThread * double(Threads), *W.tensorFlopsPerWarp * double(Warps)});
        }
      }
      launchesOnTargets.push_back(std::move(L));
    }
  }
}

static SourcePoint pointOf(SourceLocation Loc, const SourceManager &SM) {
  SourcePoint Point;
  const PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  if (P.isInvalid())
    return Point;
  Point.file = P.getFilename();
  Point.line = P.getLine();
  Point.column = P.getColumn();
  return Point;
}

TranslationUnitRecord TranslationUnitFacts::toRecord(const ASTContext &Ctx) const {
  const SourceManager &SM = Ctx.getSourceManager();
  TranslationUnitRecord Record;
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    Record.mainFile = Main->getName().str();
  Record.arch = arch;
  Record.targets = targets;
  Record.resourceSource = resourceSource;
  for (const auto &Kernel : kernels) {
    KernelRecord K;
    K.location = pointOf(Kernel->decl->getLocation(), SM);
    K.name = Kernel->displayName;
    K.mangledName = Kernel->mangledName;
    if (const KernelResourceFacts *Res = resourcesFor(*Kernel)) {
      K.resources = Res->model;
      K.registersKnown = Res->registersKnown();
      K.resourceSource = Res->source;
      if (Res->report) {
        K.spillStores = Res->report->spillStores;
        K.spillLoads = Res->report->spillLoads;
      }
    }
    if (const std::optional<AsyncPipelineFacts> &P = Kernel->pipeline) {
      PipelineRecord Pipeline;
      for (AsyncCopyForm Form : P->forms)
        Pipeline.forms.push_back(asyncCopyFormName(Form));
      Pipeline.stages = P->stages;
      Pipeline.bytesPerStage = P->bytesPerStage;
      if (P->stages && P->bytesPerStage > 0)
        Pipeline.otherSharedBytes = P->ringInDynamicSharedMemory
                                        ? K.resources.staticSharedMem
                                        : resourcesOutsideRing(K.resources, *P).staticSharedMem;
      Pipeline.stagesFrom = P->stagesFrom;
      Pipeline.stagesUnknown = P->stagesUnknown;
      Pipeline.producer = P->producer;
      Pipeline.hazardsNotModelled = P->hazardsNotModelled;
      if (P->loopWork.loop) {
        Pipeline.fpOpsPerThread = P->loopWork.fpOpsPerThread;
        Pipeline.tensorFlopsPerWarp = P->loopWork.tensorFlopsPerWarp;
        Pipeline.nothingOverlaps = P->loopWork.nothingOverlaps;
      }
      if (!P->loopWork.workUnknown.empty())
        Pipeline.workUnknown = P->loopWork.workUnknown;
      K.pipeline = std::move(Pipeline);
    }
    Record.kernels.push_back(std::move(K));
  }
  for (const LaunchOnTarget &L : launchesOnTargets) {
    LaunchRecord R;
    R.location = pointOf(L.site->loc, SM);
    R.launchKind = launchKindName(L.site->kind);
    if (L.site->caller)
      R.caller = L.site->caller->getNameAsString();
    if (L.kernel) {
      R.kernel = L.kernel->displayName;
      R.mangledName = L.kernel->mangledName;
    }
    R.gpu = *L.gpu;
    const EvaluatedValue Grid = L.site->grid.product();
    R.grid = Grid.describe();
    R.gridBlocksAtMost = Grid.max;
    R.block = L.site->block.product().describe();
    R.dynamicSharedMem = L.site->dynamicSharedMem.describe();
    R.cooperative = L.site->cooperative;
    if (L.resources) {
      R.resources = L.resources->model;
      R.registersKnown = L.resources->registersKnown();
    }
    R.shape = L.shape;
    R.occupancy = L.occupancy;
    R.pipelineDepths = L.pipelineDepths;
    R.variant = L.site->values.variant;
    R.variants = L.site->values.variants;
    R.valuesComplete = L.site->values.complete;
    R.blockComplete = L.site->values.blockComplete;
    R.incompleteBecause = L.site->values.incompleteBecause;
    if (const VarDecl *Array = L.site->values.blockSweep)
      R.blockSweep = Array->getName().str();
    if (const VarDecl *Array = L.site->values.gridSweep)
      R.gridSweep = Array->getName().str();
    for (const CallExpr *Call : L.site->values.callChain)
      R.callChain.push_back(pointOf(Call->getBeginLoc(), SM));
    R.gridUnknown = L.site->gridUnknownReason;
    R.blockUnknown = L.site->blockUnknownReason;
    R.dynamicSharedMemUnknown = L.site->dynamicSharedMemUnknownReason;
    // By check name: the order the checks ran in is clang-tidy's, not a meaning.
    R.suppressed = L.suppressed;
    std::sort(R.suppressed.begin(), R.suppressed.end(),
              [](const SuppressedFinding &A, const SuppressedFinding &B) { return A.check < B.check; });
    Record.launches.push_back(std::move(R));
  }
  return Record;
}

} // namespace clang::tidy::occlint
