#include "pipelines/AsyncPipeline.h"
#include "ast/CudaBuiltinVariables.h"
#include "ast/SharedMemoryVariables.h"
#include "pipelines/AsyncPipelineOffsets.h"

#include "ast/AstWalker.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <map>
#include <set>

namespace clang::tidy::occlint {

namespace {

CopyDestination destinationOf(const Expr *E, int Depth) {
  CopyDestination Out;
  const Expr *FirstIndex = nullptr;
  while (E && Depth < 8) {
    E = peelAddress(E);
    if (const auto *S = dyn_cast<ArraySubscriptExpr>(E)) {
      FirstIndex = S->getIdx(); // the last one met is the one next to the variable
      E = S->getBase();
      continue;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
      const bool LeftIsPointer = B->getLHS()->getType()->isPointerType() || B->getLHS()->getType()->isArrayType();
      E = LeftIsPointer ? B->getLHS() : B->getRHS();
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // __cvta_generic_to_shared(p) and the like: the address they convert.
      if (Call->getNumArgs() == 1 && Call->getArg(0)->getType()->isPointerType()) {
        E = Call->getArg(0);
        continue;
      }
      return Out;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (!VD)
        return Out;
      if (isSharedMemoryVariable(*VD)) {
        Out.buffer = VD;
        Out.firstIndex = FirstIndex;
        return Out;
      }
      // A local pointer (or an integer address) set once from a shared address.
      if (VD->isLocalVarDecl() && VD->getInit() && !FirstIndex) {
        E = VD->getInit();
        ++Depth;
        continue;
      }
      return Out;
    }
    return Out;
  }
  return Out;
}

bool mentionsThreadIndex(const Stmt *S, int Depth = 0) {
  if (!S || Depth > 3)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<BuiltinComponent> B = builtinMember(E); B && B->variable == "threadIdx")
      return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && VD->isLocalVarDecl() && VD->getInit())
      if (mentionsThreadIndex(VD->getInit(), Depth + 1))
        return true;
  for (const Stmt *Child : S->children())
    if (mentionsThreadIndex(Child, Depth))
      return true;
  return false;
}

class Collector : public AstWalker {
public:
  explicit Collector(ASTContext &Ctx) : Ctx(Ctx) { VisitTemplateInstantiations = true; }

  void walkFunction(const FunctionDecl &FD, int Depth) {
    if (!FD.hasBody() || Depth > 4 || !Walked.insert(&FD).second)
      return;
    traverseStmt(FD.getBody());
    // The user's device functions it calls, after the body.
    std::vector<const FunctionDecl *> Callees = std::move(Pending);
    Pending.clear();
    for (const FunctionDecl *Callee : Callees)
      walkFunction(*Callee, Depth + 1);
  }

  // An `if` is walked here rather than by AstWalker: what its branches copy
  // is conditional when its condition depends on the thread.
  bool enterStmt(Stmt *S) override {
    auto *If = dyn_cast<IfStmt>(S);
    if (!If)
      return true;
    traverseStmt(If->getInit());
    traverseStmt(If->getConditionVariableDeclStmt());
    traverseStmt(If->getCond());
    const bool ThreadCondition = mentionsThreadIndex(If->getCond());
    if (ThreadCondition)
      Conditions.push_back(If->getBeginLoc());
    traverseStmt(If->getThen());
    traverseStmt(If->getElse());
    if (ThreadCondition)
      Conditions.pop_back();
    return false; // walked
  }

