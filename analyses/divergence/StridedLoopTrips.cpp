#include "divergence/StridedLoopTrips.h"

#include "ast/CudaBuiltinVariables.h"
#include "ast/IntegerConstants.h"
#include "divergence/GlobalIndexBounds.h"

#include "clang/AST/Expr.h"

#include <cstdlib>

namespace clang::tidy::occlint {

namespace {

const VarDecl *localOf(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl())
      return VD;
  return nullptr;
}

// An integer expression of threadIdx.x and blockDim.x, evaluated for one
// thread: constants, + - * / % << >> &, and locals that nothing writes after
// their initialisation, through their initialisers (a bounded depth).
class PerThread {
public:
  PerThread(const ASTContext &Ctx, const UnwrittenLocals &Locals, int64_t BlockX)
      : Ctx(Ctx), Locals(Locals), BlockX(BlockX) {}

  std::optional<int64_t> at(const Expr *E, int64_t Tid, unsigned Depth = 0) const {
    if (!E || Depth > 16)
      return std::nullopt;
    E = E->IgnoreParenImpCasts();
    if (std::optional<int64_t> K = integerConstantOf(E, Ctx))
      return K;
    if (const std::optional<BuiltinComponent> B = builtinMember(E)) {
      if (B->component != "x")
        return std::nullopt; // y, z: the start must be a function of x alone
      if (B->variable == "threadIdx")
        return Tid;
      if (B->variable == "blockDim")
        return BlockX;
      return std::nullopt;
    }
    if (const VarDecl *VD = localOf(E))
      return VD->getInit() && Locals.contains(VD) && VD->getType()->isIntegerType() ? at(VD->getInit(), Tid, Depth + 1)
                                                                                    : std::nullopt;
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return std::nullopt;
    const std::optional<int64_t> L = at(BO->getLHS(), Tid, Depth + 1), R = at(BO->getRHS(), Tid, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    // The operands of a thread's index are small: no overflow below 2^31.
    if (std::abs(*L) > (int64_t(1) << 31) || std::abs(*R) > (int64_t(1) << 31))
      return std::nullopt;
    std::optional<int64_t> V;
    switch (BO->getOpcode()) {
    case BO_Add:
      V = *L + *R;
      break;
    case BO_Sub:
      V = *L - *R;
      break;
    case BO_Mul:
      V = *L * *R;
      break;
    case BO_Div:
      V = *R == 0 ? std::nullopt : std::optional<int64_t>(*L / *R);
      break;
    case BO_Rem:
      V = *R == 0 ? std::nullopt : std::optional<int64_t>(*L % *R);
      break;
    case BO_Shl:
      V = *R < 0 || *R > 31 || *L < 0 ? std::nullopt : std::optional<int64_t>(*L << *R);
      break;
    case BO_Shr:
      V = *R < 0 || *R > 31 ? std::nullopt : std::optional<int64_t>(*L >> *R);
      break;
    case BO_And:
      V = *L & *R;
      break;
    default:
      return std::nullopt;
    }
    // A negative value in unsigned arithmetic wraps: not modelled.
    if (V && *V < 0 && (BO->getType()->isUnsignedIntegerType() || *L < 0 || *R < 0))
      return std::nullopt;
    return V;
  }

  /// Whether S may read threadIdx (a stride must not): anywhere in it or in
  /// the initialisers of the locals it reads; past a bounded depth, yes.
  static bool readsThreadIndex(const Stmt *S, unsigned Depth = 0) {
    if (!S)
      return false;
    if (Depth > 16)
      return true;
    if (const auto *E = dyn_cast<Expr>(S))
      if (const std::optional<BuiltinComponent> B = builtinMember(E); B && B->variable == "threadIdx")
        return true;
    for (const Stmt *C : S->children())
      if (readsThreadIndex(C, Depth + 1))
        return true;
    if (const VarDecl *VD = localOf(dyn_cast<Expr>(S)); VD && VD->getInit())
      return readsThreadIndex(VD->getInit(), Depth + 1);
    return false;
  }

private:
  const ASTContext &Ctx;
  const UnwrittenLocals &Locals;
  int64_t BlockX;
};

// The stride of `v += S`, `v = v + S`, `v = S + v`, `++v`, `v++`.
const Expr *strideOf(const Expr *Inc, const VarDecl *V, bool &One) {
  One = false;
  if (!Inc)
    return nullptr;
  Inc = Inc->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementOp() && localOf(U->getSubExpr()) == V) {
    One = true;
    return nullptr;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc); CA && CA->getOpcode() == BO_AddAssign)
    return localOf(CA->getLHS()) == V ? CA->getRHS() : nullptr;
  const auto *BO = dyn_cast<BinaryOperator>(Inc);
  if (!BO || BO->getOpcode() != BO_Assign || localOf(BO->getLHS()) != V)
    return nullptr;
  const auto *Add = dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
  if (Add && Add->getOpcode() == BO_Add)
    return localOf(Add->getLHS()) == V ? Add->getRHS() : localOf(Add->getRHS()) == V ? Add->getLHS() : nullptr;
  return nullptr;
}

} // namespace

const Expr *loopCounterStart(const Stmt *Init, const VarDecl *V) {
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    for (const Decl *D : DS->decls())
      if (D == V)
        return V->getInit();
    return nullptr;
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init); BO && BO->getOpcode() == BO_Assign)
    if (localOf(BO->getLHS()) == V)
      return BO->getRHS();
  return nullptr;
}

std::optional<LoopTrips> stridedLoopTrips(const ForStmt &Loop, int64_t Bound, int64_t BlockX, const ASTContext &Ctx,
                                          const UnwrittenLocals &Locals) {
  const Expr *Condition = Loop.getCond() ? Loop.getCond()->IgnoreParenImpCasts() : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(Condition);
  if (!Cond || BlockX <= 0 || BlockX > 1024 || std::abs(Bound) > (int64_t(1) << 31))
    return std::nullopt;
  BinaryOperatorKind Op = Cond->getOpcode();
  const VarDecl *V = localOf(Cond->getLHS());
  if (!V) {
    V = localOf(Cond->getRHS());
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!V || (Op != BO_LT && Op != BO_LE) || !V->getType()->isIntegerType())
    return std::nullopt;
  const int64_t End = Op == BO_LT ? Bound : Bound + 1; // v < End
  const Expr *Start = loopCounterStart(Loop.getInit(), V);
  bool One = false;
  const Expr *Stride = strideOf(Loop.getInc(), V, One);
  if (!Start || (!Stride && !One) || (Stride && PerThread::readsThreadIndex(Stride)))
    return std::nullopt;
  if (!Loop.getBody() || localsWrittenIn(*Loop.getBody()).contains(V))
    return std::nullopt; // the body moves the variable too
  const PerThread Eval(Ctx, Locals, BlockX);
  const std::optional<int64_t> S = One ? std::optional<int64_t>(1) : Eval.at(Stride, 0);
  if (!S || *S <= 0)
    return std::nullopt;
  std::optional<int64_t> First;
  LoopTrips Out;
  for (int64_t Tid = 0; Tid < BlockX; ++Tid) {
    const std::optional<int64_t> From = Eval.at(Start, Tid);
    if (!From || *From < 0)
      return std::nullopt;
    const int64_t Trips = *From >= End ? 0 : (End - *From + *S - 1) / *S;
    if (!First)
      First = Trips;
    else if (Trips != *First)
      Out.differ = true;
  }
  return Out;
}

} // namespace clang::tidy::occlint
