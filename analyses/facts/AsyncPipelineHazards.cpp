#include "facts/AsyncPipelineHazards.h"
#include "facts/AsyncPipelineRun.h"
#include "facts/SharedMemoryVariables.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

#include <map>
#include <set>

namespace clang::tidy::occlint {

namespace {


// A place in the ring, and who addresses it: the text of the address past
// the stage index ("" for a whole stage).
struct Region {
  const VarDecl *buffer = nullptr;
  int64_t stage = 0;
  std::string within;
};

struct Batch {
  std::vector<std::pair<Region, SourceLocation>> copies;
  size_t epoch = 0; // block barriers run before its first copy
};

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

// A read of a block-scope cuda::pipeline's ring, judged once the run has
// seen every batch (a faster thread, or the producer side, may be ahead).
struct PipelineRead {
  Region region;
  SourceLocation loc;
  size_t complete = 0; // batches waited for (consumer_wait)
  size_t releases = 0; // stages released (consumer_release)
  size_t issued = 0;   // batches this side had begun
  size_t epoch = 0;    // block barriers run before the read
  SourceLocation release; // the last consumer_release before the read
};

// How far one side of the kernel has got (the whole block when the kernel is
// not split into producer and consumer roles).
struct Progress {
  Batch open;
  size_t committed = 0, complete = 0, releases = 0;
  size_t tail = 0; // a thread-scope cuda::pipeline's stages taken by consumer_wait
  SourceLocation lastWait, lastRelease;
};

class Simulation final : public PipelineRun {
public:
  Simulation(const FunctionDecl &Kernel, const AsyncPipelineFacts &Pipeline, ASTContext &Ctx)
      : PipelineRun(Ctx, 2 * *Pipeline.stages + 3), Kernel(Kernel),
        Ring(Pipeline.ringVariables.begin(), Pipeline.ringVariables.end()), Stages(*Pipeline.stages),
        OffsetRing(Pipeline.offsetRingBuffers.begin(), Pipeline.offsetRingBuffers.end()),
        OffsetBase(Pipeline.offsetRingBase), StageBytes(Pipeline.bytesPerStage) {}

  std::vector<PipelineHazard> Hazards;

  /// After the run: the reads of a block-scope cuda::pipeline's ring against
  /// every batch (see judgePipelineRead).
  void finish() {
    for (const PipelineRead &R : PipelineReads)
      judgePipelineRead(R);
  }

private:
  // --- The ring -------------------------------------------------------------
  // A pointer local set from a ring address: its uses are that region's.
  void declared(const VarDecl &VD, const Expr &Init) override {
    if (!OffsetRing.empty()) {
      Addresses.declared(VD, Init);
      return;
    }
    if (VD.getType()->isIntegerType())
      return;
    if (std::optional<Region> R = regionOf(&Init))
      Aliases[&VD] = *R;
    else
      Aliases.erase(&VD);
  }

