#include "divergence/LoopWeights.h"

#include "ast/IntegerConstants.h"

#include "clang/AST/Expr.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace clang::tidy::occlint {

bool isLoop(const Stmt *S) { return isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

namespace {

const VarDecl *varOf(const Expr *E) {
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(DRE->getDecl());
  return nullptr;
}

} // namespace

std::optional<int64_t> LoopWeights::constantTripCount(const Stmt *Loop, const ASTContext &Ctx) {
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For || !For->getInit() || !For->getCond() || !For->getInc())
    return std::nullopt;
  // The counter and its start: `int k = C0` or `k = C0`.
  const VarDecl *Var = nullptr;
  std::optional<int64_t> Start;
  if (const auto *DS = dyn_cast<DeclStmt>(For->getInit()); DS && DS->isSingleDecl()) {
    Var = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (Var && Var->getInit())
      Start = integerConstantOf(Var->getInit(), Ctx);
  } else if (const auto *BO = dyn_cast<BinaryOperator>(For->getInit()); BO && BO->getOpcode() == BO_Assign) {
    Var = varOf(BO->getLHS());
    Start = integerConstantOf(BO->getRHS(), Ctx);
  }
  if (!Var || !Start)
    return std::nullopt;
  // The step: ++k, k++, --k, k--, k += C, k -= C.
  std::optional<int64_t> Step;
  if (const auto *UO = dyn_cast<UnaryOperator>(For->getInc()->IgnoreParenImpCasts());
      UO && UO->isIncrementDecrementOp() && varOf(UO->getSubExpr()) == Var)
    Step = UO->isIncrementOp() ? 1 : -1;
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(For->getInc()->IgnoreParenImpCasts());
           CA && varOf(CA->getLHS()) == Var && (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign))
    if (auto C = integerConstantOf(CA->getRHS(), Ctx); C && *C != INT64_MIN)
      Step = CA->getOpcode() == BO_AddAssign ? *C : -*C;
  if (!Step || *Step == 0)
    return std::nullopt;
  // The bound: k < C1, k <= C1, k > C1, k >= C1, k != C1 (counter on the left).
  const auto *Cond = dyn_cast<BinaryOperator>(For->getCond()->IgnoreParenImpCasts());
  if (!Cond || varOf(Cond->getLHS()) != Var)
    return std::nullopt;
  const std::optional<int64_t> Bound = integerConstantOf(Cond->getRHS(), Ctx);
  if (!Bound)
    return std::nullopt;
  const BinaryOperatorKind Op = Cond->getOpcode();
  const bool Up = Op == BO_LT || Op == BO_LE || (Op == BO_NE && *Step > 0);
  if (Op != BO_LT && Op != BO_LE && Op != BO_GT && Op != BO_GE && Op != BO_NE)
    return std::nullopt;
  if (Up != (*Step > 0))
    return std::nullopt; // a counter that moves away from its bound
  // The distance to cover, in the direction of the step (in 128 bits: the
  // bounds may be any 64-bit constants).
  __int128 Span = Up ? __int128(*Bound) - *Start : __int128(*Start) - *Bound;
  if (Op == BO_LE || Op == BO_GE)
    Span += 1;
  const __int128 Magnitude = *Step < 0 ? -__int128(*Step) : __int128(*Step);
  if (Op == BO_NE && Span % Magnitude != 0)
    return std::nullopt; // steps over its bound
  if (Span <= 0)
    return 0;
  const __int128 Trips = (Span + Magnitude - 1) / Magnitude;
  return Trips > INT64_MAX ? std::optional<int64_t>() : std::optional<int64_t>(int64_t(Trips));
}

LoopWeights::LoopWeights(const Stmt *Body, const ASTContext &Ctx) {
  // One walk with an explicit stack (no recursion in the depth of the code).
  std::vector<std::pair<const Stmt *, const Stmt *>> Work{{Body, nullptr}};
  while (!Work.empty()) {
    const auto [S, Loop] = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    LoopOf[S] = Loop;
    if (!isLoop(S)) {
      for (const Stmt *C : S->children())
        Work.push_back({C, Loop});
      continue;
    }
    ParentOf[S] = Loop;
    const std::optional<int64_t> Trip = constantTripCount(S, Ctx);
    Trips[S] = Trip ? double(*Trip) : UnknownTripCount;
    const Stmt *Init = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(S))
      Init = For->getInit();
    else if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
      Init = Range->getInit();
    for (const Stmt *C : S->children())
      Work.push_back({C, C == Init ? Loop : S});          // the init runs once, with the loop's own level
    if (const auto *Range = dyn_cast<CXXForRangeStmt>(S)) // its range and begin/end run once too
      for (const Stmt *Once :
           {static_cast<const Stmt *>(Range->getRangeStmt()), static_cast<const Stmt *>(Range->getBeginStmt()),
            static_cast<const Stmt *>(Range->getEndStmt())})
        if (Once)
          Work.push_back({Once, Loop});
  }
}

const Stmt *LoopWeights::enclosingLoop(const Stmt *S) const {
  auto It = LoopOf.find(S);
  return It == LoopOf.end() ? nullptr : It->second;
}

const Stmt *LoopWeights::parentLoop(const Stmt *Loop) const {
  auto It = ParentOf.find(Loop);
  return It == ParentOf.end() ? nullptr : It->second;
}

double LoopWeights::iterationWeight(const Stmt *Loop) const {
  if (!Loop)
    return 1;
  if (auto It = Weights.find(Loop); It != Weights.end())
    return It->second;
  // Up the chain of loops without recursion, then back down, memoizing.
  std::vector<const Stmt *> Chain;
  for (const Stmt *L = Loop; L && !Weights.count(L); L = parentLoop(L))
    Chain.push_back(L);
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    const Stmt *Parent = parentLoop(*It);
    const double Outer = Parent ? Weights.lookup(Parent) : 1.0;
    Weights[*It] = std::min(Outer * Trips.lookup(*It), 1e12);
  }
  return Weights.lookup(Loop);
}

double LoopWeights::weight(const Stmt *S) const { return iterationWeight(enclosingLoop(S)); }

} // namespace clang::tidy::occlint