  bool visitDecl(Decl *D) override {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      return true;
    // cuda::pipeline_shared_state<scope, N>: the ring's depth by construction.
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(VD->getType()->getAsCXXRecordDecl());
    if (Spec && Spec->getIdentifier() && Spec->getName() == "pipeline_shared_state" &&
        outermostNamespace(Spec) == "cuda")
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray().drop_front())
        if (A.getKind() == TemplateArgument::Integral)
          SharedStateStages = A.getAsIntegral().getExtValue();
    return true;
  }

  bool visitStmt(Stmt *S) override {
    std::vector<AsyncOperation> Operations = recogniseAsyncOperations(*S, Ctx);
    for (const AsyncOperation &O : Operations) {
      if (O.kind == AsyncEventKind::BlockBarrier)
        continue;
      if (O.kind == AsyncEventKind::Copy) {
        addCopy(O, S->getBeginLoc());
        continue;
      }
      AsyncCopyEvent &E = add(O.kind, O.form, S->getBeginLoc());
      E.pending = O.pending;
    }
    if (Operations.empty())
      if (const auto *Call = dyn_cast<CallExpr>(S))
        if (const FunctionDecl *Definition = programFunctionCalled(*Call, Ctx))
          Pending.push_back(Definition);
    return true;
  }

  std::vector<AsyncCopyEvent> Events;
  std::vector<AsyncCopyForm> Forms;
  std::optional<int64_t> SharedStateStages;
  std::vector<SourceLocation> ConditionalCopies;

private:
  AsyncCopyEvent &add(AsyncEventKind Kind, AsyncCopyForm Form, SourceLocation Loc) {
    if (std::find(Forms.begin(), Forms.end(), Form) == Forms.end())
      Forms.push_back(Form);
    AsyncCopyEvent E;
    E.kind = Kind;
    E.form = Form;
    E.loc = Ctx.getSourceManager().getExpansionLoc(Loc); // a macro's use, as the user wrote it
    Events.push_back(E);
    return Events.back();
  }

  void addCopy(const AsyncOperation &O, SourceLocation Loc) {
    AsyncCopyEvent &E = add(AsyncEventKind::Copy, O.form, Loc);
    if (!Conditions.empty())
      ConditionalCopies.push_back(Conditions.back());
    const CopyDestination D = copyDestinationOf(O.destination);
    E.buffer = D.buffer;
    if (D.buffer && D.firstIndex) {
      // A stage index is the same in every thread of the block: a first
      // index that depends on the thread is a row of one tile
      // (As[threadIdx.y][tx]), not a stage.
      E.threadIndexed = mentionsThreadIndex(D.firstIndex);
      E.constantStage = E.threadIndexed ? std::nullopt : constantIntegerOf(D.firstIndex, Ctx);
      E.runtimeStage = !E.threadIndexed && !E.constantStage;
    }
    E.bytes = O.bytes;
  }

  ASTContext &Ctx;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Walked;
  std::vector<const FunctionDecl *> Pending;
  std::vector<SourceLocation> Conditions;
};

std::string bytesText(int64_t Bytes) { return std::to_string(Bytes) + " B"; }

