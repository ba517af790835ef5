// A lane index compared with the remainder of a uniform count: the leftover
// elements of a range that was taken in chunks of K.
//
//     for (i = lane; i < n / 4; i += 32) { ... one float4 per lane ... }
//     if (4 * (n / 4) + lane < n) { ... one float per lane ... }
//
// `n - 4 * (n / 4)` is `n % 4`: the guard lets through the lanes whose index
// falls among the n % 4 elements the vectorised loop left over. The warp
// splits there once per range, at its end, as a warp-stride loop splits in
// its last chunk; the split cannot be avoided (the leftovers must be handled
// by someone) and it is a boundary effect, not a split worth a warning. The
// domain keeps no relation between two uniform unknowns, so the relation is
// read from the condition's terms here: after cancelling equal terms, the
// uniform ones must add up to ±(X % K) (written `X % K`, `X & (K - 1)`, or
// `X - K * (X / K)` with the quotient possibly held in a local).
#include "ast/IntegerConstants.h"
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "llvm/ADT/FoldingSet.h"

#include <bit>

namespace clang::tidy::occlint::detail {

namespace {

/// Chunks of at most a block's 1024 threads.
constexpr int64_t MaxChunkLog2 = 10;

struct Term {
  const Expr *E; // as cached by eval (parentheses stripped, casts kept)
  int Sign;
};

/// The terms of a sum, `a + b - c`, a few levels deep (a condition's
/// operands, not generated chains: those are no remainder tails).
bool additiveTerms(const Expr *E, int Sign, std::vector<Term> &Out, unsigned Depth) {
  E = E->IgnoreParens();
  if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    if (Depth >= 4)
      return false;
    return additiveTerms(BO->getLHS(), Sign, Out, Depth + 1) &&
           additiveTerms(BO->getRHS(), BO->getOpcode() == BO_Add ? Sign : -Sign, Out, Depth + 1);
  }
  Out.push_back({E, Sign});
  return Out.size() <= 6;
}

// Constants small enough that the sums of a few terms cannot overflow.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  const std::optional<int64_t> C = integerConstantOf(E, Ctx);
  if (!C || *C < -(int64_t(1) << 61) || *C >= (int64_t(1) << 61))
    return std::nullopt;
  return C;
}

} // namespace

bool Dataflow::unmodified(const VarDecl *VD) {
  if (auto It = Unmodified.find(VD); It != Unmodified.end())
    return It->second;
  bool Result = false;
  if (VD && !VD->hasGlobalStorage() && !VD->getType()->isReferenceType() && FD.getBody()) {
    // A variable the body only reads needs no ExprMutationAnalyzer, whose
    // cost grows with its uses times the body (values/ReadOnlyUses.h).
    if (!ReadOnly)
      ReadOnly = std::make_unique<ReadOnlyUses>(*FD.getBody());
    if (ReadOnly->onlyRead(*VD)) {
      Result = true;
    } else {
      if (!Mutations)
        Mutations = std::make_unique<ExprMutationAnalyzer>(*FD.getBody(), Ctx);
      Result = !Mutations->isMutated(VD);
    }
  }
  return Unmodified[VD] = Result;
}

const Expr *Dataflow::definition(const Expr *Ex) {
  Ex = Ex->IgnoreParenImpCasts();
  for (int Step = 0; Step < 2; ++Step) { // `q = n / 4; m = 4 * q;`
    const VarDecl *VD = localVar(Ex);
    if (!VD || isa<ParmVarDecl>(VD) || !VD->getInit() || !unmodified(VD))
      break;
    Ex = VD->getInit()->IgnoreParenImpCasts();
  }
  return Ex;
}

bool Dataflow::sameValue(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  if (IA != IB || A->HasSideEffects(Ctx))
    return false;
  // The same text is the same value only if nothing it reads changes in
  // between: its locals are never modified, and it reads no memory.
  std::vector<const Stmt *> Work{A};
  for (size_t I = 0; I < Work.size(); ++I) {
    if (Work.size() > 32)
      return false;
    const Stmt *S = Work[I];
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && !unmodified(VD))
        return false;
    } else if (isa<ArraySubscriptExpr>(S) || isa<CallExpr>(S) ||
               (isa<UnaryOperator>(S) && cast<UnaryOperator>(S)->getOpcode() == UO_Deref)) {
      return false;
    }
    for (const Stmt *Child : S->children())
      if (Child)
        Work.push_back(Child);
  }
  return true;
}

