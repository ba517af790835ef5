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
#include "divergence/StridedLoopTrips.h"

namespace clang::tidy::occlint::detail {

std::optional<ThreadValue> Dataflow::shiftedLoopTrips(const Expr *CondExpr) {
  const CFGBlock *X = blockById(Cur);
  const auto *For = X ? dyn_cast_or_null<ForStmt>(X->getTerminatorStmt()) : nullptr;
  if (!For || !For->getCond() || For->getCond()->IgnoreParenImpCasts() != CondExpr->IgnoreParenImpCasts())
    return std::nullopt;
  const auto *BO = dyn_cast<BinaryOperator>(CondExpr->IgnoreParenImpCasts());
  if (!BO || !(BO->isRelationalOp() || BO->getOpcode() == BO_NE))
    return std::nullopt;
  // The counter: the local on one side of the condition that the
  // init-statement starts.
  const VarDecl *Var = localVar(BO->getLHS());
  const Expr *Bound = BO->getRHS();
  const Expr *Start = Var ? loopCounterStart(For->getInit(), Var) : nullptr;
  if (!Start) {
    Var = localVar(BO->getRHS());
    Bound = BO->getLHS();
    Start = Var ? loopCounterStart(For->getInit(), Var) : nullptr;
  }
  if (!Start)
    return std::nullopt;
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
      UO && UO->isIncrementDecrementOp() && localVar(UO->getSubExpr()) == Var)
    Step = ThreadValue::constant(1);
  else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc);
           CA && localVar(CA->getLHS()) == Var && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
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
