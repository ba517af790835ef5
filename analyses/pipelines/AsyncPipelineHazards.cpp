#include "pipelines/AsyncPipelineHazards.h"
#include "pipelines/AsyncPipelineReads.h"
#include "pipelines/BlockPipelineReads.h"
#include "pipelines/LibcuSynchronization.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <set>

namespace clang::tidy::occlint {

namespace {

// A cuda::barrier (a variable, or an element of an array of them).
using BarrierKey = std::pair<const VarDecl *, int64_t>;

struct LastCopy {
  size_t batch = 0;
  SourceLocation loc;
  std::string within;
  bool group = false;   // a whole group's copy: other threads wrote parts of it
  bool visible = false; // a block barrier came after its completion
  // A copy that completes on a cuda::barrier's phase rather than in a batch.
  std::optional<BarrierKey> barrier;
  size_t phase = 0;      // the barrier's phase: this thread's arrivals before the copy
  bool complete = false; // a wait on that phase came after it
};

struct ReadSinceBarrier {
  SourceLocation loc;
  std::string within;
  size_t seq = 0; // the order of reads (a barrier wait fences those before its arrival)
};

// How far one side of the kernel has got (the whole block when the kernel is
// not split into producer and consumer roles).
struct Progress {
  Batch open;
  size_t committed = 0, complete = 0, releases = 0;
  size_t tail = 0; // a thread-scope cuda::pipeline's stages taken by consumer_wait
  SourceLocation lastWait, lastRelease;
};

class Simulation final : public RingReads {
public:
  Simulation(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline, ASTContext &Ctx)
      : RingReads(Ctx, Pipeline), Kernel(Kernel) {}

  std::vector<PipelineHazard> Hazards;

  /// Whether the run reached the async operation at Loc (an expansion place).
  bool reached(SourceLocation Loc) const { return Reached.count(Loc.getRawEncoding()); }

  /// After the run: the reads of a block-scope cuda::pipeline's ring against
  /// every batch (pipelines/BlockPipelineReads.h), one finding per read.
  void finish() {
    const SourceManager &SM = Ctx.getSourceManager();
    for (const PipelineRead &R : PipelineReads)
      if (std::optional<PipelineHazard> H = judgeBlockPipelineRead(R, Batches, Pipe->stages, Stages))
        if (JudgedReads.insert(SM.getExpansionLoc(R.loc).getRawEncoding()).second)
          report(std::move(*H));
  }

private:
  // --- The ring -------------------------------------------------------------
  // A pointer local set from a ring address: its uses are that region's.
  void declared(const VarDecl &VD, const Expr &Init) override {
    // A pointer or reference to a cuda::barrier (`auto front = &bar0;`,
    // `T &barrier` bound to `*front`, `front = back;`).
    if (std::optional<BarrierKey> K = barrierOf(&Init))
      BarrierAliases[&VD] = *K;
    else
      BarrierAliases.erase(&VD);
    holdsPlace(VD, Init);
  }

  void read(const Region &R, SourceLocation At) override {
    const SourceLocation Loc = inKernel(At);
    const auto Key = std::make_pair(R.buffer, R.stage);
    if (blockPipeline()) {
      PipelineReads.push_back(
          {R, Loc, P.complete, P.releases, P.committed + !P.open.copies.empty(), Epoch, P.lastRelease});
      return;
    }
    if (auto It = Last.find(Key); It != Last.end()) {
      const LastCopy &C = It->second;
      const bool Complete = isComplete(C);
      const bool Others = C.group || C.within != R.within;
      PipelineHazard H;
      H.kind = PipelineHazard::EarlyRead;
      H.buffer = R.buffer;
      H.stage = R.stage;
      H.at = Loc;
      H.other = C.loc;
      H.wait = P.lastWait;
      if (!Complete && C.barrier) {
        H.why = "the barrier phase the copy completes on is not waited for";
        H.fix = "wait for the barrier phase of the copy (arrive_and_wait(), or wait() on the arrival's token) before "
                "the read";
        auto Arrived = LastArrival.find(*C.barrier);
        H.wait = Arrived != LastArrival.end() && Arrivals[*C.barrier] > C.phase ? Arrived->second : SourceLocation();
        report(std::move(H));
      } else if (!Complete) {
        if (C.batch >= P.committed) {
          H.why = "its batch is not committed";
          H.fix = "commit the copies, then wait for them before the read";
        } else if (P.lastWait.isInvalid()) {
          H.why = "no wait covers its batch";
          H.fix = "a wait with " + std::to_string(P.committed - C.batch - 1) + " pending (or fewer) before the read";
        } else {
          H.why = "the last wait leaves the " + std::to_string(P.committed - P.complete) +
                  " most recent batches in flight, and the copy is in one of them";
          H.fix = "wait with " + std::to_string(P.committed - C.batch - 1) + " pending instead of " +
                  std::to_string(P.committed - P.complete);
        }
        report(std::move(H));
      } else if (Others && !C.visible) {
        H.why = "other threads made the copy and no block barrier follows the wait that completes it";
        H.fix = "a __syncthreads() (or the group's sync) between the wait and the read";
        report(std::move(H));
      }
    }
    Reads[Key].push_back({Loc, R.within, ReadSeq++});
  }