std::optional<std::pair<const Expr *, int64_t>> Dataflow::remainderOf(const Expr *T) {
  const auto *BO = dyn_cast<BinaryOperator>(definition(T));
  if (!BO)
    return std::nullopt;
  const std::optional<int64_t> K = constantOf(BO->getRHS(), Ctx);
  if (!K || *K < 2 || *K > (int64_t(1) << MaxChunkLog2))
    return std::nullopt;
  if (BO->getOpcode() == BO_Rem)
    return std::pair{BO->getLHS(), *K};
  if (BO->getOpcode() == BO_And && std::has_single_bit(uint64_t(*K) + 1))
    return std::pair{BO->getLHS(), *K + 1};
  return std::nullopt;
}

std::optional<std::pair<const Expr *, int64_t>> Dataflow::roundedDown(const Expr *T) {
  const auto *Outer = dyn_cast<BinaryOperator>(definition(T));
  if (!Outer)
    return std::nullopt;
  // (X >> s) << s: the shift count is on the right.
  if (Outer->getOpcode() == BO_Shl) {
    const std::optional<int64_t> S = constantOf(Outer->getRHS(), Ctx);
    const auto *Inner = dyn_cast<BinaryOperator>(definition(Outer->getLHS()));
    if (S && *S >= 1 && *S <= MaxChunkLog2 && Inner && Inner->getOpcode() == BO_Shr &&
        constantOf(Inner->getRHS(), Ctx) == S)
      return std::pair{Inner->getLHS(), int64_t(1) << *S};
    return std::nullopt;
  }
  // K * (X / K), either way round.
  if (Outer->getOpcode() != BO_Mul)
    return std::nullopt;
  for (const auto &[Factor, Quotient] :
       {std::pair{Outer->getRHS(), Outer->getLHS()}, std::pair{Outer->getLHS(), Outer->getRHS()}}) {
    const std::optional<int64_t> K = constantOf(Factor, Ctx);
    const auto *Inner = dyn_cast<BinaryOperator>(definition(Quotient));
    if (K && *K >= 2 && *K <= (int64_t(1) << MaxChunkLog2) && Inner && Inner->getOpcode() == BO_Div &&
        constantOf(Inner->getRHS(), Ctx) == K)
      return std::pair{Inner->getLHS(), *K};
  }
  return std::nullopt;
}

bool Dataflow::laneAgainstRemainder(const BinaryOperator *BO) {
  std::vector<Term> Terms;
  if (!additiveTerms(BO->getLHS(), +1, Terms, 0) || !additiveTerms(BO->getRHS(), -1, Terms, 0))
    return false;
  // Equal terms of opposite signs cancel (`n - n % 4 + lane < n`).
  for (size_t I = 0; I < Terms.size(); ++I)
    for (size_t J = I + 1; J < Terms.size(); ++J)
      if (Terms[I].E && Terms[J].E && Terms[I].Sign == -Terms[J].Sign && sameValue(Terms[I].E, Terms[J].E)) {
        Terms[I].E = Terms[J].E = nullptr;
        break;
      }
  // One term differs between the lanes, and takes distinct non-negative
  // values in them (a lane or thread index): at most K of them fall below a
  // remainder, the others are the same in every lane of a warp.
  std::optional<Term> Lane;
  std::vector<Term> Uniform;
  for (const Term &T : Terms) {
    if (!T.E)
      continue;
    const ThreadValue *Known = Cache.find(T.E);
    if (!Known || Known->FromData)
      return false;
    const ThreadValue &V = *Known;
    if (V.laneConstant()) {
      Uniform.push_back(T);
      continue;
    }
    if (Lane || V.Rest == RestKind::PerLane)
      return false;
    std::array<int64_t, Lanes> Sorted = V.Lane;
    std::sort(Sorted.begin(), Sorted.end());
    if (std::adjacent_find(Sorted.begin(), Sorted.end()) != Sorted.end())
      return false;
    const bool NonNegative =
        T.E->getType()->isUnsignedIntegerType() || (V.Rest == RestKind::Const && Sorted.front() + V.RestConst >= 0);
    if (!NonNegative)
      return false;
    Lane = T;
  }
  if (!Lane)
    return false;
  if (Uniform.size() == 1) // lane < X % K
    return remainderOf(Uniform[0].E).has_value();
  if (Uniform.size() != 2 || Uniform[0].Sign == Uniform[1].Sign)
    return false;
  // X - K * (X / K), either way round.
  for (const auto &[Whole, Rounded] : {std::pair{Uniform[0], Uniform[1]}, std::pair{Uniform[1], Uniform[0]}})
    if (const auto R = roundedDown(Rounded.E); R && sameValue(Whole.E, R->first))
      return true;
  return false;
}

} // namespace clang::tidy::occlint::detail
