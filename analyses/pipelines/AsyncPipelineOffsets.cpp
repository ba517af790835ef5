#include "pipelines/AsyncPipelineOffsets.h"
#include "ast/SharedMemoryVariables.h"
#include "pipelines/AsyncPipelineRun.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <map>
#include <set>

namespace clang::tidy::occlint {

namespace {

// Trips of the steady loop the offsets are read over: two periods of a ring
// of up to 8 stages.
constexpr int OffsetTrips = 16;

class OffsetRun final : public PipelineRun {
public:
  explicit OffsetRun(ASTContext &Ctx) : PipelineRun(Ctx, OffsetTrips) {}

  // Per copy site (its location), the first uniform offset it wrote in each
  // steady trip, and the buffer.
  std::map<unsigned, std::map<int, int64_t>> Offsets;
  std::map<unsigned, const VarDecl *> Buffers;

private:
  void operate(const Stmt &S, const std::vector<AsyncOperation> &Ops) override {
    for (const AsyncOperation &O : Ops) {
      if (O.kind != AsyncEventKind::Copy)
        continue;
      std::optional<UniformAddress> A = O.destination ? addressOf(O.destination) : std::nullopt;
      if (!A)
        throw NotModelled{"a copy's destination is not a uniform offset into a __shared__ buffer"};
      if (SteadyLoopDepth == 0)
        continue; // the prologue: its offsets are the first stages, read again in the loop
      const unsigned Site = Ctx.getSourceManager().getExpansionLoc(S.getBeginLoc()).getRawEncoding();
      Offsets[Site].try_emplace(Trip, A->offset);
      Buffers[Site] = A->buffer;
    }
  }

  void declared(const VarDecl &VD, const Expr &Init) override { Addresses.declared(VD, Init); }

  void scan(const Stmt *) override {}
  void steadyTrip(int T) override { Trip = T; }

  std::optional<UniformAddress> addressOf(const Expr *E) { return Addresses.of(E); }

  UniformAddresses Addresses{Ctx, Locals, isSharedMemoryVariable};
  int Trip = 0;
};

// One steady trip with the block's thread indices bounded: the lowest and
// highest byte the copies write, in the one buffer they fill.
class SpanRun final : public PipelineRun {
public:
  SpanRun(ASTContext &Ctx, std::array<int64_t, 3> Block) : PipelineRun(Ctx, 1) {
    Locals.setBlock(Block[0], Block[1], Block[2]);
  }

  std::optional<int64_t> Lo, Hi;
  const VarDecl *Buffer = nullptr;

private:
  void operate(const Stmt &, const std::vector<AsyncOperation> &Ops) override {
    for (const AsyncOperation &O : Ops) {
      if (O.kind != AsyncEventKind::Copy || SteadyLoopDepth == 0)
        continue;
      std::optional<UniformAddress> A = O.destination ? Addresses.of(O.destination) : std::nullopt;
      if (!A || !O.bytes)
        throw NotModelled{"a copy's destination or size is not read"};
      if (!A->threadBytes)
        throw NotModelled{"a copy's offset over the threads is not bounded"};
      if (Buffer && Buffer != A->buffer)
        throw NotModelled{"the copies fill more than one buffer"};
      Buffer = A->buffer;
      const int64_t From = A->offset + A->threadBytes->lo, To = A->offset + A->threadBytes->hi + *O.bytes;
      Lo = Lo ? std::min(*Lo, From) : From;
      Hi = Hi ? std::max(*Hi, To) : To;
    }
  }

  void declared(const VarDecl &VD, const Expr &Init) override { Addresses.declared(VD, Init); }
  void scan(const Stmt *) override {}