  void operate(const Stmt &S, const std::vector<AsyncOperation> &Ops) override {
    Reached.insert(Ctx.getSourceManager().getExpansionLoc(S.getBeginLoc()).getRawEncoding());
    const SourceLocation At = inKernel(S.getBeginLoc());
    for (const AsyncOperation &O : Ops) {
      if (O.form == AsyncCopyForm::CudaPipeline && O.sync)
        pipelineOf(*O.sync);
      if (blockPipeline() && O.form != AsyncCopyForm::CudaPipeline && O.kind != AsyncEventKind::BlockBarrier)
        throw NotModelled{std::string("a block-scope cuda::pipeline mixed with ") + asyncCopyFormName(O.form)};
      if (Role != 0 && (O.form == AsyncCopyForm::CudaBarrier || O.kind == AsyncEventKind::BlockBarrier))
        throw NotModelled{"a barrier inside one side of a producer/consumer split"};
      switch (O.kind) {
      case AsyncEventKind::Copy: {
        const bool Offsets = !OffsetRing.empty();
        std::optional<Region> R = !O.destination ? std::nullopt
                                  : Offsets      ? offsetRegionOf(O.destination)
                                                 : regionOf(O.destination);
        if (!R)
          throw NotModelled{"a copy's destination is not a stage of the ring"};
        if (Offsets)
          R->within = "copy";
        std::optional<BarrierKey> Barrier;
        if (O.form == AsyncCopyForm::CudaBarrier)
          Barrier = wholeBlockBarrier(O.sync);
        copy(*R, At, Offsets || O.form == AsyncCopyForm::CooperativeGroups || groupCopy(S), Barrier);
        if (O.form == AsyncCopyForm::CooperativeGroups)
          commit(); // each cooperative-groups copy is a batch of its own
        break;
      }
      case AsyncEventKind::Commit:
        if (O.form == AsyncCopyForm::CudaPipeline && !isa<CXXMemberCallExpr>(S))
          throw NotModelled{"pipeline_producer_commit (a stage completed on a cuda::barrier) is not modelled"};
        commit();
        break;
      case AsyncEventKind::Wait:
        if (O.form == AsyncCopyForm::CudaPipeline && isa<CXXMemberCallExpr>(S)) {
          consumerWait(At);
          break;
        }
        if (!O.pending)
          throw NotModelled{"a wait's number of pending batches is not a constant"};
        if (O.form == AsyncCopyForm::PtxCpAsync && *O.pending == 0 && !P.open.copies.empty())
          commit(); // cp.async.wait_all commits first
        wait(*O.pending, At);
        if (O.form == AsyncCopyForm::CudaPipeline) // pipeline_consumer_wait_prior<N>: the tail follows
          P.tail = *O.pending >= int64_t(P.committed) ? 0 : P.committed - size_t(*O.pending);
        if (O.form == AsyncCopyForm::CooperativeGroups)
          barrier(); // cg::wait / wait_prior synchronise the group
        break;
      case AsyncEventKind::BlockBarrier:
        barrier();
        break;
      case AsyncEventKind::Acquire:
        // Block scope: waits until every thread released the stage, which
        // the judgement of the reads accounts for; thread scope: the
        // thread's own order only.
        break;
      case AsyncEventKind::Release:
        // Block scope: the stage goes back to the producers, and the next
        // consumer_wait is for the one after it. Thread scope: nothing
        // (libcu++'s consumer_release is empty; consumer_wait moves on).
        ++P.releases;
        P.lastRelease = At;
        break;
      case AsyncEventKind::Arrive: {
        const BarrierKey Key = wholeBlockBarrier(O.sync);
        ++Arrivals[Key];
        ArrivalReadSeq[Key].push_back(ReadSeq);
        LastArrival[Key] = At;
        break;
      }
      case AsyncEventKind::BarrierWait:
        barrierWait(wholeBlockBarrier(O.sync), At);
        break;
      }
    }
  }

