#include "divergence/DivergenceDataflow.h"

#include "divergence/DivergenceCalls.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"

#include <deque>

namespace clang::tidy::occlint {

namespace {

using Env = llvm::DenseMap<const VarDecl *, ThreadValue>;

/// How uniformly the threads reach a CFG block, and the branch to blame.
struct Taint {
  unsigned Group = 64;
  int From = -1; // the CFG block whose branch is responsible
  bool operator==(const Taint &O) const { return Group == O.Group && From == O.From; }
};

/// A value that reaches a join from a branch only threads of groups of
/// `Group` lanes agree on: with whole warps agreeing (Group >= 32) its lane
/// pattern survives but it may differ between warps; otherwise it may differ
/// in every lane.
ThreadValue taint(const ThreadValue &V, unsigned Group) {
  if (Group >= 64)
    return V;
  if (Group < 32)
    return join(V, ThreadValue::top());
  ThreadValue T = V;
  if (T.Rest == RestKind::Const || T.Rest == RestKind::BlockUniform) {
    T = add(V, ThreadValue::warpUniform(62)); // + an unknown per-warp term that keeps the alignment
    T.Mono = V.Mono;
  }
  return T;
}

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(S->getSourceRange()).getAsRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : Text) // one line, single spaces
    if (!(C == '\n' || C == '\r' || C == '\t') && !(C == ' ' && !Out.empty() && Out.back() == ' '))
      Out += C;
    else if (!Out.empty() && Out.back() != ' ')
      Out += ' ';
  return Out.size() > 60 ? Out.substr(0, 57) + "..." : Out;
}

const Stmt *stripCompound(const Stmt *S) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      break;
    S = CS->body_front();
  }
  return S;
}

/// The condition of a branch statement as written (the whole of `a && b`).
const Expr *branchCondition(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *C = dyn_cast<ConditionalOperator>(S))
    return C->getCond();
  return nullptr;
}

class Dataflow {
public:
  Dataflow(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params,
           const ThreadValue &This, const DivergenceContext &Entry, bool Report)
      : FD(FD), D(D), Ctx(D.Ctx), This(This), Entry(Entry), Report(Report) {
    for (unsigned I = 0; I < FD.getNumParams(); ++I)
      EntryEnv[FD.getParamDecl(I)] = I < Params.size() ? Params[I] : ThreadValue::uniform();
  }

  FunctionSummary run() {
    CFG::BuildOptions Opts;
    Opts.AddImplicitDtors = false;
    Opts.AddTemporaryDtors = false;
    Opts.AddInitializers = false;
    Cfg = CFG::buildCFG(&FD, FD.getBody(), &Ctx, Opts);
    if (!Cfg)
      return FunctionSummary{opaqueParams(), {}};
    PDT.buildDominatorTree(Cfg.get());
    const unsigned N = Cfg->getNumBlockIDs();
    Taints.assign(N, Taint{});
    Conds.assign(N, std::nullopt);
    Primary.assign(N, false);
    // Values and control dependence feed each other: iterate both.
    for (int Round = 0; Round < 8; ++Round) {
      flow();
      if (Round == 0) // branches that differ between threads before any control dependence: the causes
        for (unsigned I = 0; I < N; ++I)
          Primary[I] = Conds[I] && Conds[I]->uniformGroup() < 64;
      std::vector<Taint> New = computeTaints();
      if (New == Taints)
        break;
      Taints = std::move(New);
    }
    if (Report) {
      Reporting = true;
      flow();
      reportBranches();
    }
    FunctionSummary S;
    S.Ret = HasReturn ? Ret : ThreadValue::uniform();
    // Out-parameters: their values where the paths meet at the exit.
    const std::optional<Env> &AtExit = In[Cfg->getExit().getBlockID()];
    for (unsigned I = 0; I < FD.getNumParams(); ++I) {
      const ParmVarDecl *P = FD.getParamDecl(I);
      std::optional<ThreadValue> V;
      if (P->getType()->isLValueReferenceType() && !P->getType().getNonReferenceType().isConstQualified() && AtExit)
        if (auto It = AtExit->find(P); It != AtExit->end())
          V = It->second;
      S.OutParams.push_back(V);
    }
    return S;
  }

private:
  const FunctionDecl &FD;
  DivergenceDriver &D;
  ASTContext &Ctx;
  ThreadValue This;
  DivergenceContext Entry;
  bool Report;
  bool Reporting = false;

