#include "pipelines/AsyncPipelineWork.h"
#include "pipelines/AsyncOperations.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Regex.h"

#include <algorithm>
#include <cmath>

namespace clang::tidy::occlint {

namespace {

bool isCompletion(AsyncEventKind K) { return K == AsyncEventKind::Wait || K == AsyncEventKind::BarrierWait; }

const VarDecl *variableOf(const Expr *E) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

// `for (int i = c0; i < E; i += c)` with c0, E and c constants: its trips.
std::optional<int64_t> constantTrips(const ForStmt &F, ASTContext &Ctx) {
  const VarDecl *V = nullptr;
  std::optional<int64_t> Start;
  if (const auto *D = dyn_cast_or_null<DeclStmt>(F.getInit()); D && D->isSingleDecl()) {
    V = dyn_cast<VarDecl>(D->getSingleDecl());
    Start = V ? constantIntegerOf(V->getInit(), Ctx) : std::nullopt;
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(F.getInit()); A && A->getOpcode() == BO_Assign) {
    V = variableOf(A->getLHS());
    Start = constantIntegerOf(A->getRHS(), Ctx);
  }
  if (!V || !Start || !V->getType()->isIntegerType())
    return std::nullopt;
  std::optional<int64_t> Step;
  const Expr *Inc = F.getInc() ? F.getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc); U && variableOf(U->getSubExpr()) == V)
    Step = U->isIncrementOp() ? 1 : U->isDecrementOp() ? -1 : std::optional<int64_t>();
  else if (const auto *C = dyn_cast_or_null<CompoundAssignOperator>(Inc); C && variableOf(C->getLHS()) == V) {
    if (auto By = constantIntegerOf(C->getRHS(), Ctx))
      Step = C->getOpcode() == BO_AddAssign ? *By : C->getOpcode() == BO_SubAssign ? -*By : std::optional<int64_t>();
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F.getCond() ? F.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Step || *Step == 0 || !Cond)
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  std::optional<int64_t> End;
  if (variableOf(Cond->getLHS()) == V) {
    End = constantIntegerOf(Cond->getRHS(), Ctx);
  } else if (variableOf(Cond->getRHS()) == V) {
    End = constantIntegerOf(Cond->getLHS(), Ctx);
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!End)
    return std::nullopt;
  const int64_t S = *Step, From = *Start, To = *End;
  int64_t Trips = -1;
  if (Op == BO_LT && S > 0)
    Trips = To > From ? (To - From + S - 1) / S : 0;
  else if (Op == BO_LE && S > 0)
    Trips = To >= From ? (To - From) / S + 1 : 0;
  else if (Op == BO_GT && S < 0)
    Trips = From > To ? (From - To - S - 1) / -S : 0;
  else if (Op == BO_GE && S < 0)
    Trips = From >= To ? (From - To) / -S + 1 : 0;
  else if (Op == BO_NE && (S == 1 || S == -1) && (To - From) * S >= 0)
    Trips = (To - From) * S;
  if (Trips < 0 || Trips > 1'000'000)
    return std::nullopt;
  return Trips;
}

struct Work {
  double fp = 0, tensor = 0; // FP ops per thread, tensor FLOPs per warp
  bool any() const { return fp > 0 || tensor > 0; }
  Work &operator+=(const Work &O) {
    fp += O.fp;
    tensor += O.tensor;
    return *this;
  }
};

// The FLOPs of the MMA shapes in an inline PTX string: per warp.
double tensorFlopsOfPtx(llvm::StringRef Text) {
  static const llvm::Regex Mma("(wgmma\\.mma_async|mma\\.sync)[a-z0-9_.]*\\.m([0-9]+)n([0-9]+)k([0-9]+)");
  double Flops = 0;
  llvm::SmallVector<llvm::StringRef, 5> M;
  while (Mma.match(Text, &M)) {
    double Shape = 2.0 * std::stod(M[2].str()) * std::stod(M[3].str()) * std::stod(M[4].str());
    Flops += M[1].starts_with("wgmma") ? Shape / 4 : Shape; // a warp group is 4 warps
    Text = Text.substr(Text.find(M[0]) + M[0].size());
  }
  return Flops;
}

double fpOpsOfPtx(llvm::StringRef Text) {
  static const llvm::Regex Fma("fma\\.rn[a-z0-9_.]*\\.f(16x2|32|64|16)");
  double Ops = 0;
  llvm::SmallVector<llvm::StringRef, 2> M;
  while (Fma.match(Text, &M)) {
    Ops += M[1] == "16x2" ? 4 : 2;
    Text = Text.substr(Text.find(M[0]) + M[0].size());
  }
  return Ops;
}

