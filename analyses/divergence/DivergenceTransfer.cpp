// The transfer functions of the divergence dataflow: how each statement and
// expression (assignments, operators, loads) maps the thread values of the
// local variables (assignments under divergent control are tainted where the
// paths join: DivergenceSyncDependence.cpp; calls and inline assembly:
// DivergenceCallTransfer.cpp).
#include "ast/CudaBuiltinVariables.h"
#include "ast/IntegerConstants.h"
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <string>

namespace clang::tidy::occlint::detail {

ThreadValue taintAtJoin(const ThreadValue &V, unsigned Group) {
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

ThreadValue taintAtBoundaryJoin(const ThreadValue &V, unsigned Group) {
  ThreadValue T = taintAtJoin(V, Group);
  T.Mono = V.Mono;
  if (const unsigned Span = V.spanWithinPeriod(); Group < 32 && Span) {
    T = ThreadValue::table(V.Lane, RestKind::PerLane, V.Align, V.Mono);
    T.SpanLog2 = Span;
    T.Assumed = V.Assumed;
    T.FromData = V.FromData;
  }
  // The same in every lane before (or only past a bound): now it differs
  // only past this bound.
  if ((V.laneConstant() || V.AtBound) && !T.laneConstant())
    T.AtBound = true;
  return T;
}

void Dataflow::processStmt(const Stmt *S) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dcl : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Dcl)) {
        if (VD->hasGlobalStorage())
          continue;
        (*E)[VD] = VD->getInit() ? eval(VD->getInit()) : ThreadValue::uniform();
      }
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    ThreadValue V = RS->getRetValue() ? eval(RS->getRetValue()) : ThreadValue::uniform();
    if (Taints[Cur].Group < 64) // threads return here at different points
      V = taintAtJoin(V, Taints[Cur].Group);
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

const VarDecl *Dataflow::localVar(const Expr *Ex) const {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Ex->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && !VD->hasGlobalStorage())
      return VD;
  return nullptr;
}

/// An assignment in the current block. Under a thread-dependent branch the
/// threads still running took the same path, so the value is not divergent
/// by itself: the threads disagree only where the branch's paths join again,
/// which computeJoinTaints finds from the blocks that assign each variable.
void Dataflow::setVar(const VarDecl *VD, ThreadValue V) {
  AssignedIn[Cur].insert(VD);
  (*E)[VD] = V;
}

ThreadValue Dataflow::varValue(const VarDecl *VD) {
  if (auto It = E->find(VD); It != E->end())
    return It->second;
  return ThreadValue::uniform();
}

void Dataflow::assign(const Expr *LHS, const ThreadValue &V) {
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
    // Only an array the variable holds; a store through a pointer
    // (`p[i] = v`) changes the memory, not the pointer.
    if (const VarDecl *VD = localVar(AS->getBase()); VD && VD->getType()->isArrayType())
      Base = AS->getBase();
    Stored = join(V, opaque({eval(AS->getIdx())}));
  }
  if (Base)
    if (const VarDecl *VD = localVar(Base))
      setVar(VD, join(varValue(VD), Stored));
}

// ---- expressions -----------------------------------------------------------

ThreadValue Dataflow::eval(const Expr *Ex) {
  if (!Ex)
    return ThreadValue::uniform();
  Ex = Ex->IgnoreParens();
  if (const ThreadValue *Known = Cache.find(Ex))
    return *Known;
  // Deep expressions (ast/DeepExpressions.h): every PrewarmEvery levels the
  // operands below are evaluated bottom-up first, so the recursion finds them
  // cached; past the bound, "varying" is the sound answer.
  if (auto It = CondBlock.find(Ex); It != CondBlock.end() && It->second != Cur && CondFresh[It->second])
    return Cache.set(Ex, *Conds[It->second]); // cached too: the expression around it reads its data mark there
  if (Depth.exhausted())
    return ThreadValue::top();
  RecursionDepth::Scope Level(Depth);
  if (Depth.prewarmHere())
    forEachOperandPostOrder(Ex, [this](const Expr *Sub) { eval(Sub); });
  ThreadValue V = evalUncached(Ex);
  // Data flows through every operation: a per-thread result of operands one
  // of which came from data came from data too (the domain's operations do
  // not carry the mark; their operands are cached here).
  if (!V.FromData && !V.laneConstant())
    for (const Stmt *Child : Ex->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        if (const ThreadValue *Known = Cache.find(CE->IgnoreParens()); Known && Known->FromData) {
          V.FromData = true;
          break;
        }
  // So does "differs only past a bound", when every varying operand does.
  if (!V.AtBound && !V.laneConstant()) {
    std::vector<ThreadValue> Operands;
    bool AllCached = true;
    for (const Stmt *Child : Ex->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child)) {
        const ThreadValue *Known = Cache.find(CE->IgnoreParens());
        if (!Known) {
          AllCached = false;
          break;
        }
        Operands.push_back(*Known);
      }
    if (AllCached && onlyAtBound(Operands))
      V.AtBound = true;
  }
  Cache.set(Ex, V);
  return V;
}