  std::unique_ptr<CFG> Cfg;
  CFGPostDomTree PDT;
  Env EntryEnv;
  std::vector<std::optional<Env>> In, Out;
  std::vector<std::optional<ThreadValue>> Conds;
  std::vector<Taint> Taints;
  std::vector<bool> Primary;
  llvm::DenseMap<const VarDecl *, unsigned> DeclBlock;
  ThreadValue Ret;
  bool HasReturn = false;

  // The block being processed.
  Env *E = nullptr;
  unsigned Cur = 0;
  llvm::DenseMap<const Stmt *, ThreadValue> Cache;

  ThreadValue opaqueParams() {
    std::vector<ThreadValue> Vs;
    for (auto &[K, V] : EntryEnv)
      Vs.push_back(V);
    return opaque(Vs);
  }

  // ---- the fixpoint ------------------------------------------------------

  static bool mergeInto(std::optional<Env> &Dst, const Env &Src) {
    if (!Dst) {
      Dst = Src;
      return true;
    }
    bool Changed = false;
    for (const auto &[K, V] : Src) {
      auto It = Dst->find(K);
      if (It == Dst->end()) {
        Dst->insert({K, V});
        Changed = true;
      } else if (ThreadValue J = join(It->second, V); J != It->second) {
        It->second = J;
        Changed = true;
      }
    }
    return Changed;
  }

  void flow() {
    const unsigned N = Cfg->getNumBlockIDs();
    In.assign(N, std::nullopt);
    Out.assign(N, std::nullopt);
    Ret = ThreadValue::uniform();
    HasReturn = false;
    std::vector<unsigned> Visits(N, 0);
    std::vector<bool> Queued(N, false);
    std::deque<const CFGBlock *> Work;
    const CFGBlock &EntryBlock = Cfg->getEntry();
    In[EntryBlock.getBlockID()] = EntryEnv;
    Work.push_back(&EntryBlock);
    Queued[EntryBlock.getBlockID()] = true;
    while (!Work.empty()) {
      const CFGBlock *B = Work.front();
      Work.pop_front();
      const unsigned Id = B->getBlockID();
      Queued[Id] = false;
      Env Local = *In[Id];
      if (++Visits[Id] > 40) // widening: give up precision rather than loop
        for (auto &[K, V] : Local)
          V = ThreadValue::top();
      process(*B, Local);
      Out[Id] = Local;
      for (const CFGBlock *S : B->succs())
        if (S && mergeInto(In[S->getBlockID()], Local) && !Queued[S->getBlockID()]) {
          Queued[S->getBlockID()] = true;
          Work.push_back(S);
        }
    }
  }

  void process(const CFGBlock &B, Env &Local) {
    E = &Local;
    Cur = B.getBlockID();
    Cache.clear();
    for (const CFGElement &El : B)
      if (auto S = El.getAs<CFGStmt>())
        processStmt(S->getStmt());
    if (const Stmt *T = B.getTerminatorCondition(false))
      if (const auto *CE = dyn_cast<Expr>(T))
        Conds[Cur] = eval(CE);
    if (const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(B.getTerminatorStmt()))
      processAsm(Asm);
  }