  // cuda::memcpy_async(group, ...): the group's copy.
  static bool groupCopy(const Stmt &S) {
    const auto *Call = dyn_cast<CallExpr>(&S);
    return Call && Call->getNumArgs() >= 5;
  }

  void copy(const Region &R, SourceLocation Loc, bool Group, std::optional<BarrierKey> Barrier) {
    const auto Key = std::make_pair(R.buffer, R.stage);
    // A block-scope pipeline's refills are judged against its reads at the
    // end (judgeBlockPipelineRead); its reads never enter Reads.
    for (const ReadSinceBarrier &Read : Reads[Key])
      if (Group || Read.within != R.within) {
        PipelineHazard H;
        H.kind = PipelineHazard::BufferReuse;
        H.buffer = R.buffer;
        H.stage = R.stage;
        H.at = Loc;
        H.other = Read.loc;
        H.why = "other threads read the stage after the last block barrier";
        H.fix = "a __syncthreads() after the last read of the stage, before the copy that refills it";
        report(std::move(H));
        break;
      }
    if (P.open.copies.empty())
      P.open.epoch = Epoch;
    P.open.copies.push_back({R, Loc});
    LastCopy C;
    C.batch = P.committed; // the open batch's index once committed
    C.loc = Loc;
    C.within = R.within;
    C.group = Group;
    C.barrier = Barrier;
    C.phase = Barrier ? Arrivals[*Barrier] : 0;
    Last[Key] = C;
  }

  void commit() {
    if (blockPipeline()) {
      if (Batches.size() != P.committed)
        throw NotModelled{"more than one side of the kernel commits the pipeline's stages"};
      Batches.push_back(P.open);
    }
    ++P.committed;
    P.open = Batch();
  }

  void wait(int64_t Pending, SourceLocation Loc) {
    const size_t Complete = Pending >= int64_t(P.committed) ? 0 : P.committed - size_t(Pending);
    P.complete = std::max(P.complete, Complete);
    P.lastWait = Loc;
  }

  // consumer_wait, as libcu++ implements it (cuda/pipeline). Block scope:
  // a wait for the stage at the pipeline's tail, the oldest not yet released
  // (it may come from the producer side). Thread scope: a wait for the oldest
  // committed batch not yet waited for (wait_group head - tail - 1), which
  // moves the tail on; nothing when every batch has been waited for.
  void consumerWait(SourceLocation Loc) {
    if (blockPipeline()) {
      P.complete = std::max(P.complete, P.releases + 1);
    } else {
      if (P.tail >= P.committed)
        return;
      P.complete = std::max(P.complete, ++P.tail);
    }
    P.lastWait = Loc;
  }

  bool isComplete(const LastCopy &C) const { return C.barrier ? C.complete : C.batch < P.complete; }

  void barrier() {
    for (auto &[Key, C] : Last)
      if (isComplete(C))
        C.visible = true;
    Reads.clear();
    ++Epoch;
  }

  // A wait on Key's phase of this thread's last arrival: the copies bound to
  // it before that arrival are complete, and (the barrier counts the whole
  // block) visible to every thread, and the reads before the arrival are
  // fenced from what follows.
  void barrierWait(const BarrierKey &Key, SourceLocation Loc) {
    const size_t Arrived = Arrivals[Key];
    if (Arrived == 0)
      throw NotModelled{"a cuda::barrier wait with no arrival before it"};
    for (auto &[Place, C] : Last)
      if (C.barrier == Key && C.phase < Arrived)
        C.complete = C.visible = true;
    const size_t Fence = ArrivalReadSeq[Key][Arrived - 1];
    for (auto &[Place, List] : Reads)
      llvm::erase_if(List, [&](const ReadSinceBarrier &Read) { return Read.seq < Fence; });
    P.lastWait = Loc;
  }

  // --- cuda::pipeline ---------------------------------------------------------
  struct PipelineObject {
    const VarDecl *var = nullptr;
    bool blockScope = false;
    int64_t stages = 0; // the shared state's, for block scope
  };

  bool blockPipeline() const { return Pipe && Pipe->blockScope; }

