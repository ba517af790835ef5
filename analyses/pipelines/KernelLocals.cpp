#include "pipelines/KernelLocals.h"
#include "ast/CudaBuiltinVariables.h"
#include "pipelines/AsyncOperations.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>

namespace clang::tidy::occlint {

std::optional<int64_t> KernelLocals::eval(const Expr *E) {
  if (!E)
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return eval(Cast->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl())) {
      if (auto It = Env.find(VD); It != Env.end())
        return It->second;
      if (Assigned.count(VD))
        return std::nullopt; // a local we lost track of
    }
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && !B->isAssignmentOp() && B->getOpcode() != BO_Comma) {
    std::optional<int64_t> L = eval(B->getLHS()), R = eval(B->getRHS());
    if (!L || !R)
      return std::nullopt; // (the leaves asked the evaluator: linear in the expression)
    switch (B->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    case BO_Div:
      return *R ? std::optional<int64_t>(*L / *R) : std::nullopt;
    case BO_Rem:
      return *R ? std::optional<int64_t>(*L % *R) : std::nullopt;
    case BO_And:
      return *L & *R;
    case BO_Or:
      return *L | *R;
    case BO_Xor:
      return *L ^ *R;
    case BO_Shl:
      return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L << *R) : std::nullopt;
    case BO_Shr:
      return *R >= 0 && *R < 63 ? std::optional<int64_t>(*L >> *R) : std::nullopt;
    case BO_LT:
      return *L < *R;
    case BO_GT:
      return *L > *R;
    case BO_LE:
      return *L <= *R;
    case BO_GE:
      return *L >= *R;
    case BO_EQ:
      return *L == *R;
    case BO_NE:
      return *L != *R;
    case BO_LAnd:
      return *L && *R;
    case BO_LOr:
      return *L || *R;
    default:
      return std::nullopt;
    }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    std::optional<int64_t> V = eval(U->getSubExpr());
    if (!V)
      return std::nullopt;
    switch (U->getOpcode()) {
    case UO_Minus:
      return -*V;
    case UO_LNot:
      return !*V;
    case UO_Not:
      return ~*V;
    case UO_Plus:
      return *V;
    default:
      return std::nullopt;
    }
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    std::optional<int64_t> Cond = eval(C->getCond());
    return Cond ? eval(*Cond ? C->getTrueExpr() : C->getFalseExpr()) : std::nullopt;
  }
  return constant(E);
}

// A constant Clang's evaluator knows without the locals (constexpr, template
// arguments, sizeof), and never a local assigned in the body.
std::optional<int64_t> KernelLocals::constant(const Expr *E) {
  if (mentionsAssignedLocal(E))
    return std::nullopt;
  auto [It, New] = Constants.try_emplace(E);
  if (New)
    It->second = constantIntegerOf(E, Ctx);
  return It->second;
}

bool KernelLocals::mentionsAssignedLocal(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && (Assigned.count(VD) || Env.count(VD)))
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsAssignedLocal(Child))
      return true;
  return false;
}

bool KernelLocals::dependsOnThread(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S))
    if (std::optional<BuiltinComponent> B = builtinMember(E); B && B->variable == "threadIdx")
      return true;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && ThreadValued.count(VD))
      return true;
  for (const Stmt *Child : S->children())
    if (dependsOnThread(Child))
      return true;
  return false;
}

void KernelLocals::assign(const VarDecl *VD, std::optional<int64_t> V, const Expr *From) {
  Assigned.insert(VD);
  std::optional<LinearValue> L = !V && From ? linear(From) : std::nullopt;
  if (V)
    Env[VD] = *V;
  else
    Env.erase(VD);
  if (From && dependsOnThread(From))
    ThreadValued.insert(VD);
  if (L && L->threadPart)
    Linear[VD] = *L;
  else
    Linear.erase(VD);
}

std::optional<ValueRange> rangeSum(std::optional<ValueRange> A, std::optional<ValueRange> B, int64_t Sign) {
  ValueRange Out;
  if (!A || !B)
    return std::nullopt;
  const bool Overflow =
      Sign > 0 ? __builtin_add_overflow(A->lo, B->lo, &Out.lo) || __builtin_add_overflow(A->hi, B->hi, &Out.hi)
               : __builtin_sub_overflow(A->lo, B->hi, &Out.lo) || __builtin_sub_overflow(A->hi, B->lo, &Out.hi);
  return Overflow ? std::nullopt : std::optional<ValueRange>(Out);
}

