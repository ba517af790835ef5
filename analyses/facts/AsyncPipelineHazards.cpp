#include "facts/AsyncPipelineHazards.h"
#include "facts/AsyncPipelineRun.h"
#include "facts/SharedMemoryVariables.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

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
};

struct LastCopy {
  size_t batch = 0;
  SourceLocation loc;
  std::string within;
  bool group = false;   // a whole group's copy: other threads wrote parts of it
  bool visible = false; // a block barrier came after its completion
};

struct ReadSinceBarrier {
  SourceLocation loc;
  std::string within;
};

class Simulation final : public PipelineRun {
public:
  Simulation(const AsyncPipelineFacts &Pipeline, ASTContext &Ctx)
      : PipelineRun(Ctx, 2 * *Pipeline.stages + 3),
        Ring(Pipeline.ringVariables.begin(), Pipeline.ringVariables.end()), Stages(*Pipeline.stages),
        OffsetRing(Pipeline.offsetRingBuffers.begin(), Pipeline.offsetRingBuffers.end()),
        OffsetBase(Pipeline.offsetRingBase), StageBytes(Pipeline.bytesPerStage) {}

  std::vector<PipelineHazard> Hazards;

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
    if (auto It = Last.find(Key); It != Last.end()) {
      const LastCopy &C = It->second;
      const bool Complete = C.batch < CompleteBatches;
      const bool Others = C.group || C.within != R.within;
      PipelineHazard H;
      H.kind = PipelineHazard::EarlyRead;
      H.buffer = R.buffer;
      H.stage = R.stage;
      H.at = Loc;
      H.other = C.loc;
      H.wait = LastWait;
      if (!Complete) {
        if (C.batch >= Committed) {
          H.why = "its batch is not committed";
          H.fix = "commit the copies, then wait for them before the read";
        } else if (LastWait.isInvalid()) {
          H.why = "no wait covers its batch";
          H.fix = "a wait with " + std::to_string(Committed - C.batch - 1) + " pending (or fewer) before the read";
        } else {
          H.why = "the last wait leaves the " + std::to_string(Committed - CompleteBatches) +
                  " most recent batches in flight, and the copy is in one of them";
          H.fix = "wait with " + std::to_string(Committed - C.batch - 1) + " pending instead of " +
                  std::to_string(Committed - CompleteBatches);
        }
        report(std::move(H));
      } else if (Others && !C.visible) {
        H.why = "other threads made the copy and no block barrier follows the wait that completes it";
        H.fix = "a __syncthreads() (or the group's sync) between the wait and the read";
        report(std::move(H));
      }
    }
    Reads[Key].push_back({Loc, R.within});
  }

  void operate(const Stmt &S, const std::vector<AsyncOperation> &Ops) override {
    for (const AsyncOperation &O : Ops) {
      switch (O.kind) {
      case AsyncEventKind::Copy: {
        if (O.form == AsyncCopyForm::Bulk || O.form == AsyncCopyForm::CudaBarrier)
          throw NotModelled{std::string("the ") + asyncCopyFormName(O.form) + " form's completion is not modelled"};
        const bool Offsets = !OffsetRing.empty();
        std::optional<Region> R =
            !O.destination ? std::nullopt : Offsets ? offsetRegionOf(O.destination) : regionOf(O.destination);
        if (!R)
          throw NotModelled{"a copy's destination is not a stage of the ring"};
        if (Offsets)
          R->within = "copy";
        copy(*R, S.getBeginLoc(), Offsets || O.form == AsyncCopyForm::CooperativeGroups || groupCopy(S));
        if (O.form == AsyncCopyForm::CooperativeGroups)
          commit(); // each cooperative-groups copy is a batch of its own
        break;
      }
      case AsyncEventKind::Commit:
        commit();
        break;
      case AsyncEventKind::Wait:
        if (!O.pending)
          throw NotModelled{"a wait's number of pending batches is not a constant"};
        if (O.form == AsyncCopyForm::CudaPipeline && isa<CXXMemberCallExpr>(S))
          throw NotModelled{"cuda::pipeline's consumer_wait (the oldest stage) is not modelled"};
        if (O.form == AsyncCopyForm::PtxCpAsync && *O.pending == 0 && !Open.copies.empty())
          commit(); // cp.async.wait_all commits first
        wait(*O.pending, S.getBeginLoc());
        if (O.form == AsyncCopyForm::CooperativeGroups)
          barrier(); // cg::wait / wait_prior synchronise the group
        break;
      case AsyncEventKind::BlockBarrier:
        barrier();
        break;
      case AsyncEventKind::Acquire:
      case AsyncEventKind::Release:
        throw NotModelled{"cuda::pipeline's producer_acquire / consumer_release are not modelled"};
      case AsyncEventKind::Arrive:
      case AsyncEventKind::BarrierWait:
        throw NotModelled{"cuda::barrier completions are not modelled"};
      }
    }
  }

  // cuda::memcpy_async(group, ...): the group's copy.
  static bool groupCopy(const Stmt &S) {
    const auto *Call = dyn_cast<CallExpr>(&S);
    return Call && Call->getNumArgs() >= 5;
  }

  void copy(const Region &R, SourceLocation Loc, bool Group) {
    const auto Key = std::make_pair(R.buffer, R.stage);
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
    Open.copies.push_back({R, Loc});
    LastCopy C;
    C.batch = Committed; // the open batch's index once committed
    C.loc = Loc;
    C.within = R.within;
    C.group = Group;
    Last[Key] = C;
  }

  void commit() {
    ++Committed;
    Open = Batch();
  }

  void wait(int64_t Pending, SourceLocation Loc) {
    const size_t Complete = Pending >= int64_t(Committed) ? 0 : Committed - size_t(Pending);
    CompleteBatches = std::max(CompleteBatches, Complete);
    LastWait = Loc;
  }

  void barrier() {
    for (auto &[Key, C] : Last)
      if (C.batch < CompleteBatches)
        C.visible = true;
    Reads.clear();
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
  Batch Open;
  size_t Committed = 0, CompleteBatches = 0;
  SourceLocation LastWait;
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
  Simulation Run(Pipeline, Ctx);
  try {
    Run.run(Kernel.getBody());
  } catch (const NotModelled &Stop) {
    Pipeline.hazardsNotModelled = Stop.why;
    return {};
  }
  return std::move(Run.Hazards);
}

} // namespace clang::tidy::occlint