  // The pipeline E names, read once: its scope from its type
  // (cuda::pipeline<thread_scope_...>), its stages from the shared state
  // make_pipeline was given.
  void pipelineOf(const Expr &E) {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(peelAddress(&E));
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD)
      throw NotModelled{"a cuda::pipeline that is not a named variable"};
    if (Pipe) {
      if (Pipe->var != VD)
        throw NotModelled{"more than one cuda::pipeline"};
      return;
    }
    PipelineObject O;
    O.var = VD;
    std::optional<std::string> Scope = threadScopeOf(VD->getType().getNonReferenceType());
    if (!Scope)
      throw NotModelled{"the cuda::pipeline's scope is not read"};
    O.blockScope = *Scope != "thread_scope_thread";
    if (O.blockScope) {
      if (*Scope != "thread_scope_block")
        throw NotModelled{"a cuda::pipeline of " + *Scope + " is not modelled"};
      std::optional<int64_t> SharedStages = pipelineSharedStateStages(VD->getInit());
      if (!SharedStages)
        throw NotModelled{"the stage count of the cuda::pipeline's shared state is not read"};
      O.stages = *SharedStages;
      if (!Reads.empty() || !Last.empty())
        throw NotModelled{"copies before the block-scope cuda::pipeline is used"};
    }
    Pipe = O;
  }

  // --- cuda::barrier ----------------------------------------------------------
  // The barrier E names: a variable or an element of an array of them (the
  // index a known local), initialised to count the whole block. A barrier
  // that counts fewer threads (or whose count is not read) does not order
  // the block: not modelled.
  BarrierKey wholeBlockBarrier(const Expr *E) {
    std::optional<BarrierKey> Key = barrierOf(E);
    if (!Key)
      throw NotModelled{"a cuda::barrier that is not a variable or an element of an array of them (the index known)"};
    const VarDecl *VD = Key->first;
    auto [It, New] = CountsTheBlock.try_emplace(VD, false);
    if (New)
      It->second = barrierCountsTheBlock(Kernel.getBody(), *VD);
    if (!It->second)
      throw NotModelled{"the cuda::barrier '" + VD->getNameAsString() +
                        "' is not initialised to count the whole block (init(&bar, block.size()))"};
    return *Key;
  }

  // The barrier E names or points to, through the pointers and references
  // that hold one; nullopt when E is not one (or its index is not known).
  std::optional<BarrierKey> barrierOf(const Expr *E) {
    const Expr *Peeled = E ? peelAddress(E) : nullptr;
    int64_t Index = 0;
    if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Peeled)) {
      std::optional<int64_t> I = Locals.eval(Sub->getIdx());
      if (!I)
        return std::nullopt;
      Index = *I;
      Peeled = peelAddress(Sub->getBase());
    }
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Peeled);
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD)
      return std::nullopt;
    if (auto It = BarrierAliases.find(VD); It != BarrierAliases.end())
      return Index == 0 ? std::optional<BarrierKey>(It->second) : std::nullopt;
    if (!isCudaBarrierType(VD->getType()))
      return std::nullopt;
    return BarrierKey{VD, Index};
  }

  void role(int Which) override {
    Saved[Role] = P;
    if (Which != 0 && !Entered[Which]) {
      Saved[Which] = Saved[0];
      Entered[Which] = true;
    }
    if (Which == 0) {
      // Both sides done: as far as the further of the two got. Each side
      // keeps its own progress for the next split (one in every trip).
      Progress Merged = Saved[1];
      Merged.committed = std::max(Saved[1].committed, Saved[2].committed);
      Merged.complete = std::max(Saved[1].complete, Saved[2].complete);
      Merged.releases = std::max(Saved[1].releases, Saved[2].releases);
      Saved[0] = Merged;
    }
    P = Saved[Which];
    Role = Which;
  }

  bool runsRoles() const override { return blockPipeline() || (!Pipe && usesBlockScopePipeline(Kernel.getBody())); }

  void report(PipelineHazard H) {
    // Where the user wrote them: a macro's use (CP_ASYNC_WAIT(1)), not its body.
    const SourceManager &SM = Ctx.getSourceManager();
    H.at = SM.getExpansionLoc(H.at);
    H.other = SM.getExpansionLoc(H.other);
    if (H.wait.isValid())
      H.wait = SM.getExpansionLoc(H.wait);
    // One finding per read (copy): its first occurrence in the run.
    const auto Key = std::make_tuple(int(H.kind), H.at.getRawEncoding(), 0u);
    if (Reported.insert(Key).second)
      Hazards.push_back(std::move(H));
  }

  std::map<std::pair<const VarDecl *, int64_t>, LastCopy> Last;
  std::map<std::pair<const VarDecl *, int64_t>, std::vector<ReadSinceBarrier>> Reads;
  std::set<std::tuple<int, unsigned, unsigned>> Reported;
  const FunctionDecl &Kernel;
  Progress P;        // the side running now
  Progress Saved[3]; // the kernel before a split (0), its two sides (1, 2)
  bool Entered[3] = {false, false, false};
  int Role = 0;
  size_t Epoch = 0;   // block barriers run
  size_t ReadSeq = 0; // reads run
  // cuda::barrier: this thread's arrivals per barrier, the read count at
  // each, and the last arrival's place.
  std::map<BarrierKey, size_t> Arrivals;
  std::map<BarrierKey, std::vector<size_t>> ArrivalReadSeq;
  std::map<BarrierKey, SourceLocation> LastArrival;
  std::map<const VarDecl *, bool> CountsTheBlock;
  std::map<const VarDecl *, BarrierKey> BarrierAliases;
  std::set<unsigned> Reached; // the async operations run (their places)
  // A block-scope cuda::pipeline: its batches in order, and the reads to judge.
  std::optional<PipelineObject> Pipe;
  std::vector<Batch> Batches;
  std::vector<PipelineRead> PipelineReads;
  std::set<unsigned> JudgedReads;
};

} // namespace