  void processStmt(const Stmt *S) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *Dcl : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(Dcl)) {
          if (VD->hasGlobalStorage())
            continue;
          DeclBlock[VD] = Cur;
          (*E)[VD] = VD->getInit() ? eval(VD->getInit()) : ThreadValue::uniform();
        }
      return;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      ThreadValue V = RS->getRetValue() ? eval(RS->getRetValue()) : ThreadValue::uniform();
      if (Taints[Cur].Group < 64) // threads return here at different points
        V = taint(V, Taints[Cur].Group);
      Ret = HasReturn ? join(Ret, V) : V;
      HasReturn = true;
      return;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      processAsm(Asm);
      return;
    }
    if (const auto *Ex = dyn_cast<Expr>(S))
      eval(Ex);
  }

  // ---- variables -----------------------------------------------------------

  const VarDecl *localVar(const Expr *Ex) const {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Ex->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && !VD->hasGlobalStorage())
        return VD;
    return nullptr;
  }

  /// An assignment in the current block: under a thread-dependent branch the
  /// variable no longer holds one value for all threads once the paths join
  /// (unless it was declared under that branch too).
  void setVar(const VarDecl *VD, ThreadValue V) {
    const unsigned G = Taints[Cur].Group;
    if (G < 64) {
      auto It = DeclBlock.find(VD);
      const unsigned DeclGroup = It == DeclBlock.end() ? 64 : Taints[It->second].Group;
      if (DeclGroup > G) {
        const MonoCoord Mono = V.Mono;
        V = taint(V, G);
        // Under a boundary guard (a grid-stride loop's own condition) an
        // index stays monotone: the guard still splits one warp only.
        const int From = Taints[Cur].From;
        if (From >= 0 && Conds[From] && toBool(*Conds[From]).Split == SplitKind::Boundary)
          V.Mono = Mono;
      }
    }
    (*E)[VD] = V;
  }

  ThreadValue varValue(const VarDecl *VD) {
    if (auto It = E->find(VD); It != E->end())
      return It->second;
    return ThreadValue::uniform();
  }

  void assign(const Expr *LHS, const ThreadValue &V) {
    LHS = LHS->IgnoreParenImpCasts();
    if (const VarDecl *VD = localVar(LHS)) {
      setVar(VD, V);
      return;
    }
    // A field or element of a local aggregate: a weak update.
    const Expr *Base = nullptr;
    ThreadValue Stored = V;
    if (const auto *ME = dyn_cast<MemberExpr>(LHS); ME && !ME->isArrow())
      Base = ME->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(LHS)) {
      Base = AS->getBase();
      Stored = join(V, opaque({eval(AS->getIdx())}));
    }
    if (Base)
      if (const VarDecl *VD = localVar(Base))
        setVar(VD, join(varValue(VD), Stored));
  }

  // ---- expressions -----------------------------------------------------------

  ThreadValue eval(const Expr *Ex) {
    if (!Ex)
      return ThreadValue::uniform();
    Ex = Ex->IgnoreParens();
    if (auto It = Cache.find(Ex); It != Cache.end())
      return It->second;
    ThreadValue V = evalUncached(Ex);
    Cache[Ex] = V;
    return V;
  }

  ThreadValue builtinVar(StringRef Var, StringRef Field) {
    const unsigned Dim = Field == "x" ? 0 : Field == "y" ? 1 : 2;
    if (Var == "threadIdx")
      return D.threadIdx(Dim);
    if (Var == "blockDim")
      return D.blockDim(Dim);
    return ThreadValue::uniform(); // blockIdx, gridDim
  }

  ThreadValue load(const ThreadValue &Address) {
    // Every lane reading the same address reads the same value.
    if (Address.laneConstant())
      return opaque({Address});
    return ThreadValue::top();
  }

  ThreadValue evalUncached(const Expr *Ex) {
    if (const auto *IL = dyn_cast<IntegerLiteral>(Ex))
      return ThreadValue::constant(Ex->getType()->isUnsignedIntegerType()
                                       ? int64_t(IL->getValue().getLimitedValue())
                                       : IL->getValue().getSExtValue());
    if (const auto *CL = dyn_cast<CharacterLiteral>(Ex))
      return ThreadValue::constant(CL->getValue());
    if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(Ex))
      return ThreadValue::constant(BL->getValue());
    if (isa<FloatingLiteral, StringLiteral, CXXNullPtrLiteralExpr, GNUNullExpr, LambdaExpr, CXXThisExpr>(Ex))
      return isa<CXXThisExpr>(Ex) ? This : ThreadValue::uniform();
    if (const auto *CE = dyn_cast<ConstantExpr>(Ex)) {
      if (CE->hasAPValueResult() && CE->getAPValueResult().isInt())
        return ThreadValue::constant(CE->getAPValueResult().getInt().getExtValue());
      return eval(CE->getSubExpr());
    }
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(Ex))
      return eval(S->getReplacement());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Ex))
      return evalDeclRef(DRE);
    if (const auto *MP = dyn_cast<MSPropertyRefExpr>(Ex)) {
      const Expr *BaseExpr = MP->getBaseExpr()->IgnoreParenImpCasts();
      while (const auto *OV = dyn_cast<OpaqueValueExpr>(BaseExpr)) // threadIdx.x is a property access
        BaseExpr = OV->getSourceExpr()->IgnoreParenImpCasts();
      if (const auto *Base = dyn_cast<DeclRefExpr>(BaseExpr))
        return builtinVar(Base->getDecl()->getName(), MP->getPropertyDecl()->getName());
      return ThreadValue::uniform();
    }
    if (const auto *PO = dyn_cast<PseudoObjectExpr>(Ex))
      return eval(PO->getSyntacticForm());
    if (const auto *C = dyn_cast<CastExpr>(Ex)) {
      ThreadValue V = eval(C->getSubExpr());
      switch (C->getCastKind()) {
      case CK_IntegralToBoolean:
      case CK_FloatingToBoolean:
      case CK_PointerToBoolean:
      case CK_MemberPointerToBoolean:
        return toBool(V);
      default:
        return V;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Ex))
      return evalUnary(UO);
    if (const auto *BO = dyn_cast<BinaryOperator>(Ex))
      return evalBinary(BO);
    if (const auto *CO = dyn_cast<ConditionalOperator>(Ex))
      return select(eval(CO->getCond()), eval(CO->getTrueExpr()), eval(CO->getFalseExpr()));
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Ex)) {
      const ThreadValue Idx = eval(AS->getIdx());
      if (const VarDecl *VD = localVar(AS->getBase()); VD && VD->getType()->isArrayType())
        return opaque({varValue(VD), Idx}); // an element of a thread's own array
      return load(opaque({eval(AS->getBase()), Idx}));
    }
    if (const auto *ME = dyn_cast<MemberExpr>(Ex)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (const auto *Call = dyn_cast<CallExpr>(Base); Call && classifyCall(*Call).Role == CallRole::ThreadIndex)
        return builtinVar("threadIdx", ME->getMemberDecl()->getName());
      if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(Base))
        if (const auto *Call = dyn_cast<CallExpr>(MTE->getSubExpr()->IgnoreParenImpCasts());
            Call && classifyCall(*Call).Role == CallRole::ThreadIndex)
          return builtinVar("threadIdx", ME->getMemberDecl()->getName());
      const ThreadValue B = eval(ME->getBase());
      return ME->isArrow() ? load(B) : B;
    }
    if (const auto *CE = dyn_cast<CallExpr>(Ex))
      return evalCall(CE);
    if (const auto *CC = dyn_cast<CXXConstructExpr>(Ex)) {
      std::vector<ThreadValue> Vs;
      for (const Expr *A : CC->arguments())
        Vs.push_back(eval(A));
      return opaque(Vs);
    }
    if (const auto *IL = dyn_cast<InitListExpr>(Ex)) {
      std::vector<ThreadValue> Vs;
      for (const Expr *I : IL->inits())
        Vs.push_back(eval(I));
      return opaque(Vs);
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Ex))
      return eval(M->getSubExpr());
    if (const auto *EC = dyn_cast<ExprWithCleanups>(Ex))
      return eval(EC->getSubExpr());
    if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(Ex))
      return eval(BT->getSubExpr());
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Ex))
      return eval(DA->getExpr());
    if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(Ex))
      return eval(DI->getExpr());
    if (const auto *OV = dyn_cast<OpaqueValueExpr>(Ex))
      return OV->getSourceExpr() ? eval(OV->getSourceExpr()) : ThreadValue::uniform();
    if (!Ex->isValueDependent() && Ex->getType()->isIntegralOrEnumerationType()) {
      Expr::EvalResult R;
      if (Ex->EvaluateAsInt(R, Ctx))
        return ThreadValue::constant(R.Val.getInt().getExtValue());
    }
    std::vector<ThreadValue> Vs;
    for (const Stmt *Child : Ex->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        Vs.push_back(eval(CE));
    return opaque(Vs);
  }

  ThreadValue evalDeclRef(const DeclRefExpr *DRE) {
    const ValueDecl *VD = DRE->getDecl();
    if (const auto *EC = dyn_cast<EnumConstantDecl>(VD))
      return ThreadValue::constant(EC->getInitVal().getExtValue());
    const auto *Var = dyn_cast<VarDecl>(VD);
    if (!Var)
      return ThreadValue::uniform();
    if (Var->getName() == "warpSize")
      return ThreadValue::constant(32);
    if (auto It = E->find(Var); It != E->end())
      return It->second;
    if (Var->getType()->isIntegralOrEnumerationType() && Var->getType().isConstQualified())
      if (const APValue *V = Var->getInit() && !Var->getInit()->isValueDependent() ? Var->evaluateValue() : nullptr;
          V && V->isInt())
        return ThreadValue::constant(V->getInt().getExtValue());
    return ThreadValue::uniform(); // a global, or a __shared__ scalar: one value for the block
  }

  ThreadValue evalUnary(const UnaryOperator *UO) {
    const Expr *Sub = UO->getSubExpr();
    switch (UO->getOpcode()) {
    case UO_Minus:
      return neg(eval(Sub));
    case UO_Not:
      return sub(neg(eval(Sub)), ThreadValue::constant(1));
    case UO_LNot:
      return logicalNot(eval(Sub));
    case UO_Deref:
      return load(eval(Sub));
    case UO_AddrOf: {
      const Expr *S = Sub->IgnoreParenImpCasts();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
        return opaque({eval(AS->getBase()), eval(AS->getIdx())});
      if (localVar(S))
        return ThreadValue::uniform(); // the same stack slot in every thread
      return eval(Sub);
    }
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec: {
      const ThreadValue Old = eval(Sub);
      const ThreadValue New = add(Old, ThreadValue::constant(UO->isIncrementOp() ? 1 : -1));
      assign(Sub, New);
      return UO->isPrefix() ? New : Old;
    }
    default:
      return eval(Sub);
    }
  }

  static bool floating(const Expr *Ex) { return Ex->getType()->isFloatingType(); }

  ThreadValue arith(BinaryOperatorKind Op, const ThreadValue &L, const ThreadValue &R, bool Float) {
    if (Float && Op != BO_Add && Op != BO_Sub)
      return opaque({L, R});
    switch (Op) {
    case BO_Add: return add(L, R);
    case BO_Sub: return sub(L, R);
    case BO_Mul: return mul(L, R);
    case BO_Div: return div(L, R);
    case BO_Rem: return rem(L, R);
    case BO_Shl: return shl(L, R);
    case BO_Shr: return shr(L, R);
    case BO_And: return bitAnd(L, R);
    case BO_Or: return bitOr(L, R);
    case BO_Xor: return bitXor(L, R);
    default: return opaque({L, R});
    }
  }

  ThreadValue evalBinary(const BinaryOperator *BO) {
    const BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_Assign) {
      ThreadValue V = eval(BO->getRHS());
      assign(BO->getLHS(), V);
      return V;
    }
    if (BO->isCompoundAssignmentOp()) {
      ThreadValue V = arith(BinaryOperator::getOpForCompoundAssignment(Op), eval(BO->getLHS()), eval(BO->getRHS()),
                            floating(BO->getLHS()));
      assign(BO->getLHS(), V);
      return V;
    }
    if (Op == BO_Comma) {
      eval(BO->getLHS());
      return eval(BO->getRHS());
    }
    const ThreadValue L = eval(BO->getLHS()), R = eval(BO->getRHS());
    switch (Op) {
    case BO_LAnd: return logicalAnd(L, R);
    case BO_LOr: return logicalOr(L, R);
    case BO_LT: return compare(CompareOp::LT, L, R);
    case BO_LE: return compare(CompareOp::LE, L, R);
    case BO_GT: return compare(CompareOp::GT, L, R);
    case BO_GE: return compare(CompareOp::GE, L, R);
    case BO_EQ: return compare(CompareOp::EQ, L, R);
    case BO_NE: return compare(CompareOp::NE, L, R);
    default: return arith(Op, L, R, floating(BO->getLHS()) || floating(BO->getRHS()));
    }
  }

  /// An argument's value; `&x` of a local passes what the callee reads through it.
  ThreadValue argValue(const Expr *A) {
    if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts()); UO && UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *VD = localVar(UO->getSubExpr()))
        return varValue(VD);
    return eval(A);
  }

  ThreadValue evalCall(const CallExpr *CE) {
    const CallInfo Info = classifyCall(*CE);
    const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
    std::vector<ThreadValue> Args;
    for (const Expr *A : CE->arguments())
      Args.push_back(argValue(A));
    auto Arg = [&](unsigned I) { return I < Args.size() ? Args[I] : ThreadValue::uniform(); };
    // Member calls on tiles take (value, lane); free intrinsics (mask, value, lane).
    const bool Member = MC || isa<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts());
    const unsigned First = Member ? 0 : 1;

    if (Reporting)
      recordCollective(CE, Info);
    switch (Info.Role) {
    case CallRole::Barrier:
    case CallRole::SyncWarp:
    case CallRole::GroupUniform:
      return ThreadValue::uniform();
    case CallRole::ShuffleIdx: {
      const ThreadValue V = Arg(First), Src = Arg(First + 1);
      if (V.blockUniform())
        return V;
      if (Src.laneConstant() && Info.Group == 32)
        return opaque({ThreadValue::warpUniform(), Src});
      return ThreadValue::top();
    }
    case CallRole::Shuffle:
      return Arg(First).laneConstant() ? Arg(First) : ThreadValue::top();
    case CallRole::Vote:
      if (Info.Group != 32)
        return Arg(First).laneConstant() ? Arg(First) : ThreadValue::top();
      return Arg(First).blockUniform() ? ThreadValue::uniform() : ThreadValue::warpUniform();
    case CallRole::Match:
      return Arg(First).laneConstant() && Info.Group == 32 ? ThreadValue::warpUniform() : ThreadValue::top();
    case CallRole::ActiveMask:
      return ThreadValue::warpUniform();
    case CallRole::Atomic:
      return ThreadValue::top();
    case CallRole::ThreadRank:
      if (Info.Group >= 64)
        return ThreadValue::linearTid();
      return rem(ThreadValue::laneId(), ThreadValue::constant(Info.Group));
    case CallRole::MetaGroupRank:
      return div(ThreadValue::linearTid(), ThreadValue::constant(Info.Group));
    case CallRole::ThreadIndex:
      return ThreadValue::top();
    case CallRole::None:
      break;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Callee && Callee->getIdentifier()) {
      const StringRef Name = Callee->getName();
      if (Name == "__nvvm_read_ptx_sreg_laneid")
        return ThreadValue::laneId();
      if (Name.starts_with("__nvvm_read_ptx_sreg_tid_"))
        return D.threadIdx(Name.back() - 'x');
      if (Name.starts_with("__nvvm_read_ptx_sreg_ntid_"))
        return D.blockDim(Name.back() - 'x');
    }
    if (const FunctionDecl *Def = analysableDefinition(Callee, Ctx)) {
      const ThreadValue Obj = MC ? eval(MC->getImplicitObjectArgument()) : ThreadValue::uniform();
      std::vector<ThreadValue> Params = Args;
      if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) && !Params.empty())
        Params.erase(Params.begin()); // the object is the first argument of a member operator
      DivergenceContext Here = contextAt(Cur);
      Here.Calls.push_back(CE->getExprLoc());
      FunctionSummary S = D.call(*Def, Params, Obj, Here, Reporting);
      if (Params.size() == Args.size()) // locals passed by non-const reference
        for (unsigned I = 0; I < S.OutParams.size() && I < CE->getNumArgs(); ++I)
          if (S.OutParams[I])
            if (const VarDecl *VD = localVar(CE->getArg(I)))
              setVar(VD, *S.OutParams[I]);
      return S.Ret;
    }
    // An unknown function: a function of its arguments (and of what they point to).
    if (MC)
      Args.push_back(eval(MC->getImplicitObjectArgument()));
    ThreadValue Result = opaque(Args);
    // Locals passed by address or by non-const reference may be written.
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
      const VarDecl *VD = nullptr;
      if (const auto *UO = dyn_cast<UnaryOperator>(A); UO && UO->getOpcode() == UO_AddrOf)
        VD = localVar(UO->getSubExpr());
      else if (Callee && I < Callee->getNumParams() && Callee->getParamDecl(I)->getType()->isReferenceType() &&
               !Callee->getParamDecl(I)->getType().getNonReferenceType().isConstQualified())
        VD = localVar(A);
      if (VD)
        setVar(VD, join(varValue(VD), Result));
    }
    return Result;
  }

  void processAsm(const GCCAsmStmt *Asm) {
    const std::string Text = Asm->getAsmString();
    ThreadValue V;
    if (Text.find("%laneid") != std::string::npos)
      V = ThreadValue::laneId();
    else if (Text.find("%tid.x") != std::string::npos)
      V = D.threadIdx(0);
    else if (Text.find("%tid.y") != std::string::npos)
      V = D.threadIdx(1);
    else if (Text.find("%warpid") != std::string::npos)
      V = ThreadValue::warpUniform();
    else {
      std::vector<ThreadValue> Ins;
      for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
        Ins.push_back(eval(Asm->getInputExpr(I)));
      V = opaque(Ins);
    }
    for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
      assign(Asm->getOutputExpr(I), V);
    if (Reporting && (Text.find("bar.sync") != std::string::npos || Text.find("barrier.sync") != std::string::npos ||
                      Text.find("bar.red") != std::string::npos)) {
      DivergenceCollective C;
      C.AsmStmt = Asm;
      C.Loc = Asm->getBeginLoc();
      C.Name = "'bar.sync' (inline assembly)";
      C.Barrier = true;
      // `bar.sync id, count` waits for `count` threads only (warp-specialised
      // code): it needs whole warps, not the whole block.
      const size_t At = Text.find("bar");
      const size_t End = Text.find_first_of(";\n", At);
      C.Needed = Text.substr(At, End == std::string::npos ? std::string::npos : End - At).find(',') != std::string::npos
                     ? 32
                     : 64;
      C.Ctx = contextAt(Cur);
      C.Kernel = D.Kernel;
      if (C.Ctx.Group < C.Needed)
        D.Out.addCollective(std::move(C));
    }
  }

  void recordCollective(const CallExpr *CE, const CallInfo &Info) {
    bool Barrier = Info.Role == CallRole::Barrier;
    const bool Collective = Info.Role == CallRole::SyncWarp || Info.Role == CallRole::ShuffleIdx ||
                            Info.Role == CallRole::Shuffle || Info.Role == CallRole::Vote ||
                            Info.Role == CallRole::Match;
    if (!Barrier && !Collective)
      return;
    if (Info.Group == 0)
      return;
    if (Collective && Info.MaskArg >= 0) {
      // Only a full mask promises that all 32 lanes arrive.
      if (unsigned(Info.MaskArg) >= CE->getNumArgs())
        return; // __syncwarp() with its default argument is written without one
      auto M = eval(CE->getArg(Info.MaskArg)).exact();
      if (!M || (uint64_t(*M) & 0xffffffffu) != 0xffffffffu)
        return;
    }
    DivergenceCollective C;
    C.Call = CE;
    C.Loc = CE->getBeginLoc();
    C.Name = Info.Name;
    C.Barrier = Barrier;
    C.Needed = Info.Group;
    C.Ctx = contextAt(Cur);
    C.Kernel = D.Kernel;
    if (C.Ctx.Group < C.Needed)
      D.Out.addCollective(std::move(C));
  }

  // ---- control dependence ------------------------------------------------------

  const CFGBlock *ipdom(const CFGBlock *B) {
    auto *Node = PDT.getBase().getNode(const_cast<CFGBlock *>(B));
    if (!Node || !Node->getIDom())
      return nullptr;
    return Node->getIDom()->getBlock();
  }

  /// The blocks that run only when X's branch goes to S (transitively).
  void region(const CFGBlock *X, const CFGBlock *S, std::vector<bool> &In) {
    const CFGBlock *Stop = ipdom(X);
    for (const CFGBlock *Y = S; Y && Y != Stop; Y = ipdom(Y)) {
      if (In[Y->getBlockID()])
        return;
      In[Y->getBlockID()] = true;
      if (Y->succ_size() >= 2)
        for (const CFGBlock *Z : Y->succs())
          if (Z)
            region(Y, Z, In);
    }
  }

  std::vector<Taint> computeTaints() {
    const unsigned N = Cfg->getNumBlockIDs();
    std::vector<Taint> New(N);
    for (const CFGBlock *X : *Cfg) {
      if (X->succ_size() < 2 || !Conds[X->getBlockID()])
        continue;
      const unsigned G = Conds[X->getBlockID()]->uniformGroup();
      if (G >= 64)
        continue;
      std::vector<bool> In(N, false);
      for (const CFGBlock *S : X->succs())
        if (S)
          region(X, S, In);
      for (unsigned I = 0; I < N; ++I)
        if (In[I] && (G < New[I].Group || (G == New[I].Group && Primary[X->getBlockID()] &&
                                           !Primary[unsigned(New[I].From)])))
          New[I] = Taint{G, int(X->getBlockID())};
    }
    return New;
  }

  const CFGBlock *blockById(int Id) {
    for (const CFGBlock *B : *Cfg)
      if (int(B->getBlockID()) == Id)
        return B;
    return nullptr;
  }

  /// The statement a branch block belongs to (the if, the loop, ...).
  const Stmt *branchStmt(const CFGBlock *X) {
    const Stmt *T = X->getTerminatorStmt();
    return T;
  }

  DivergenceContext contextAt(unsigned Block) {
    const Taint &T = Taints[Block];
    if (T.Group >= Entry.Group || T.From < 0)
      return Entry;
    DivergenceContext C;
    C.Group = T.Group;
    const CFGBlock *X = blockById(T.From);
    const Stmt *S = X ? branchStmt(X) : nullptr;
    C.Branch = S;
    C.BranchLoc = S ? S->getBeginLoc() : SourceLocation();
    C.Cond = Conds[T.From] ? *Conds[T.From] : ThreadValue::top();
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->isLogicalOp()) {
      C.CondText = sourceText(BO->getLHS(), Ctx); // `a && b`: the block branches on a
    } else if (const Expr *Cond = S ? branchCondition(S) : nullptr) {
      C.CondText = sourceText(Cond, Ctx);
    }
    if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
      const Stmt *Then = stripCompound(If->getThen());
      C.Exit = isa<ReturnStmt>(Then) ? "return" : isa<BreakStmt>(Then) ? "break" : isa<ContinueStmt>(Then) ? "continue" : "";
    }
    return C;
  }

  // ---- branches that split warps -------------------------------------------------

  int64_t blockCost(const CFGBlock &B) {
    llvm::SmallPtrSet<const Stmt *, 16> Inner;
    std::vector<const Stmt *> Work;
    for (const CFGElement &El : B)
      if (auto S = El.getAs<CFGStmt>())
        for (const Stmt *C : S->getStmt()->children())
          Work.push_back(C);
    while (!Work.empty()) { // every sub-expression of an element is counted with it
      const Stmt *C = Work.back();
      Work.pop_back();
      if (!C || !Inner.insert(C).second)
        continue;
      for (const Stmt *D : C->children())
        Work.push_back(D);
    }
    int64_t Cost = 0;
    for (const CFGElement &El : B)
      if (auto S = El.getAs<CFGStmt>(); S && !Inner.count(S->getStmt()))
        Cost += stmtCost(S->getStmt());
    return Cost;
  }

  int64_t stmtCost(const Stmt *S) {
    if (!S)
      return 0;
    int64_t Cost = 0;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (!BO->isCommaOp() && !BO->isLogicalOp())
        Cost = 1;
    } else if (isa<ArraySubscriptExpr, CompoundAssignOperator>(S)) {
      Cost = 1;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      Cost = UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref ? 1 : 0;
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      Cost = 1;
      if (const FunctionDecl *Def = analysableDefinition(CE->getDirectCallee(), Ctx))
        Cost += D.cost(*Def);
    }
    for (const Stmt *C : S->children())
      Cost += stmtCost(C);
    return Cost;
  }

  void reportBranches() {
    const unsigned N = Cfg->getNumBlockIDs();
    std::vector<int64_t> Costs(N, 0);
    for (const CFGBlock *B : *Cfg)
      Costs[B->getBlockID()] = blockCost(*B);
    for (const CFGBlock *X : *Cfg) {
      const Stmt *S = X->getTerminatorStmt();
      if (!S || X->succ_size() < 2 || !isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, ConditionalOperator>(S))
        continue;
      const Expr *CondExpr = branchCondition(S);
      if (!CondExpr)
        continue;
      // The whole condition (`a && b` spans several blocks), in the values of this block.
      Env Copy = Out[X->getBlockID()] ? *Out[X->getBlockID()] : Env();
      Env *Saved = E;
      E = &Copy;
      Cache.clear();
      const bool WasReporting = Reporting;
      Reporting = false;
      ThreadValue Cond = eval(CondExpr);
      Reporting = WasReporting;
      E = Saved;
      if (isa<SwitchStmt>(S) ? Cond.laneConstant() : toBool(Cond).uniformGroup() >= 32)
        continue;
      DivergenceBranch Br;
      Br.S = S;
      Br.Loc = S->getBeginLoc();
      Br.Loop = isa<ForStmt, WhileStmt, DoStmt>(S);
      Br.What = Br.Loop ? "loop" : isa<SwitchStmt>(S) ? "switch" : isa<ConditionalOperator>(S) ? "conditional operator" : "branch";
      Br.Cond = Cond;
      Br.CondText = sourceText(CondExpr, Ctx);
      Br.Kernel = D.Kernel;
      unsigned Side = 0;
      for (const CFGBlock *Succ : X->succs()) {
        if (!Succ) {
          ++Side;
          continue;
        }
        std::vector<bool> In(N, false);
        region(X, Succ, In);
        int64_t W = 0;
        for (unsigned I = 0; I < N; ++I)
          if (In[I] && I != X->getBlockID())
            W += Costs[I];
        (Side == 0 ? Br.WorkTaken : Br.WorkOther) += W;
        ++Side;
      }
      D.Out.addBranch(std::move(Br));
    }
  }
};

} // namespace

FunctionSummary analyzeFunctionBody(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params,
                                    const ThreadValue &This, const DivergenceContext &Entry, bool Report) {
  if (!FD.hasBody())
    return FunctionSummary{opaque(Params), {}};
  return Dataflow(FD, D, Params, This, Entry, Report).run();
}

} // namespace clang::tidy::occlint