// wmma::mma_sync(d, a, b, c): the shape from d's fragment<use, M, N, K, T>.
std::optional<double> wmmaFlops(const CallExpr &Call) {
  if (Call.getNumArgs() < 1)
    return std::nullopt;
  const auto *Record = Call.getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(Record);
  if (!Spec || Spec->getName() != "fragment" || Spec->getTemplateArgs().size() < 4)
    return std::nullopt;
  double Shape = 2;
  for (unsigned I = 1; I <= 3; ++I) {
    const TemplateArgument &A = Spec->getTemplateArgs()[I];
    if (A.getKind() != TemplateArgument::Integral)
      return std::nullopt;
    Shape *= double(A.getAsIntegral().getExtValue());
  }
  return Shape;
}

class LoopWorkReader {
public:
  explicit LoopWorkReader(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The innermost loop of S holding a copy and a completion (first in source order).
  const Stmt *pipelinedLoop(const Stmt *S) {
    if (!S)
      return nullptr;
    for (const Stmt *Child : S->children())
      if (const Stmt *L = pipelinedLoop(Child))
        return L;
    if (const Stmt *Body = loopBody(S)) {
      const Holds H = holds(Body);
      if (H.copy && H.completion)
        return S;
    }
    return nullptr;
  }

  /// The work of S per thread (FP ops) and per warp (tensor FLOPs); nullopt
  /// when a loop with arithmetic has no constant trip count (Why says where).
  std::optional<Work> work(const Stmt *S, int CallDepth = 0) {
    Work Out;
    if (!S)
      return Out;
    if (const auto *F = dyn_cast<ForStmt>(S)) {
      std::optional<Work> Body = work(F->getBody(), CallDepth);
      if (!Body)
        return std::nullopt;
      if (!Body->any())
        return Out;
      std::optional<int64_t> Trips = constantTrips(*F, Ctx);
      if (!Trips)
        return unknown(*S, "a loop with arithmetic whose trip count is not a constant");
      Out.fp = Body->fp * double(*Trips);
      Out.tensor = Body->tensor * double(*Trips);
      return Out;
    }
    if (isa<WhileStmt>(S) || isa<DoStmt>(S) || isa<CXXForRangeStmt>(S)) {
      std::optional<Work> Body = work(loopBody(S), CallDepth);
      if (!Body)
        return std::nullopt;
      if (Body->any())
        return unknown(*S, "a loop with arithmetic whose trip count is not a constant");
      return Out;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (std::optional<bool> Taken = constantCondition(*If))
        return work(*Taken ? If->getThen() : If->getElse(), CallDepth);
      if (!If->getElse())
        return Out; // the lighter side: nothing
      std::optional<Work> Then = work(If->getThen(), CallDepth), Else = work(If->getElse(), CallDepth);
      if (!Then || !Else)
        return std::nullopt;
      return Then->fp + Then->tensor <= Else->fp + Else->tensor ? Then : Else;
    }
    if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
      std::optional<Work> A = work(C->getTrueExpr(), CallDepth), B = work(C->getFalseExpr(), CallDepth);
      if (!A || !B)
        return std::nullopt;
      return A->fp + A->tensor <= B->fp + B->tensor ? A : B;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      const std::string Text = Asm->generateAsmString(Ctx);
      Out.tensor = tensorFlopsOfPtx(Text);
      Out.fp = fpOpsOfPtx(Text);
      return Out;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && isFloatingArithmetic(*B))
      Out.fp += 1;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      std::optional<Work> Callee = callWork(*Call, CallDepth);
      if (!Callee)
        return std::nullopt;
      Out += *Callee;
      if (Callee->any() && isNamedArithmetic(*Call))
        return Out; // its operands are values, counted by the call
    }
    for (const Stmt *Child : S->children()) {
      std::optional<Work> W = work(Child, CallDepth);
      if (!W)
        return std::nullopt;
      Out += *W;
    }
    return Out;
  }

  /// Whether S does anything a copy in flight could overlap: FP or tensor
  /// arithmetic, a memory access, a call that is not an async operation.
  bool doesWork(const Stmt *S, bool UnderAddressOf = false, int CallDepth = 0) {
    if (!S)
      return false;
    if (!recogniseAsyncOperations(*S, Ctx).empty())
      return false; // the operation itself, operands included
    if (const auto *U = dyn_cast<UnaryOperator>(S)) {
      if (U->getOpcode() == UO_AddrOf)
        return doesWork(U->getSubExpr(), true, CallDepth);
      if (U->getOpcode() == UO_Deref && !UnderAddressOf)
        return true;
    }
    if (isa<ArraySubscriptExpr>(S) && !UnderAddressOf)
      return true;
    if (const auto *M = dyn_cast<MemberExpr>(S); M && M->isArrow() && !UnderAddressOf)
      return true;
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = Call->getDirectCallee();
      const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
      if (!Def || !Def->hasBody() || CallDepth >= 8 || isNamedArithmetic(*Call) ||
          (FD->getIdentifier() && FD->getName() == "mma_sync"))
        return true;
      if (!CalleeWorks.count(Def)) {
        CalleeWorks[Def] = true; // a recursive call: work
        const bool Works = doesWork(Def->getBody(), false, CallDepth + 1);
        CalleeWorks[Def] = Works;
      }
      if (CalleeWorks[Def])
        return true;
    }
    if (isa<GCCAsmStmt>(S))
      return true;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && isFloatingArithmetic(*B))
      return true;
    const bool PassAddressOf = UnderAddressOf && (isa<ArraySubscriptExpr>(S) || isa<MemberExpr>(S) ||
                                                  isa<ParenExpr>(S) || isa<ImplicitCastExpr>(S));
    for (const Stmt *Child : S->children())
      if (doesWork(Child, PassAddressOf, CallDepth))
        return true;
    return false;
  }

  struct Holds {
    bool copy = false, completion = false;
    /// A completion that leaves no batch of this thread in flight: not a
    /// wait_prior / wait_group of N > 0, which lets the latest N run on.
    bool drains = false;
  };
  Holds holds(const Stmt *S) {
    if (!S)
      return {};
    if (auto It = HoldsCache.find(S); It != HoldsCache.end())
      return It->second;
    HoldsCache[S] = Holds{}; // a recursive call holds nothing more
    Holds Out;
    const std::vector<AsyncOperation> Ops = recogniseAsyncOperations(*S, Ctx);
    for (const AsyncOperation &O : Ops) {
      Out.copy |= O.kind == AsyncEventKind::Copy;
      Out.completion |= isCompletion(O.kind);
      Out.drains |= isCompletion(O.kind) && !(O.kind == AsyncEventKind::Wait && O.pending && *O.pending > 0);
    }
    // A loader or a wait helper of the program (the rule the pipeline facts
    // and the hazard run follow calls by: programFunctionCalled).
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && Ops.empty())
      if (const FunctionDecl *Callee = programFunctionCalled(*Call, Ctx)) {
        const Holds C = holds(Callee->getBody());
        Out.copy |= C.copy;
        Out.completion |= C.completion;
        Out.drains |= C.drains;
      }
    for (const Stmt *Child : S->children()) {
      const Holds C = holds(Child);
      Out.copy |= C.copy;
      Out.completion |= C.completion;
      Out.drains |= C.drains;
    }
    return HoldsCache[S] = Out;
  }

  static const Stmt *loopBody(const Stmt *S) {
    if (const auto *F = dyn_cast<ForStmt>(S))
      return F->getBody();
    if (const auto *W = dyn_cast<WhileStmt>(S))
      return W->getBody();
    if (const auto *D = dyn_cast<DoStmt>(S))
      return D->getBody();
    if (const auto *R = dyn_cast<CXXForRangeStmt>(S))
      return R->getBody();
    return nullptr;
  }

  std::string Why;