std::optional<ValueRange> rangeScaled(std::optional<ValueRange> A, int64_t K) {
  int64_t Lo = 0, Hi = 0;
  if (!A || __builtin_mul_overflow(A->lo, K, &Lo) || __builtin_mul_overflow(A->hi, K, &Hi))
    return std::nullopt;
  return K >= 0 ? ValueRange{Lo, Hi} : ValueRange{Hi, Lo};
}

// Ranges beyond this are not bounds anyone sizes shared memory by.
static constexpr int64_t RangeLimit = int64_t(1) << 40;

std::optional<ValueRange> KernelLocals::range(const Expr *E) {
  if (!E || !Block)
    return std::nullopt;
  const Expr *Bare = E->IgnoreParenImpCasts();
  std::optional<ValueRange> Out = [&]() -> std::optional<ValueRange> {
    if (std::optional<int64_t> V = eval(Bare))
      return ValueRange{*V, *V};
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Bare))
      return range(Cast->getSubExpr());
    if (std::optional<BuiltinComponent> B = builtinMember(Bare); B && B->variable == "threadIdx") {
      const int Axis = B->component == "x" ? 0 : B->component == "y" ? 1 : 2;
      return ValueRange{0, (*Block)[Axis] - 1};
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
        if (auto It = Linear.find(VD); It != Linear.end())
          return rangeSum(ValueRange{It->second.uniform, It->second.uniform}, It->second.threadRange);
    const auto *B = dyn_cast<BinaryOperator>(Bare);
    if (!B)
      return std::nullopt;
    const std::optional<int64_t> K = eval(B->getRHS());
    switch (B->getOpcode()) {
    case BO_Add:
      return rangeSum(range(B->getLHS()), range(B->getRHS()));
    case BO_Sub:
      return rangeSum(range(B->getLHS()), range(B->getRHS()), -1);
    case BO_Mul:
      if (std::optional<int64_t> L = eval(B->getLHS()))
        return rangeScaled(range(B->getRHS()), *L);
      return K ? rangeScaled(range(B->getLHS()), *K) : std::nullopt;
    default:
      break;
    }
    std::optional<ValueRange> L = range(B->getLHS());
    if (!K || !L || L->lo < 0 || *K <= 0)
      return std::nullopt;
    switch (B->getOpcode()) {
    case BO_Div:
      return ValueRange{L->lo / *K, L->hi / *K};
    case BO_Rem:
      return L->hi < *K ? *L : ValueRange{0, *K - 1};
    case BO_And:
      return ValueRange{0, std::min(L->hi, *K)};
    case BO_Shr:
      return *K < 63 ? std::optional<ValueRange>(ValueRange{L->lo >> *K, L->hi >> *K}) : std::nullopt;
    case BO_Shl:
      return *K < 24 ? rangeScaled(L, int64_t(1) << *K) : std::nullopt;
    default:
      return std::nullopt;
    }
  }();
  if (Out && (Out->lo < -RangeLimit || Out->hi > RangeLimit))
    return std::nullopt;
  // An unsigned value below zero wraps: `threadIdx.x - 1` in thread 0 is not -1.
  if (Out && Out->lo < 0 && Bare->getType()->isUnsignedIntegerType())
    return std::nullopt;
  return Out;
}

std::optional<LinearValue> KernelLocals::linear(const Expr *E) {
  if (!E)
    return std::nullopt;
  if (std::optional<int64_t> V = eval(E))
    return LinearValue{*V, false};
  E = E->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
    return linear(Cast->getSubExpr());
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
      if (auto It = Linear.find(VD); It != Linear.end())
        return It->second;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isAdditiveOp()) {
      std::optional<LinearValue> L = linear(B->getLHS()), R = linear(B->getRHS());
      if (L && R) {
        const int64_t Sign = B->getOpcode() == BO_Add ? 1 : -1;
        return LinearValue{L->uniform + Sign * R->uniform, L->threadPart || R->threadPart,
                           rangeSum(L->threadRange, R->threadRange, Sign)};
      }
    } else if (B->getOpcode() == BO_Mul) {
      if (std::optional<int64_t> K = eval(B->getLHS()))
        if (std::optional<LinearValue> R = linear(B->getRHS()))
          return LinearValue{*K * R->uniform, R->threadPart, rangeScaled(R->threadRange, *K)};
      if (std::optional<int64_t> K = eval(B->getRHS()))
        if (std::optional<LinearValue> L = linear(B->getLHS()))
          return LinearValue{*K * L->uniform, L->threadPart, rangeScaled(L->threadRange, *K)};
    }
  }
  if (dependsOnThread(E) && onlyThread(E))
    return LinearValue{0, true, range(E)};
  return std::nullopt;
}

