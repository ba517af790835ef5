// Loops whose bound is their counter's start plus a uniform count:
// `for (p = p0; p < p0 + rows; ++p)` runs `rows` times in every lane, whatever
// p0 is in each. Scalar evolution would say it as {p0,+,1} < p0 + rows, that
// is {0,+,1} < rows. The domain keeps no relation between two per-lane values
// (p and p0 + rows are both per-lane), so the relation is read from the
// loop's header: the counter starts at a value that is the same as one term
// of the bound (Dataflow::sameValue: unmodified locals, no memory read), the
// other term and the step are the same in every lane, and nothing but the
// increment writes the counter in the loop. Only `for` loops: the header is
// where the three parts are.
#include "divergence/DivergenceDataflowImpl.h"

namespace clang::tidy::occlint::detail {

namespace {

/// The start of For's counter Var: `int p = p0` or `p = p0` in the init.
const Expr *counterStart(const ForStmt &For, const VarDecl *&Var) {
  const Stmt *Init = For.getInit();
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init); DS && DS->isSingleDecl()) {
    Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    return Var ? Var->getInit() : nullptr;
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init); BO && BO->getOpcode() == BO_Assign)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
      Var = dyn_cast<VarDecl>(DRE->getDecl());
      return BO->getRHS();
    }
  return nullptr;
}

bool refersTo(const Expr *E, const VarDecl *Var) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE && DRE->getDecl() == Var;
}

} // namespace

std::optional<ThreadValue> Dataflow::shiftedLoopTrips(const Expr *CondExpr) {
  const CFGBlock *X = blockById(Cur);
  const auto *For = X ? dyn_cast_or_null<ForStmt>(X->getTerminatorStmt()) : nullptr;
  if (!For || !For->getCond() || For->getCond()->IgnoreParenImpCasts() != CondExpr->IgnoreParenImpCasts())
    return std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(CondExpr->IgnoreParenImpCasts());
  if (!BO || !(BO->isRelationalOp() || BO->getOpcode() == BO_NE))
    return std::nullopt;
  const VarDecl *Var = nullptr;
  const Expr *Start = counterStart(*For, Var);
  if (!Start || !Var)
    return std::nullopt;
  const Expr *Bound = refersTo(BO->getLHS(), Var) ? BO->getRHS() : refersTo(BO->getRHS(), Var) ? BO->getLHS() : nullptr;
  // The bound: start + count (either order), or start - count for a loop
  // that counts down.
  const auto *Shift = Bound ? dyn_cast<BinaryOperator>(Bound->IgnoreParenImpCasts()) : nullptr;
  if (!Shift || (Shift->getOpcode() != BO_Add && Shift->getOpcode() != BO_Sub))
    return std::nullopt;
  const Expr *Count = nullptr;
  if (sameValue(Shift->getLHS(), Start))
    Count = Shift->getRHS();
  else if (Shift->getOpcode() == BO_Add && sameValue(Shift->getRHS(), Start))
    Count = Shift->getLHS();
  if (!Count)
    return std::nullopt;
  // The step: ++p, p++, --p, p--, p += s, p -= s with s the same in every lane.
  const Expr *Inc = For->getInc() ? For->getInc()->IgnoreParenImpCasts() : nullptr;
  std::optional<ThreadValue> Step;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc);
      UO && UO->isIncrementDecrementOp() && refersTo(UO->getSubExpr(), Var))
    Step = ThreadValue::constant(1);
  else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           CA && refersTo(CA->getLHS(), Var) && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
    Step = eval(CA->getRHS());
  if (!Step || !Step->laneConstant())
    return std::nullopt;
  const ThreadValue Trips = eval(Count);
  if (!Trips.laneConstant())
    return std::nullopt;
  // Nothing else writes the counter inside the loop.
  auto [Cached, New] = CounterWrittenInBody.try_emplace(For, false);
  if (New && For->getBody())
    Cached->second = ExprMutationAnalyzer(*For->getBody(), Ctx).isMutated(Var);
  if (Cached->second)
    return std::nullopt;
  // The outcome of each test is the same in the lanes that share the count
  // and the step: the whole block when both are, else within each warp.
  return Trips.blockUniform() && Step->blockUniform() ? ThreadValue::uniform() : ThreadValue::warpUniform();
}

} // namespace clang::tidy::occlint::detail
