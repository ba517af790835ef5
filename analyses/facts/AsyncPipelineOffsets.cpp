#include "facts/AsyncPipelineOffsets.h"
#include "facts/AsyncPipelineRun.h"
#include "facts/SharedMemoryVariables.h"

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

// A shared address: the buffer and the uniform byte offset into it.
struct Address {
  const VarDecl *buffer = nullptr;
  int64_t offset = 0;
};

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
      if (O.form == AsyncCopyForm::Bulk)
        throw NotModelled{"bulk (TMA) copies"};
      std::optional<Address> A = O.destination ? addressOf(O.destination) : std::nullopt;
      if (!A)
        throw NotModelled{"a copy's destination is not a uniform offset into a __shared__ buffer"};
      if (SteadyLoopDepth == 0)
        continue; // the prologue: its offsets are the first stages, read again in the loop
      const unsigned Site = Ctx.getSourceManager().getExpansionLoc(S.getBeginLoc()).getRawEncoding();
      Offsets[Site].try_emplace(Trip, A->offset);
      Buffers[Site] = A->buffer;
    }
  }

  void declared(const VarDecl &VD, const Expr &Init) override {
    if (std::optional<Address> A = addressOf(&Init))
      Aliases[&VD] = *A;
    else
      Aliases.erase(&VD);
  }

  void scan(const Stmt *) override {}
  void steadyTrip(int T) override { Trip = T; }

  int64_t sizeOf(QualType T) const {
    return T->isIncompleteType() || T->isDependentType() ? 0 : Ctx.getTypeSizeInChars(T).getQuantity();
  }

  // The buffer and uniform byte offset an address expression names.
  std::optional<Address> addressOf(const Expr *E) {
    int64_t Offset = 0;
    for (int Depth = 0; E && Depth < 32; ++Depth) {
      E = peelAddress(E);
      if (!E)
        return std::nullopt;
      if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
        std::optional<LinearValue> I = Locals.linear(S->getIdx());
        if (!I)
          return std::nullopt;
        Offset += I->uniform * sizeOf(S->getType());
        E = S->getBase();
        continue;
      }
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
        const Expr *L = B->getLHS(), *R = B->getRHS();
        const bool LeftPointer = L->getType()->isPointerType() || L->getType()->isArrayType();
        const bool RightPointer = R->getType()->isPointerType() || R->getType()->isArrayType();
        if (LeftPointer || RightPointer) {
          const Expr *Ptr = LeftPointer ? L : R, *Count = LeftPointer ? R : L;
          std::optional<LinearValue> N = Locals.linear(Count);
          if (!N)
            return std::nullopt;
          Offset += (B->getOpcode() == BO_Sub ? -1 : 1) * N->uniform * sizeOf(Ptr->getType()->getPointeeType());
          E = Ptr;
          continue;
        }
        // Integer addresses (a converted shared address plus bytes): the side
        // that holds the address, the other side's uniform bytes.
        const bool AddressLeft = holdsAddress(L);
        if (!AddressLeft && !holdsAddress(R))
          return std::nullopt;
        const Expr *Bytes = AddressLeft ? R : L;
        if (std::optional<LinearValue> N = Locals.linear(Bytes))
          Offset += (B->getOpcode() == BO_Sub ? -1 : 1) * N->uniform;
        else if (!Locals.dependsOnThread(Bytes))
          return std::nullopt; // a uniform offset not known
        // else: a thread-dependent swizzle within the stage (see the header)
        E = AddressLeft ? L : R;
        continue;
      }
      if (const auto *Call = dyn_cast<CallExpr>(E); Call && Call->getNumArgs() == 1 &&
                                                     Call->getArg(0)->getType()->isPointerType()) {
        E = Call->getArg(0); // __cvta_generic_to_shared(p)
        continue;
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
        const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
        if (!VD)
          return std::nullopt;
        if (auto It = Aliases.find(VD); It != Aliases.end())
          return Address{It->second.buffer, It->second.offset + Offset};
        if (isSharedMemoryVariable(*VD))
          return Address{VD, Offset};
        return std::nullopt;
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  bool holdsAddress(const Stmt *S) {
    if (!S)
      return false;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && (Aliases.count(VD) || isSharedMemoryVariable(*VD)))
        return true;
    for (const Stmt *Child : S->children())
      if (holdsAddress(Child))
        return true;
    return false;
  }

  std::map<const VarDecl *, Address> Aliases;
  int Trip = 0;
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
  std::optional<int64_t> Stride;
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
    Pipeline.bytesPerStage = *Stride;
    Pipeline.stagesFrom = "offsets into " + Names + " every " + std::to_string(*Stride) + " B over the trips";
    Pipeline.stagesUnknown.clear();
  } else if (*Stages == 1 && Whole > 0) {
    // Every trip refills the same place: one stage, the whole buffer.
    Pipeline.bytesPerStage = Whole;
    Pipeline.stagesFrom = "one stage: " + Names + " (" + std::to_string(Whole) + " B)";
    Pipeline.stagesUnknown.clear();
  } else {
    Pipeline.bytesPerStage = 0;
    Pipeline.stagesUnknown = "the bytes of the one stage are not readable (a buffer of no constant size)";
  }
  Pipeline.hazardsNotModelled = Stride ? "the ring is at computed offsets: the hazard checks read rings of arrays of arrays"
                                       : "one buffer refilled every trip: the hazard checks read rings of arrays of arrays";
}

} // namespace clang::tidy::occlint