bool KernelLocals::onlyThread(const Stmt *S) {
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (std::optional<BuiltinComponent> B = builtinMember(E))
      return B->variable == "threadIdx";
    if (eval(E))
      return true;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    if (!VD)
      return true; // an enumerator, a function
    auto It = Linear.find(VD);
    return It != Linear.end() && It->second.uniform == 0;
  }
  for (const Stmt *Child : S->children())
    if (Child && !onlyThread(Child))
      return false;
  return true;
}

const VarDecl *KernelLocals::localOf(const Expr *E) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()); VD && VD->isLocalVarDecl())
      return VD;
  return nullptr;
}

// Assignments to integer locals anywhere in E (in evaluation order, roughly).
void KernelLocals::assignments(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return;
  for (const Stmt *Child : S->children())
    assignments(Child);
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
    const VarDecl *VD = localOf(B->getLHS());
    if (!VD || !VD->getType()->isIntegerType())
      return;
    if (B->getOpcode() == BO_Assign) {
      assign(VD, eval(B->getRHS()), B->getRHS());
      return;
    }
    std::optional<int64_t> Old = Env.count(VD) ? std::optional<int64_t>(Env[VD]) : std::nullopt;
    std::optional<int64_t> R = eval(cast<CompoundAssignOperator>(B)->getRHS());
    std::optional<int64_t> New;
    if (Old && R)
      switch (B->getOpcode()) {
      case BO_AddAssign:
        New = *Old + *R;
        break;
      case BO_SubAssign:
        New = *Old - *R;
        break;
      case BO_MulAssign:
        New = *Old * *R;
        break;
      case BO_XorAssign:
        New = *Old ^ *R;
        break;
      case BO_AndAssign:
        New = *Old & *R;
        break;
      case BO_OrAssign:
        New = *Old | *R;
        break;
      case BO_RemAssign:
        if (*R)
          New = *Old % *R;
        break;
      case BO_DivAssign:
        if (*R)
          New = *Old / *R;
        break;
      default:
        break;
      }
    if (!New && !Old && (B->getOpcode() == BO_AddAssign || B->getOpcode() == BO_SubAssign))
      if (auto It = Linear.find(VD); It != Linear.end())
        if (std::optional<LinearValue> Add = linear(cast<CompoundAssignOperator>(B)->getRHS())) {
          const int64_t Sign = B->getOpcode() == BO_AddAssign ? 1 : -1;
          const LinearValue Sum{It->second.uniform + Sign * Add->uniform, true,
                                rangeSum(It->second.threadRange, Add->threadRange, Sign)};
          assign(VD, std::nullopt, nullptr);
          Linear[VD] = Sum;
          ThreadValued.insert(VD);
          return;
        }
    assign(VD, New, B->getRHS());
  } else if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp()) {
    const VarDecl *VD = localOf(U->getSubExpr());
    if (!VD || !VD->getType()->isIntegerType())
      return;
    std::optional<int64_t> Old = Env.count(VD) ? std::optional<int64_t>(Env[VD]) : std::nullopt;
    assign(VD, Old ? std::optional<int64_t>(*Old + (U->isIncrementOp() ? 1 : -1)) : std::nullopt, nullptr);
  }
}

void KernelLocals::forgetAssignedIn(const Stmt *S) {
  if (!S)
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    if (const VarDecl *VD = localOf(B->getLHS()))
      assign(VD, std::nullopt, nullptr);
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    if (const VarDecl *VD = localOf(U->getSubExpr()))
      assign(VD, std::nullopt, nullptr);
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *Dcl : D->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Dcl))
        assign(VD, std::nullopt, nullptr);
  for (const Stmt *Child : S->children())
    forgetAssignedIn(Child);
}

} // namespace clang::tidy::occlint
