// What a branch's condition says about a variable on each of its edges, for
// the divergence domain: `if (C % 256 != 0) __trap();` (or
// `assert(C % 256 == 0)`) leaves C a multiple of 256 on the path that goes
// on, so `for (c = lane * 8; c < C; c += 256)` has the same trip count in
// every lane. Only alignments are read (the domain keeps a value's known
// low zero bits), from `X % K` and `X & (K - 1)` with K a power of two,
// compared with zero or tested as a truth value. An assertion's argument
// says the same after it, compiled in or not (StatedAlignments.h).
#include "ast/IntegerConstants.h"
#include "divergence/DivergenceDataflowImpl.h"
#include "divergence/ThreadVarianceImpl.h"
#include "facts/StatedAssertions.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint::detail {

std::optional<EdgeFact> Dataflow::edgeFactOf(const CFGBlock &B) {
  const Stmt *T = B.getTerminatorCondition(false);
  const auto *Cond = dyn_cast_or_null<Expr>(T);
  if (!Cond || B.succ_size() != 2)
    return std::nullopt;
  const Expr *E = Cond->IgnoreParenImpCasts();
  bool ZeroOnTrue = false; // the low bits are zero when the condition is true
  if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot) {
    E = Not->getSubExpr()->IgnoreParenImpCasts();
    ZeroOnTrue = true;
  } else if (const auto *Cmp = dyn_cast<BinaryOperator>(E);
             Cmp && (Cmp->getOpcode() == BO_EQ || Cmp->getOpcode() == BO_NE)) {
    const Expr *Other = nullptr;
    for (const auto &[A, Bx] : {std::pair{Cmp->getLHS(), Cmp->getRHS()}, std::pair{Cmp->getRHS(), Cmp->getLHS()}})
      if (integerConstantOf(Bx, Ctx) == 0) {
        Other = A;
        break;
      }
    if (!Other)
      return std::nullopt;
    E = Other;
    ZeroOnTrue = Cmp->getOpcode() == BO_EQ;
  }
  // `X % K` or `X & (K - 1)` with K = 2^Log2.
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Rem && BO->getOpcode() != BO_And))
    return std::nullopt;
  const VarDecl *Var = localVar(BO->getLHS());
  const std::optional<int64_t> K = integerConstantOf(BO->getRHS(), Ctx);
  const std::optional<unsigned> Log2 = K ? alignmentStatedByZero(BO->getOpcode() == BO_Rem, *K) : std::nullopt;
  if (!Var || !Log2)
    return std::nullopt;
  return EdgeFact{Var, *Log2, ZeroOnTrue ? 0u : 1u};
}

void Dataflow::applyEdgeFact(const EdgeFact &F, Env &Edge) {
  auto It = Edge.find(F.Var);
  if (It == Edge.end())
    return;
  ThreadValue &V = It->second;
  // Only a value whose lane part is itself a multiple of 2^Log2 can take
  // the alignment (then so is its uniform part).
  if (V.Rest == RestKind::PerLane || V.Rest == RestKind::Const || V.Align >= F.Log2)
    return;
  for (int64_t X : V.Lane)
    if (floorMod(X, pow2(F.Log2)) != 0)
      return;
  V.Align = F.Log2;
  V = normalize(V);
}

void Dataflow::applyStatedAlignments(const Stmt *S, Env &Local) {
  const SourceLocation Begin = S->getBeginLoc();
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Begin.isMacroID() || !Body)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  const SourceLocation At = SM.getExpansionLoc(Begin);
  auto [It, New] = StatedAlignmentsAt.try_emplace(At.getRawEncoding());
  if (New)
    if (const StatedAssertion *A = StatedAssertions::at(At, SM))
      It->second = statedAlignments(*A, *Body, Ctx);
  // The variable in scope with that name; none or several: nothing.
  auto InScope = [&Local](llvm::StringRef Name) -> const VarDecl * {
    const VarDecl *Var = nullptr;
    for (const auto &[VD, Value] : Local)
      if (VD->getName() == Name) {
        if (Var)
          return nullptr;
        Var = VD;
      }
    return Var;
  };
  for (const StatedAlignment &Stated : It->second)
    if (const VarDecl *Var = InScope(Stated.name))
      applyEdgeFact(EdgeFact{Var, Stated.log2, 0}, Local);
}

} // namespace clang::tidy::occlint::detail