// The ring from the copies' destinations (see the header).
void readRing(const Collector &C, ASTContext &Ctx, AsyncPipelineFacts &Out) {
  struct Uses {
    std::set<int64_t> constants;
    bool runtime = false;
    bool threadIndexed = false;
  };
  std::map<const VarDecl *, Uses> ByBuffer;
  std::vector<const VarDecl *> Order;
  bool Unreadable = false;
  for (const AsyncCopyEvent &E : C.Events) {
    if (E.kind != AsyncEventKind::Copy)
      continue;
    if (!E.buffer) {
      Unreadable = true;
      continue;
    }
    if (!ByBuffer.count(E.buffer))
      Order.push_back(E.buffer);
    Uses &U = ByBuffer[E.buffer];
    if (E.constantStage)
      U.constants.insert(*E.constantStage);
    U.runtime |= E.runtimeStage;
    U.threadIndexed |= E.threadIndexed;
  }
  std::optional<int64_t> Stages;
  int64_t Bytes = 0;
  std::string From;
  std::string Why;
  for (const VarDecl *V : Order) {
    const Uses &U = ByBuffer[V];
    const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
    const bool Ring =
        Outer && Outer->getElementType()->isArrayType() && !U.threadIndexed && (U.runtime || U.constants.size() > 1);
    if (!Ring) {
      Why = U.threadIndexed ? "the copies into '" + V->getNameAsString() +
                                  "' index its first dimension by thread (rows of one tile, not stages)"
                            : "the copies into '" + V->getNameAsString() + "' do not index a stage dimension";
      continue;
    }
    const int64_t S = Outer->getSize().getSExtValue();
    const int64_t Size = Ctx.getTypeSizeInChars(V->getType()).getQuantity();
    if (Stages && *Stages != S) {
      Why = "the ring variables disagree on the number of stages (" + std::to_string(*Stages) + " and " +
            std::to_string(S) + ")";
      Stages.reset();
      break;
    }
    Stages = S;
    Bytes += S > 0 ? Size / S : 0;
    Out.ringVariables.push_back(V);
    From += (From.empty() ? "'" : ", '") + V->getNameAsString() + "'";
  }
  if (Stages && Why.empty() && !Unreadable) {
    Out.stages = int(*Stages);
    Out.bytesPerStage = Bytes;
    Out.stagesFrom = From + " (" + std::to_string(*Stages) + " x " + bytesText(Bytes) + ")";
    return;
  }
  if (Unreadable && Why.empty())
    Why = "a copy's destination is not a __shared__ variable read here (dynamic shared memory at a computed offset)";
  Out.ringVariables.clear();
  if (C.SharedStateStages) {
    Out.stagesFrom = "cuda::pipeline_shared_state<..., " + std::to_string(*C.SharedStateStages) + ">";
    Out.stagesUnknown = "the bytes of a stage are not readable: " + Why;
    Out.stages = int(*C.SharedStateStages);
    return;
  }
  Out.stagesUnknown = Why;
}

} // namespace

CopyDestination copyDestinationOf(const Expr *Address) { return destinationOf(Address, 0); }

std::optional<AsyncPipelineFacts> describeAsyncPipeline(const FunctionDecl &Kernel, ASTContext &Ctx) {
  Collector C(Ctx);
  C.walkFunction(Kernel, 0);
  auto FirstCopy = std::find_if(C.Events.begin(), C.Events.end(),
                                [](const AsyncCopyEvent &E) { return E.kind == AsyncEventKind::Copy; });
  if (FirstCopy == C.Events.end())
    return std::nullopt;
  AsyncPipelineFacts Out;
  Out.forms = C.Forms;
  Out.firstCopy = FirstCopy->loc;
  readRing(C, Ctx, Out);
  if (!Out.stages || Out.bytesPerStage <= 0) {
    // Not an array of arrays: the stages may be offsets into one buffer.
    AsyncPipelineFacts ByOffsets = Out;
    ByOffsets.stages.reset();
    readOffsetRing(Kernel, ByOffsets, Ctx);
    if (ByOffsets.stages && (ByOffsets.bytesPerStage > 0 || ByOffsets.offsetRingStride == WholeBufferStage))
      Out = std::move(ByOffsets);
    else if (!Out.stages)
      Out.stagesUnknown = Out.stagesUnknown + "; " + ByOffsets.stagesUnknown;
  }
  if (C.ConditionalCopies.empty()) {
    Out.producer = "all threads";
  } else {
    const SourceManager &SM = Ctx.getSourceManager();
    Out.producer = "threads under a condition on the thread index (line " +
                   std::to_string(SM.getExpansionLineNumber(C.ConditionalCopies.front())) + ")";
  }
  Out.events = std::move(C.Events);
  Out.loopWork = describePipelineLoopWork(Kernel, Ctx);
  for (const auto *Buffers : {&Out.ringVariables, &Out.offsetRingBuffers})
    for (const VarDecl *B : *Buffers)
      Out.ringInDynamicSharedMemory |= B->getType()->isIncompleteArrayType() || B->hasExternalStorage();
  return Out;
}

} // namespace clang::tidy::occlint