namespace {

bool ringKnown(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline) {
  return Pipeline.stages && (!Pipeline.ringVariables.empty() || !Pipeline.offsetRingBuffers.empty()) &&
         Kernel.hasBody();
}

// The run's hazards, or why it stopped. Arguments: a launch's values.
std::vector<PipelineHazard> runHazards(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline, ASTContext &Ctx,
                                       const std::vector<std::optional<int64_t>> *Arguments, std::string &Stopped,
                                       bool &Exact) {
  // TMA copies complete on an mbarrier's transaction count, which the run
  // does not model: said before anything else the run would stop at (the
  // single thread that issues them, most often).
  if (std::find(Pipeline.forms.begin(), Pipeline.forms.end(), AsyncCopyForm::Bulk) != Pipeline.forms.end()) {
    Stopped = std::string("the ") + asyncCopyFormName(AsyncCopyForm::Bulk) +
              " form's completion (an mbarrier's transaction count) is not modelled";
    return {};
  }
  Simulation Run(Kernel, Pipeline, Ctx);
  try {
    if (Arguments)
      Run.bindParameters(Kernel, *Arguments);
    Run.run(Kernel.getBody());
    Run.finish();
  } catch (const NotModelled &Stop) {
    Stopped = Stop.why;
    return {};
  }
  // An operation the run never reached (in a function it does not follow,
  // or on a path it does not take) could be the wait or barrier that orders
  // what it saw: no finding then. A launch's run is made only after the
  // steady run reached them all: there an operation not reached lies on a
  // path the launch's values rule out (`if (k + 2 < tiles)` with 2 tiles).
  const SourceManager &SM = Ctx.getSourceManager();
  for (const AsyncCopyEvent &E : Pipeline.events)
    if (!Arguments && !Run.reached(E.loc)) {
      Stopped = "the async operation at line " + std::to_string(SM.getExpansionLineNumber(E.loc)) +
                " is not reached by the pipeline model (a call it does not follow, or a path it does not take)";
      return {};
    }
  Exact = Run.exact();
  return std::move(Run.Hazards);
}

} // namespace

std::vector<PipelineHazard> findPipelineHazards(const FunctionDecl &Kernel, AsyncPipelineFacts &Pipeline,
                                                ASTContext &Ctx) {
  if (!ringKnown(Kernel, Pipeline)) {
    if (Pipeline.hazardsNotModelled.empty())
      Pipeline.hazardsNotModelled = Pipeline.stages ? "the ring is not an array of arrays" : "the ring is not known";
    return {};
  }
  std::string Stopped;
  bool Exact = false;
  std::vector<PipelineHazard> Hazards = runHazards(Kernel, Pipeline, Ctx, nullptr, Stopped, Exact);
  Pipeline.hazardsNotModelled = Stopped;
  return Hazards;
}

std::optional<std::vector<PipelineHazard>>
pipelineHazardsForLaunch(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline,
                         const std::vector<std::optional<int64_t>> &Arguments, ASTContext &Ctx) {
  if (!ringKnown(Kernel, Pipeline) || !Pipeline.hazardsNotModelled.empty())
    return std::nullopt;
  std::string Stopped;
  bool Exact = false;
  std::vector<PipelineHazard> Hazards = runHazards(Kernel, Pipeline, Ctx, &Arguments, Stopped, Exact);
  if (!Stopped.empty() || !Exact)
    return std::nullopt;
  return Hazards;
}

} // namespace clang::tidy::occlint