  // The region an address or an lvalue names: the ring variable, its stage,
  // and the text past the stage index.
  std::optional<Region> regionOf(const Expr *E) {
    std::vector<const Expr *> Indices; // outermost first
    std::string Offsets;
    for (int Depth = 0; E && Depth < 16; ++Depth) {
      E = peelAddress(E);
      if (!E)
        return std::nullopt;
      if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
        E = M->getBase(); // a member of an element: the element's place
        continue;
      }
      if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
        Indices.insert(Indices.begin(), S->getIdx());
        E = S->getBase();
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
        const bool LeftIsPointer = B->getLHS()->getType()->isPointerType() || B->getLHS()->getType()->isArrayType();
        Offsets += "+" + text(LeftIsPointer ? B->getRHS() : B->getLHS());
        E = LeftIsPointer ? B->getLHS() : B->getRHS();
        continue;
      }
      if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() == 1 &&
                                                     Call->getArg(0)->getType()->isPointerType()) {
        E = Call->getArg(0); // __cvta_generic_to_shared(p) and the like
        continue;
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        if (!VD)
          return std::nullopt;
        if (auto It = Aliases.find(VD); It != Aliases.end()) {
          Region R = It->second;
          for (const Expr *I : Indices)
            R.within += "[" + text(I) + "]";
          R.within += Offsets;
          return R;
        }
        if (!Ring.count(VD))
          return std::nullopt;
        if (Indices.empty())
          return std::nullopt; // the whole ring: not one stage
        std::optional<int64_t> Stage = Locals.eval(Indices.front());
        if (!Stage)
          throw NotModelled{"the stage index '" + text(Indices.front()) + "' is not known in the pipeline model"};
        Region R;
        R.buffer = VD;
        R.stage = ((*Stage % Stages) + Stages) % Stages;
        for (size_t I = 1; I < Indices.size(); ++I)
          R.within += "[" + text(Indices[I]) + "]";
        R.within += Offsets;
        return R;
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  bool readsComputeLoopsAtTheirFirstTrip() const override { return !OffsetRing.empty(); }

  // A ring at computed offsets: the stage an address falls in, from its
  // uniform byte offset. Who reads what is not told apart here (the thread
  // parts of two addresses are not compared): every read counts as one of
  // other threads' copies, so a block barrier must separate them.
  std::optional<Region> offsetRegionOf(const Expr *E) {
    std::optional<UniformAddress> A = Addresses.of(E);
    if (!A || !OffsetRing.count(A->buffer) || A->offset < OffsetBase || StageBytes <= 0)
      return std::nullopt;
    Region R;
    R.buffer = A->buffer;
    R.stage = ((A->offset - OffsetBase) / StageBytes) % Stages;
    R.within = "read";
    return R;
  }

  // The reads of a ring at computed offsets in S: subscripts and
  // dereferences of a ring buffer, and the address operands of an inline PTX
  // shared-memory load (ldmatrix, ld.shared). An address taken (&) is not a read.
  void scanOffsets(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->getOpcode() == UO_AddrOf)
      return;
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      const std::string Text = Asm->generateAsmString(Ctx);
      if (Text.find("ldmatrix") != std::string::npos || Text.find("ld.shared") != std::string::npos)
        for (const Expr *In : Asm->inputs())
          if (Addresses.holdsAddress(In))
            if (std::optional<Region> R = offsetRegionOf(In))
              read(*R, Asm->getBeginLoc());
      return;
    }
    // A stage's address handed to a function (wmma::load_matrix_sync(frag,
    // &smem[row][col], ld), a load helper given a converted address) is read
    // by it; a conversion of one pointer (__cvta_generic_to_shared(p)) is not.
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const bool Conversion = Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isPointerType();
      if (!Conversion)
        for (const Expr *Arg : Call->arguments())
          if (Addresses.holdsAddress(Arg))
            if (std::optional<Region> R = offsetRegionOf(Arg))
              read(*R, Arg->getBeginLoc());
    }
    const auto *U = dyn_cast<UnaryOperator>(S);
    if (isa<ArraySubscriptExpr>(S) || (U && U->getOpcode() == UO_Deref)) {
      const Expr *E = cast<Expr>(S);
      if (!E->getType()->isArrayType()) // a whole row is an address, not a read
        if (std::optional<Region> R = offsetRegionOf(E)) {
          read(*R, E->getBeginLoc());
          return;
        }
    }
    for (const Stmt *Child : S->children())
      scanOffsets(Child);
  }

  // E as written (once per expression: every trip reads the same text).
  const std::string &text(const Expr *E) {
    auto [It, New] = Texts.try_emplace(E);
    if (New) {
      const SourceManager &SM = Ctx.getSourceManager();
      CharSourceRange Range = CharSourceRange::getTokenRange(SM.getExpansionRange(E->getSourceRange()).getAsRange());
      It->second = Lexer::getSourceText(Range, SM, Ctx.getLangOpts()).str();
    }
    return It->second;
  }

  // Every read of the ring in E: the outermost subscript (or the alias) that
  // names a region; an address handed to a call reads the whole stage.
  void scan(const Stmt *S) override {
    if (!OffsetRing.empty()) {
      scanOffsets(S);
      return;
    }
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
        if (std::optional<Region> R = regionOf(Sub)) {
          read(*R, E->getBeginLoc());
          for (const Stmt *Child : S->children())
            scanIndices(Child);
          return;
        }
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
        if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && Aliases.count(VD)) {
          Region R = Aliases[VD];
          R.within += "*";
          read(R, E->getBeginLoc());
          return;
        }
      if (const auto *Call = dyn_cast<CallExpr>(E)) {
        for (const Expr *Arg : Call->arguments())
          if (Arg->getType()->isPointerType())
            if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(Arg->IgnoreParenImpCasts()))
              if (std::optional<Region> R = regionOf(Sub); R && Sub->getType()->isArrayType()) {
                R->within += "*";
                read(*R, Arg->getBeginLoc());
              }
      }
    }
    for (const Stmt *Child : S->children())
      scan(Child);
  }

  // The indices of a subscript can read the ring too (rarely).
  void scanIndices(const Stmt *S) {
    if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(S)) {
      scan(Sub->getIdx());
      scanIndices(Sub->getBase());
    }
  }

  void read(const Region &R, SourceLocation Loc) {
    const auto Key = std::make_pair(R.buffer, R.stage);
    if (blockPipeline()) {
      PipelineReads.push_back({R, Loc, P.complete, P.releases, P.committed + !P.open.copies.empty(), Epoch,
                               P.lastRelease});
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
    for (const AsyncOperation &O : Ops) {
      if (O.form == AsyncCopyForm::CudaPipeline && O.sync)
        pipelineOf(*O.sync);
      if (blockPipeline() && O.form != AsyncCopyForm::CudaPipeline && O.kind != AsyncEventKind::BlockBarrier)
        throw NotModelled{std::string("a block-scope cuda::pipeline mixed with ") + asyncCopyFormName(O.form)};
      if (Role != 0 && (O.form == AsyncCopyForm::CudaBarrier || O.kind == AsyncEventKind::BlockBarrier))
        throw NotModelled{"a barrier inside one side of a producer/consumer split"};
      switch (O.kind) {
      case AsyncEventKind::Copy: {
        if (O.form == AsyncCopyForm::Bulk)
          throw NotModelled{std::string("the ") + asyncCopyFormName(O.form) + " form's completion is not modelled"};
        const bool Offsets = !OffsetRing.empty();
        std::optional<Region> R =
            !O.destination ? std::nullopt : Offsets ? offsetRegionOf(O.destination) : regionOf(O.destination);
        if (!R)
          throw NotModelled{"a copy's destination is not a stage of the ring"};
        if (Offsets)
          R->within = "copy";
        std::optional<BarrierKey> Barrier;
        if (O.form == AsyncCopyForm::CudaBarrier)
          Barrier = wholeBlockBarrier(O.sync);
        copy(*R, S.getBeginLoc(), Offsets || O.form == AsyncCopyForm::CooperativeGroups || groupCopy(S), Barrier);
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
          consumerWait(S.getBeginLoc());
          break;
        }
        if (!O.pending)
          throw NotModelled{"a wait's number of pending batches is not a constant"};
        if (O.form == AsyncCopyForm::PtxCpAsync && *O.pending == 0 && !P.open.copies.empty())
          commit(); // cp.async.wait_all commits first
        wait(*O.pending, S.getBeginLoc());
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
        P.lastRelease = S.getBeginLoc();
        break;
      case AsyncEventKind::Arrive: {
        const BarrierKey Key = wholeBlockBarrier(O.sync);
        ++Arrivals[Key];
        ArrivalReadSeq[Key].push_back(ReadSeq);
        LastArrival[Key] = S.getBeginLoc();
        break;
      }
      case AsyncEventKind::BarrierWait:
        barrierWait(wholeBlockBarrier(O.sync), S.getBeginLoc());
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
    // A block-scope pipeline's refills are judged against its reads at the end.
    for (const ReadSinceBarrier &Read : blockPipeline() ? std::vector<ReadSinceBarrier>() : Reads[Key])
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
    std::optional<std::string> Scope = scopeOf(VD->getType().getNonReferenceType());
    if (!Scope)
      throw NotModelled{"the cuda::pipeline's scope is not read"};
    O.blockScope = *Scope != "thread_scope_thread";
    if (O.blockScope) {
      if (*Scope != "thread_scope_block")
        throw NotModelled{"a cuda::pipeline of " + *Scope + " is not modelled"};
      std::optional<int64_t> Stages = sharedStateStages(VD->getInit());
      if (!Stages)
        throw NotModelled{"the stage count of the cuda::pipeline's shared state is not read"};
      O.stages = *Stages;
      if (!Reads.empty() || !Last.empty())
        throw NotModelled{"copies before the block-scope cuda::pipeline is used"};
    }
    Pipe = O;
  }

  // The name of the thread_scope enumerator a cuda::pipeline<Scope> (or
  // pipeline_shared_state<Scope, N>) type is instantiated with.
  static std::optional<std::string> scopeOf(QualType T) {
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
    if (!Spec || Spec->getTemplateArgs().size() == 0)
      return std::nullopt;
    const TemplateArgument &A = Spec->getTemplateArgs()[0];
    if (A.getKind() != TemplateArgument::Integral)
      return std::nullopt;
    const auto *Enum = dyn_cast_or_null<EnumDecl>(A.getIntegralType()->getAsTagDecl());
    if (!Enum)
      return std::nullopt;
    for (const EnumConstantDecl *C : Enum->enumerators())
      if (llvm::APSInt::isSameValue(C->getInitVal(), A.getAsIntegral()))
        return C->getNameAsString();
    return std::nullopt;
  }

  // N of the pipeline_shared_state<Scope, N> handed to make_pipeline in Init.
  static std::optional<int64_t> sharedStateStages(const Stmt *Init) {
    if (!Init)
      return std::nullopt;
    if (const auto *Call = dyn_cast<CallExpr>(Init))
      if (const FunctionDecl *FD = Call->getDirectCallee();
          FD && FD->getIdentifier() && FD->getName() == "make_pipeline" && Call->getNumArgs() >= 2) {
        QualType T = Call->getArg(1)->getType();
        if (T->isPointerType())
          T = T->getPointeeType();
        const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
        if (Spec && Spec->getTemplateArgs().size() >= 2 &&
            Spec->getTemplateArgs()[1].getKind() == TemplateArgument::Integral)
          return Spec->getTemplateArgs()[1].getAsIntegral().getExtValue();
        return std::nullopt;
      }
    for (const Stmt *Child : Init->children())
      if (std::optional<int64_t> N = sharedStateStages(Child))
        return N;
    return std::nullopt;
  }

  // A read of a block-scope pipeline's region R, with `complete` stages
  // waited for and `releases` released: every batch up to releases +
  // stages - 1 may have been acquired by then (a producer acquires batch b
  // once every thread has released batch b - stages). A batch in
  // [complete, that bound) that writes R races with the read: an early read
  // when the read has no completed copy of R it still holds, or when this
  // side had itself begun that batch; otherwise a refill of a stage the read
  // may still be reading (it was released first, or the pipeline has more
  // stages than the ring has buffers). A batch begun after a block barrier
  // that follows the read is fenced by it.
  void judgePipelineRead(const PipelineRead &R) {
    auto writes = [&](size_t B) -> const std::pair<Region, SourceLocation> * {
      for (const auto &Copy : Batches[B].copies)
        if (Copy.first.buffer == R.region.buffer && Copy.first.stage == R.region.stage)
          return &Copy;
      return nullptr;
    };
    std::optional<size_t> Held;
    for (size_t B = std::min(R.complete, Batches.size()); B-- > 0;)
      if (writes(B)) {
        Held = B;
        break;
      }
    const size_t End = std::min<size_t>(R.releases + Pipe->stages, Batches.size());
    const std::pair<Region, SourceLocation> *Racing = nullptr;
    size_t RacingBatch = 0;
    for (size_t B = R.complete; B < End && !Racing; ++B)
      if (Batches[B].epoch <= R.epoch)
        if ((Racing = writes(B)))
          RacingBatch = B;
    if (!Racing)
      return;
    PipelineHazard H;
    H.buffer = R.region.buffer;
    H.stage = R.region.stage;
    if (Held && *Held >= R.releases) {
      H.kind = PipelineHazard::BufferReuse;
      H.why = "the pipeline has " + std::to_string(Pipe->stages) + " stages and the ring " + std::to_string(Stages) +
              " buffers, so a producer may acquire the stage while it is read";
      H.fix = "as many pipeline stages as buffers in the ring (pipeline_shared_state<..., " + std::to_string(Stages) +
              ">)";
    } else if (!Held || RacingBatch < R.issued) {
      H.kind = PipelineHazard::EarlyRead;
      H.why = "no consumer_wait covers its stage";
      H.fix = "the pipeline's consumer_wait() before the read";
    } else {
      H.kind = PipelineHazard::BufferReuse;
      H.why = "the stage is released before that read, so a producer may acquire and refill it";
      H.fix = "consumer_release() after the last read of the stage";
      H.wait = R.release;
    }
    const bool Early = H.kind == PipelineHazard::EarlyRead;
    H.at = Early ? R.loc : Racing->second;
    H.other = Early ? Racing->second : R.loc;
    // One finding per read, the first batch it races with.
    if (JudgedReads.insert(Ctx.getSourceManager().getExpansionLoc(R.loc).getRawEncoding()).second)
      report(std::move(H));
  }

  // --- cuda::barrier ----------------------------------------------------------
  // The barrier E names: a variable or an element of an array of them (the
  // index a known local), initialised to count the whole block. A barrier
  // that counts fewer threads (or whose count is not read) does not order
  // the block: not modelled.
  BarrierKey wholeBlockBarrier(const Expr *E) {
    const Expr *Peeled = E ? peelAddress(E) : nullptr;
    int64_t Index = 0;
    if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(Peeled)) {
      std::optional<int64_t> I = Locals.eval(Sub->getIdx());
      if (!I)
        throw NotModelled{"a cuda::barrier's index is not known in the pipeline model"};
      Index = *I;
      Peeled = peelAddress(Sub->getBase());
    }
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Peeled);
    const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!VD)
      throw NotModelled{"a cuda::barrier that is not a named variable or an element of one"};
    auto [It, New] = CountsTheBlock.try_emplace(VD, false);
    if (New)
      It->second = initialisedForTheBlock(*VD);
    if (!It->second)
      throw NotModelled{"the cuda::barrier '" + VD->getNameAsString() +
                        "' is not initialised to count the whole block (init(&bar, block.size()))"};
    return {VD, Index};
  }

  // Every init(&Bar..., count) of Bar in the kernel counts the block:
  // block.size(), num_threads(), or blockDim.
  bool initialisedForTheBlock(const VarDecl &Bar) const {
    bool Seen = false, Whole = true;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S)
        return;
      if (const auto *Call = dyn_cast<CallExpr>(S); Call && Call->getNumArgs() >= 2)
        if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getIdentifier() && FD->getName() == "init")
          if (baseVariable(Call->getArg(0)) == &Bar) {
            Seen = true;
            Whole &= countsTheBlock(Call->getArg(1));
          }
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(Kernel.getBody());
    return Seen && Whole;
  }

  static const VarDecl *baseVariable(const Expr *E) {
    for (int Depth = 0; E && Depth < 8; ++Depth) {
      E = peelAddress(E);
      if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(E))
        E = Sub->getBase();
      else if (const auto *B = dyn_cast_or_null<BinaryOperator>(E); B && B->isAdditiveOp())
        E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
      else if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
        return dyn_cast<VarDecl>(Ref->getDecl());
      else
        return nullptr;
    }
    return nullptr;
  }

  static bool countsTheBlock(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl()->getName() == "blockDim")
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getIdentifier() &&
                                                           (FD->getName() == "size" || FD->getName() == "num_threads"))
        if (const auto *Method = dyn_cast<CXXMethodDecl>(FD); Method && Method->getParent()->getIdentifier() &&
                                                              Method->getParent()->getName() == "thread_block")
          return true;
    for (const Stmt *Child : S->children())
      if (countsTheBlock(Child))
        return true;
    return false;
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

  bool runsRoles() const override { return blockPipeline() || (!Pipe && rolesUseABlockPipeline()); }

  // Before the first pipeline operation has run (a kernel that splits at
  // once): whether the kernel makes a block-scope pipeline.
  bool rolesUseABlockPipeline() const {
    bool Found = false;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
      if (!S || Found)
        return;
      if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
        if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(peelAddress(Call->getImplicitObjectArgument())))
          if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl())) {
            std::optional<std::string> Scope = scopeOf(VD->getType().getNonReferenceType());
            const auto *RD = VD->getType().getNonReferenceType()->getAsCXXRecordDecl();
            Found = Scope && *Scope == "thread_scope_block" && RD && RD->getName() == "pipeline" &&
                    outermostNamespace(RD) == "cuda";
          }
      for (const Stmt *Child : S->children())
        Walk(Child);
    };
    Walk(Kernel.getBody());
    return Found;
  }

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

  std::set<const VarDecl *> Ring;
  const int Stages;
  // A ring at computed offsets (AsyncPipelineFacts::offsetRingBuffers).
  std::set<const VarDecl *> OffsetRing;
  const int64_t OffsetBase, StageBytes;
  UniformAddresses Addresses{Ctx, Locals, isSharedMemoryVariable};
  std::map<const VarDecl *, Region> Aliases;
  std::map<std::pair<const VarDecl *, int64_t>, LastCopy> Last;
  std::map<std::pair<const VarDecl *, int64_t>, std::vector<ReadSinceBarrier>> Reads;
  std::set<std::tuple<int, unsigned, unsigned>> Reported;
  llvm::DenseMap<const Expr *, std::string> Texts;
  const FunctionDecl &Kernel;
  Progress P;                // the side running now
  Progress Saved[3];         // the kernel before a split (0), its two sides (1, 2)
  bool Entered[3] = {false, false, false};
  int Role = 0;
  size_t Epoch = 0;          // block barriers run
  size_t ReadSeq = 0;        // reads run
  // cuda::barrier: this thread's arrivals per barrier, the read count at
  // each, and the last arrival's place.
  std::map<BarrierKey, size_t> Arrivals;
  std::map<BarrierKey, std::vector<size_t>> ArrivalReadSeq;
  std::map<BarrierKey, SourceLocation> LastArrival;
  std::map<const VarDecl *, bool> CountsTheBlock;
  // A block-scope cuda::pipeline: its batches in order, and the reads to judge.
  std::optional<PipelineObject> Pipe;
  std::vector<Batch> Batches;
  std::vector<PipelineRead> PipelineReads;
  std::set<unsigned> JudgedReads;
};