private:
  std::optional<Work> unknown(const Stmt &S, const char *What) {
    if (Why.empty())
      Why = std::string(What) + " (line " +
            std::to_string(Ctx.getSourceManager().getExpansionLineNumber(S.getBeginLoc())) + ")";
    return std::nullopt;
  }

  std::optional<bool> constantCondition(const IfStmt &If) {
    if (If.isConstexpr())
      if (std::optional<int64_t> V = constantIntegerOf(If.getCond(), Ctx))
        return *V != 0;
    if (std::optional<int64_t> V = constantIntegerOf(If.getCond(), Ctx))
      return *V != 0;
    return std::nullopt;
  }

  static bool isFloatingArithmetic(const BinaryOperator &B) {
    const BinaryOperatorKind Op = B.getOpcode();
    const bool Arithmetic = Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Div || Op == BO_AddAssign ||
                            Op == BO_SubAssign || Op == BO_MulAssign || Op == BO_DivAssign;
    QualType T = B.getType();
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(&B))
      T = CA->getComputationResultType();
    return Arithmetic && T->isRealFloatingType();
  }

  static bool isNamedArithmetic(const CallExpr &Call) {
    const FunctionDecl *FD = Call.getDirectCallee();
    return FD && FD->getIdentifier() && namedArithmetic(FD->getName()).any();
  }

  static Work namedArithmetic(llvm::StringRef Name) {
    Work W;
    if (Name == "fma" || Name == "fmaf" || Name.starts_with("__fmaf_") || Name.starts_with("__fma_") ||
        Name == "__hfma" || Name == "__hfma_relu")
      W.fp = 2;
    else if (Name == "__hfma2" || Name == "__hfma2_relu")
      W.fp = 4;
    else if (Name == "__hmul2" || Name == "__hadd2" || Name == "__hsub2")
      W.fp = 2;
    else if (Name == "__hmul" || Name == "__hadd" || Name == "__hsub" || Name.starts_with("__fmul_") ||
             Name.starts_with("__fadd_") || Name.starts_with("__fsub_"))
      W.fp = 1;
    return W;
  }

  // What a call adds beyond its arguments: a named arithmetic function, a
  // wmma MMA, or the callee's body.
  std::optional<Work> callWork(const CallExpr &Call, int CallDepth) {
    const FunctionDecl *FD = Call.getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return Work{};
    if (Work W = namedArithmetic(FD->getName()); W.any())
      return W;
    if (FD->getName() == "mma_sync") {
      Work W;
      W.tensor = wmmaFlops(Call).value_or(0);
      return W;
    }
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->hasBody() || CallDepth >= 8 || !recogniseAsyncOperations(Call, Ctx).empty())
      return Work{};
    if (auto It = CallCache.find(Def); It != CallCache.end())
      return It->second;
    CallCache[Def] = Work{}; // a recursive call counts nothing more
    std::optional<Work> W = work(Def->getBody(), CallDepth + 1);
    CallCache[Def] = W;
    return W;
  }

  ASTContext &Ctx;
  llvm::DenseMap<const Stmt *, Holds> HoldsCache;
  llvm::DenseMap<const FunctionDecl *, std::optional<Work>> CallCache;
  llvm::DenseMap<const FunctionDecl *, bool> CalleeWorks;
};