ThreadValue Dataflow::builtinVar(StringRef Var, StringRef Field) {
  const unsigned Dim = Field == "x" ? 0 : Field == "y" ? 1 : 2;
  if (Var == "threadIdx")
    return D.threadIdx(Dim);
  if (Var == "blockDim")
    return D.blockDim(Dim);
  return ThreadValue::uniform(); // blockIdx, gridDim
}

ThreadValue Dataflow::load(const ThreadValue &Address) {
  // Every lane reading the same address reads the same value.
  if (Address.laneConstant())
    return opaque({Address});
  ThreadValue V = ThreadValue::top();
  V.FromData = true;
  return V;
}

ThreadValue Dataflow::evalUncached(const Expr *Ex) {
  if (const auto *IL = dyn_cast<IntegerLiteral>(Ex))
    return ThreadValue::constant(Ex->getType()->isUnsignedIntegerType() ? int64_t(IL->getValue().getLimitedValue())
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
  if (isa<MSPropertyRefExpr>(Ex)) {
    if (const std::optional<BuiltinComponent> B = builtinMember(Ex))
      return builtinVar(B->variable, B->component);
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
  if (const auto *CO = dyn_cast<ConditionalOperator>(Ex)) {
    // A condition the compiler decides (`(Z > 32) ? __syncthreads() :
    // __syncwarp()`): the other arm is dead code, as in the CFG, and its
    // calls are never reached.
    if (const std::optional<bool> Known = compileTimeCondition(CO->getCond()))
      return eval(*Known ? CO->getTrueExpr() : CO->getFalseExpr());
    return select(eval(CO->getCond()), eval(CO->getTrueExpr()), eval(CO->getFalseExpr()));
  }
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
    // A static data member read through an object (`packed.size`): the
    // object does not matter, the member is one variable of the program.
    if (const auto *Static = dyn_cast<VarDecl>(ME->getMemberDecl())) {
      if (Static->getType()->isIntegralOrEnumerationType() && Static->getType().isConstQualified() &&
          Static->getInit() && !Static->getInit()->isValueDependent())
        if (const APValue *Value = Static->evaluateValue(); Value && Value->isInt())
          return ThreadValue::constant(Value->getInt().getExtValue());
      return ThreadValue::uniform();
    }
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
  if (const std::optional<int64_t> C = integerConstantOf(Ex, Ctx))
    return ThreadValue::constant(*C);
  std::vector<ThreadValue> Vs;
  for (const Stmt *Child : Ex->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      Vs.push_back(eval(CE));
  return opaque(Vs);
}

ThreadValue Dataflow::evalDeclRef(const DeclRefExpr *DRE) {
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

ThreadValue Dataflow::evalUnary(const UnaryOperator *UO) {
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
    const ThreadValue New =
        withBoundOf(withDataOf(add(Old, ThreadValue::constant(UO->isIncrementOp() ? 1 : -1)), Old), {Old});
    assign(Sub, New);
    return UO->isPrefix() ? New : Old;
  }
  default:
    return eval(Sub);
  }
}

ThreadValue Dataflow::withDataOf(ThreadValue V, const ThreadValue &Operand) {
  if (Operand.FromData && !V.laneConstant())
    V.FromData = true;
  return V;
}

ThreadValue Dataflow::withBoundOf(ThreadValue V, const std::vector<ThreadValue> &Operands) {
  if (!V.laneConstant() && onlyAtBound(Operands))
    V.AtBound = true;
  return V;
}

bool Dataflow::floating(const Expr *Ex) { return Ex->getType()->isFloatingType(); }

ThreadValue Dataflow::arith(BinaryOperatorKind Op, const ThreadValue &L, const ThreadValue &R, bool Float) {
  if (Float && Op != BO_Add && Op != BO_Sub)
    return opaque({L, R});
  switch (Op) {
  case BO_Add:
    return add(L, R);
  case BO_Sub:
    return sub(L, R);
  case BO_Mul:
    return mul(L, R);
  case BO_Div:
    return div(L, R);
  case BO_Rem:
    return rem(L, R);
  case BO_Shl:
    return shl(L, R);
  case BO_Shr:
    return shr(L, R);
  case BO_And:
    return bitAnd(L, R);
  case BO_Or:
    return bitOr(L, R);
  case BO_Xor:
    return bitXor(L, R);
  default:
    return opaque({L, R});
  }
}

namespace {
/// The operands that decide a logical node: `X && Y`, `X || Y`, `!X`.
SmallVector<const Expr *, 2> logicalOperands(const Expr *E) {
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isLogicalOp())
    return {BO->getLHS()->IgnoreParens(), BO->getRHS()->IgnoreParens()};
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_LNot)
    return {UO->getSubExpr()->IgnoreParens()};
  return {};
}
} // namespace