  UniformAddresses Addresses{Ctx, Locals, isSharedMemoryVariable};
};

// The smallest period of a trip-indexed sequence (every trip present).
int periodOf(const std::vector<int64_t> &Seq) {
  for (size_t P = 1; P <= Seq.size() / 2; ++P) {
    bool Periodic = true;
    for (size_t I = 0; I + P < Seq.size() && Periodic; ++I)
      Periodic = Seq[I] == Seq[I + P];
    if (Periodic)
      return int(P);
  }
  return 0;
}

} // namespace

void readOffsetRing(const FunctionDecl &Kernel, AsyncPipelineFacts &Pipeline, ASTContext &Ctx) {
  if (!Kernel.hasBody())
    return;
  OffsetRun Run(Ctx);
  try {
    Run.run(Kernel.getBody());
  } catch (const NotModelled &Stop) {
    Pipeline.stagesUnknown = "the stages at computed offsets are not read: " + Stop.why;
    return;
  }
  if (Run.Offsets.empty()) {
    Pipeline.stagesUnknown = "no copy in a pipelined loop";
    return;
  }
  std::optional<int> Stages;
  std::optional<int64_t> Stride, Base;
  std::set<const VarDecl *> Buffers;
  for (const auto &[Site, ByTrip] : Run.Offsets) {
    std::vector<int64_t> Seq;
    for (int T = 0; T < OffsetTrips; ++T) {
      auto It = ByTrip.find(T);
      if (It == ByTrip.end()) {
        Pipeline.stagesUnknown = "a copy in the pipelined loop does not run on every trip";
        return;
      }
      Seq.push_back(It->second);
    }
    const int P = periodOf(Seq);
    if (P == 0) {
      Pipeline.stagesUnknown = "a copy's offsets over the trips are not periodic";
      return;
    }
    std::vector<int64_t> Distinct(Seq.begin(), Seq.begin() + P);
    std::sort(Distinct.begin(), Distinct.end());
    Base = Base ? std::min(*Base, Distinct.front()) : Distinct.front();
    if (std::adjacent_find(Distinct.begin(), Distinct.end()) != Distinct.end()) {
      Pipeline.stagesUnknown = "a copy writes the same offset twice in one period";
      return;
    }
    std::optional<int64_t> D;
    for (size_t I = 1; I < Distinct.size(); ++I) {
      const int64_t Step = Distinct[I] - Distinct[I - 1];
      if (D && *D != Step) {
        Pipeline.stagesUnknown = "a copy's offsets are not evenly spaced";
        return;
      }
      D = Step;
    }
    if ((Stages && *Stages != P) || (Stride && D && *Stride != *D)) {
      Pipeline.stagesUnknown = "the copies disagree on the stages";
      return;
    }
    Stages = P;
    if (D)
      Stride = D;
    Buffers.insert(Run.Buffers[Site]);
  }
  Pipeline.stages = *Stages;
  std::string Names;
  int64_t Whole = 0; // one stage: the buffers it fills, when their sizes are known
  for (const VarDecl *B : Buffers) {
    Names += (Names.empty() ? "'" : ", '") + B->getNameAsString() + "'";
    const QualType T = B->getType();
    Whole = Whole >= 0 && !T->isIncompleteType() && T->isConstantSizeType()
                ? Whole + Ctx.getTypeSizeInChars(T).getQuantity()
                : -1;
  }
  if (Stride) {
    // Each buffer holds its part of every stage, Stride apart (one buffer:
    // all of a stage; As and Bs: each its operand).
    Pipeline.offsetRingStride = *Stride;
    Pipeline.bytesPerStage = *Stride * int64_t(Buffers.size());
    Pipeline.stagesFrom = "offsets into " + Names + " every " + std::to_string(*Stride) + " B over the trips";
    Pipeline.stagesUnknown.clear();
  } else if (*Stages == 1 && Whole > 0) {
    // Every trip refills the same place: one stage, the whole buffer.
    Pipeline.bytesPerStage = Whole;
    Pipeline.offsetRingStride = Whole;
    Pipeline.stagesFrom = "one stage: " + Names + " (" + std::to_string(Whole) + " B)";
    Pipeline.stagesUnknown.clear();
  } else {
    // One stage in a buffer of no constant size (`extern __shared__ T
    // smem[]`): every copy refills it, so its hazards are read with the whole
    // buffer as the stage; its bytes wait for the launch's block
    // (oneStageSpan below, called from facts/TranslationUnitFacts).
    Pipeline.bytesPerStage = 0;
    Pipeline.offsetRingStride = WholeBufferStage;
    Pipeline.stagesFrom = Names;
    Pipeline.stagesUnknown = "the bytes of the one stage are not readable (a buffer of no constant size)";
  }
  if (Pipeline.bytesPerStage > 0 || Pipeline.offsetRingStride == WholeBufferStage) {
    // The hazard run reads the stages from the same offsets (pipelines/AsyncPipelineHazards.h).
    Pipeline.offsetRingBuffers.assign(Buffers.begin(), Buffers.end());
    Pipeline.offsetRingBase = *Base;
  }
}

std::optional<int64_t> oneStageSpan(const FunctionDecl &Kernel, std::array<int64_t, 3> Block, ASTContext &Ctx,
                                    std::string &Why) {
  if (!Kernel.hasBody())
    return std::nullopt;
  SpanRun Run(Ctx, Block);
  try {
    Run.run(Kernel.getBody());
  } catch (const NotModelled &Stop) {
    Why = Stop.why;
    return std::nullopt;
  }
  if (!Run.Lo || *Run.Hi <= *Run.Lo) {
    Why = "no copy in the pipelined loop";
    return std::nullopt;
  }
  int64_t Span = *Run.Hi - *Run.Lo;
  // `T smem[][W]`: the stage holds whole rows (a row's padding included).
  if (const auto *Rows = Ctx.getAsIncompleteArrayType(Run.Buffer->getType()))
    if (Rows->getElementType()->isConstantSizeType()) {
      const int64_t RowBytes = Ctx.getTypeSizeInChars(Rows->getElementType()).getQuantity();
      if (RowBytes > 0)
        Span = (Span + RowBytes - 1) / RowBytes * RowBytes;
    }
  return Span;
}

} // namespace clang::tidy::occlint