// Copy, completion, work or nothing, for one statement of the loop's body.
enum class Step { Nothing, Copy, Completion, Work, Mixed };

bool nothingOverlaps(const Stmt &Loop, LoopWorkReader &Reader) {
  const Stmt *Body = LoopWorkReader::loopBody(&Loop);
  std::vector<const Stmt *> Statements;
  if (const auto *C = dyn_cast_or_null<CompoundStmt>(Body))
    Statements.assign(C->body_begin(), C->body_end());
  else if (Body)
    Statements.push_back(Body);
  std::vector<Step> Steps;
  for (const Stmt *S : Statements) {
    const LoopWorkReader::Holds H = Reader.holds(S);
    const bool Works = Reader.doesWork(S);
    // A wait that leaves the latest batches in flight (wait_prior(2)) does
    // not end the overlap of the copy before it: not a completion here.
    const int Kinds = int(H.copy) + int(H.drains) + int(Works);
    Steps.push_back(Kinds > 1  ? Step::Mixed
                    : H.copy   ? Step::Copy
                    : H.drains ? Step::Completion
                    : Works    ? Step::Work
                               : Step::Nothing);
  }
  if (std::count(Steps.begin(), Steps.end(), Step::Mixed) || !std::count(Steps.begin(), Steps.end(), Step::Copy) ||
      !std::count(Steps.begin(), Steps.end(), Step::Completion))
    return false;
  const size_t N = Steps.size();
  for (size_t I = 0; I < N; ++I) {
    if (Steps[I] != Step::Copy)
      continue;
    for (size_t K = 1; K <= N; ++K) { // around the back edge once
      const Step Next = Steps[(I + K) % N];
      if (Next == Step::Completion)
        break;
      if (Next == Step::Work)
        return false;
    }
  }
  return true;
}

} // namespace

PipelineLoopWork describePipelineLoopWork(const FunctionDecl &Kernel, ASTContext &Ctx) {
  PipelineLoopWork Out;
  LoopWorkReader Reader(Ctx);
  Out.loop = Reader.pipelinedLoop(Kernel.getBody());
  if (!Out.loop) {
    Out.workUnknown = "no loop of the kernel's own body holds both a copy and a wait";
    return Out;
  }
  if (const auto *F = dyn_cast<ForStmt>(Out.loop))
    Out.trips = constantTrips(*F, Ctx);
  if (std::optional<Work> W = Reader.work(LoopWorkReader::loopBody(Out.loop))) {
    Out.fpOpsPerThread = W->fp;
    Out.tensorFlopsPerWarp = W->tensor;
    if (!W->any())
      Out.workUnknown = "no arithmetic counted in the pipelined loop";
  } else {
    Out.workUnknown = Reader.Why;
  }
  Out.nothingOverlaps = nothingOverlaps(*Out.loop, Reader);
  return Out;
}

} // namespace clang::tidy::occlint