bool insideBody(const FunctionDecl &Kernel, SourceLocation Loc, const SourceManager &SM) {
  const SourceRange Body = Kernel.getBody()->getSourceRange();
  const SourceLocation At = SM.getExpansionLoc(Loc);
  return !SM.isBeforeInTranslationUnit(At, SM.getExpansionLoc(Body.getBegin())) &&
         !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Body.getEnd()), At);
}

} // namespace

std::vector<PipelineHazard> findPipelineHazards(const FunctionDecl &Kernel, AsyncPipelineFacts &Pipeline,
                                                ASTContext &Ctx) {
  if (!Pipeline.stages || (Pipeline.ringVariables.empty() && Pipeline.offsetRingBuffers.empty()) ||
      !Kernel.hasBody()) {
    if (Pipeline.hazardsNotModelled.empty())
      Pipeline.hazardsNotModelled = Pipeline.stages ? "the ring is not an array of arrays" : "the ring is not known";
    return {};
  }
  const SourceManager &SM = Ctx.getSourceManager();
  for (const AsyncCopyEvent &E : Pipeline.events)
    if (!insideBody(Kernel, E.loc, SM)) {
      Pipeline.hazardsNotModelled = "an async operation is in a called function";
      return {};
    }
  Simulation Run(Kernel, Pipeline, Ctx);
  try {
    Run.run(Kernel.getBody());
    Run.finish();
  } catch (const NotModelled &Stop) {
    Pipeline.hazardsNotModelled = Stop.why;
    return {};
  }
  return std::move(Run.Hazards);
}

} // namespace clang::tidy::occlint