// The folding rules are Clang's own (ExprConstant.cpp, with side effects
// ignored as in EvaluateAsBooleanCondition): `X && Y` is false when X is,
// Y's value when X is true, and false when X is unknown but Y is false
// (`||` the same with true); `!X` negates. Iterative, so that a chain of
// thousands of terms needs no deep recursion.
std::optional<bool> Dataflow::compileTimeCondition(const Expr *Cond) {
  Cond = Cond->IgnoreParens();
  std::vector<std::pair<const Expr *, bool>> Stack{{Cond, false}}; // (node, operands done)
  while (!Stack.empty()) {
    auto [E, OperandsDone] = Stack.back();
    if (CompileTimeConditions.count(E)) {
      Stack.pop_back();
      continue;
    }
    const SmallVector<const Expr *, 2> Operands = logicalOperands(E);
    if (Operands.empty() || E->isValueDependent()) {
      bool Value;
      std::optional<bool> Known;
      if (!E->isValueDependent() && E->EvaluateAsBooleanCondition(Value, Ctx))
        Known = Value;
      CompileTimeConditions[E] = Known;
      Stack.pop_back();
      continue;
    }
    if (!OperandsDone) {
      Stack.back().second = true;
      for (const Expr *Operand : Operands)
        Stack.push_back({Operand, false});
      continue;
    }
    const std::optional<bool> First = CompileTimeConditions.lookup(Operands[0]);
    std::optional<bool> Known;
    if (Operands.size() == 1) {
      if (First)
        Known = !*First;
    } else {
      const bool ShortCircuit = cast<BinaryOperator>(E)->getOpcode() == BO_LOr;
      const std::optional<bool> Second = CompileTimeConditions.lookup(Operands[1]);
      if (First && *First == ShortCircuit)
        Known = ShortCircuit;
      else if (First)
        Known = Second;
      else if (Second && *Second == ShortCircuit)
        Known = ShortCircuit;
    }
    CompileTimeConditions[E] = Known;
    Stack.pop_back();
  }
  return CompileTimeConditions.lookup(Cond);
}

/// A split at the leftovers of a chunked range is a boundary split
/// (RemainderTails.cpp).
ThreadValue Dataflow::remainderTail(const BinaryOperator *BO, ThreadValue C) {
  if (C.Rest == RestKind::PerLane && C.Split != SplitKind::Boundary && C.Split != SplitKind::Data && !C.FromData &&
      laneAgainstRemainder(BO)) {
    C.Split = SplitKind::Boundary;
    C.SureOther = 0;
  }
  return C;
}

ThreadValue Dataflow::evalBinary(const BinaryOperator *BO) {
  const BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign) {
    ThreadValue V = eval(BO->getRHS());
    assign(BO->getLHS(), V);
    return V;
  }
  if (BO->isCompoundAssignmentOp()) {
    // The stored value carries the data mark now: eval() adds it to the
    // expression's value only after the assignment is done.
    const ThreadValue L = eval(BO->getLHS()), R = eval(BO->getRHS());
    ThreadValue V = withBoundOf(
        withDataOf(withDataOf(arith(BinaryOperator::getOpForCompoundAssignment(Op), L, R, floating(BO->getLHS())), L),
                   R),
        {L, R});
    assign(BO->getLHS(), V);
    return V;
  }
  if (Op == BO_Comma) {
    eval(BO->getLHS());
    return eval(BO->getRHS());
  }
  if (Op == BO_LAnd || Op == BO_LOr)
    if (const std::optional<bool> Known = compileTimeCondition(BO->getLHS()))
      if (*Known == (Op == BO_LOr)) // `false && x`, `true || x`: x is never evaluated
        return ThreadValue::constant(*Known);
  const ThreadValue L = eval(BO->getLHS()), R = eval(BO->getRHS());
  switch (Op) {
  case BO_LAnd:
    return logicalAnd(L, R);
  case BO_LOr:
    return logicalOr(L, R);
  case BO_LT:
    return remainderTail(BO, compare(CompareOp::LT, L, R));
  case BO_LE:
    return remainderTail(BO, compare(CompareOp::LE, L, R));
  case BO_GT:
    return remainderTail(BO, compare(CompareOp::GT, L, R));
  case BO_GE:
    return remainderTail(BO, compare(CompareOp::GE, L, R));
  case BO_EQ:
    return compare(CompareOp::EQ, L, R);
  case BO_NE:
    return compare(CompareOp::NE, L, R);
  default:
    return arith(Op, L, R, floating(BO->getLHS()) || floating(BO->getRHS()));
  }
}

} // namespace clang::tidy::occlint::detail
