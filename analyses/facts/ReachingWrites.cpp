#include "facts/ReachingWrites.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

bool isLoop(const Stmt *S) { return isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S); }

/// A variable whose writes are followed: a local (not static) or a
/// parameter, of integer type, not a reference.
bool isFollowed(const VarDecl *VD) {
  return VD && (isa<ParmVarDecl>(VD) || (VD->isLocalVarDecl() && !VD->isStaticLocal())) &&
         !VD->getType()->isReferenceType() && !VD->getType().isVolatileQualified() &&
         VD->getType()->isIntegralOrEnumerationType();
}

/// Whether Arg, an argument of Call, binds to a reference to a non-volatile
/// const (the callee cannot write the variable through it).
bool bindsToConstReference(const CallExpr &Call, const Stmt *Arg) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return false;
  for (unsigned I = 0; I < Call.getNumArgs() && I < Callee->getNumParams(); ++I) {
    if (Call.getArg(I) != Arg)
      continue;
    const auto *Ref = Callee->getParamDecl(I)->getType()->getAs<LValueReferenceType>();
    return Ref && Ref->getPointeeType().isConstQualified() && !Ref->getPointeeType().isVolatileQualified();
  }
  return false;
}

/// The statement S stands for in its block: the expression itself, or the
/// expression inside its cleanups.
const Stmt *statementExpression(const Stmt *S) {
  if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(S))
    return Cleanups->getSubExpr();
  return S;
}

} // namespace

class BodyWritesCollector : public RecursiveASTVisitor<BodyWritesCollector> {
public:
  explicit BodyWritesCollector(BodyWrites &W) : W(W) {}

  bool VisitGotoStmt(GotoStmt *) {
    W.Untrackable = true;
    return true;
  }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) {
    W.Untrackable = true;
    return true;
  }
  // A case label is followed only where it is a statement of its switch's
  // block (or chained to one: `case 1: case 2:`); one below a nested
  // statement jumps into the middle of that statement.
  bool VisitSwitchCase(SwitchCase *S) {
    const Stmt *Up = W.Parents.parentOf(S);
    while (Up && isa<SwitchCase>(Up))
      Up = W.Parents.parentOf(Up);
    const Stmt *Switch = Up ? W.Parents.parentOf(Up) : nullptr;
    if (!Up || !isa<CompoundStmt>(Up) || !Switch || !isa<SwitchStmt>(Switch))
      W.Untrackable = true;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &Capture : L->captures())
      if (Capture.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(Capture.getCapturedVar()))
          W.Vars[VD].tracked = false;
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const auto *VD = dyn_cast<VarDecl>(E->getDecl());
    if (!isFollowed(VD))
      return true;
    BodyWrites::VarWrites &Writes = W.Vars[VD];
    // Up through parentheses and const-qualifying conversions of the lvalue.
    const Stmt *Child = E;
    const Stmt *Up = W.Parents.parentOf(E);
    while (Up && (isa<ParenExpr>(Up) ||
                  (isa<ImplicitCastExpr>(Up) && cast<ImplicitCastExpr>(Up)->getCastKind() == CK_NoOp))) {
      Child = Up;
      Up = W.Parents.parentOf(Up);
    }
    if (const auto *Cast = dyn_cast_or_null<CastExpr>(Up))
      if (Cast->getCastKind() == CK_LValueToRValue || Cast->getCastKind() == CK_ToVoid)
        return true; // a read
    if (Up && isa<UnaryExprOrTypeTraitExpr>(Up))
      return true; // sizeof(v): not evaluated
    if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Up))
      if (Assign->getOpcode() == BO_Assign && Assign->getLHS() == Child) {
        Writes.assignments.push_back(Assign);
        return true;
      }
    if (const auto *Call = dyn_cast_or_null<CallExpr>(Up))
      if (bindsToConstReference(*Call, Child))
        return true;
    Writes.tracked = false; // address taken, ++, +=, a modifiable reference, ...
    return true;
  }

private:
  BodyWrites &W;
};

BodyWrites::BodyWrites(const Stmt &Body, const StatementParents &Parents, const SourceManager &SM)
    : Body(Body), Parents(Parents), SM(SM) {
  BodyWritesCollector(*this).TraverseStmt(const_cast<Stmt *>(&Body));
}

const BodyWrites::VarWrites *BodyWrites::writesOf(const VarDecl &V) const {
  auto It = Vars.find(&V);
  return It == Vars.end() ? nullptr : &It->second;
}

bool BodyWrites::assigned(const VarDecl &V) const {
  const VarWrites *Writes = writesOf(V);
  return Writes && !Writes->assignments.empty();
}

bool BodyWrites::isWithin(const Stmt *Inner, const Stmt *Outer, const StatementParents &Parents) {
  for (const Stmt *S = Inner; S; S = Parents.parentOf(S))
    if (S == Outer)
      return true;
  return false;
}

const Stmt *BodyWrites::childHolding(const Stmt *C, const Stmt *S) const {
  const Stmt *Below = S;
  for (const Stmt *Up = Parents.parentOf(S); Up; Below = Up, Up = Parents.parentOf(Up))
    if (Up == C)
      return Below;
  return nullptr;
}

bool BodyWrites::insideLoopBelow(const Stmt *S, const Stmt *Stop) const {
  for (const Stmt *Up = Parents.parentOf(S); Up && Up != Stop; Up = Parents.parentOf(Up))
    if (isLoop(Up))
      return true;
  return false;
}

ReachingWrite BodyWrites::reachingWrite(const VarDecl &V, const DeclRefExpr &Read) const {
  const VarWrites *Writes = writesOf(V);
  if (Untrackable || !Writes || !Writes->tracked)
    return {};
  auto IsAssignment = [&](const Stmt *S) -> const BinaryOperator * {
    const auto *B = dyn_cast_or_null<BinaryOperator>(statementExpression(S));
    return B && std::find(Writes->assignments.begin(), Writes->assignments.end(), B) != Writes->assignments.end()
               ? B
               : nullptr;
  };
  // The nearest block above the read with an assignment statement before the
  // statement that holds the read.
  const Stmt *Below = &Read;
  for (const Stmt *Up = Parents.parentOf(&Read); Up; Below = Up, Up = Parents.parentOf(Up)) {
    const auto *Block = dyn_cast<CompoundStmt>(Up);
    if (!Block)
      continue;
    std::vector<const Stmt *> Children(Block->body_begin(), Block->body_end());
    size_t At = 0;
    while (At < Children.size() && Children[At] != Below)
      ++At;
    if (At == Children.size())
      return {};
    size_t Found = At;
    for (size_t I = At; I-- > 0;)
      if (IsAssignment(Children[I])) {
        Found = I;
        break;
      }
    if (Found == At)
      continue;
    const BinaryOperator *Assignment = IsAssignment(Children[Found]);
    // Nothing between it and the read may write the variable or be a case
    // label (a jump past the assignment).
    for (size_t I = Found + 1; I <= At; ++I)
      if (isa<SwitchCase>(Children[I]))
        return {};
    for (const BinaryOperator *Other : Writes->assignments) {
      if (Other == Assignment)
        continue;
      const Stmt *Holder = childHolding(Block, Other);
      if (!Holder)
        continue; // outside this block: before it is entered or after the read
      size_t Index = std::find(Children.begin(), Children.end(), Holder) - Children.begin();
      if (Index <= Found || Index > At)
        continue; // overwritten by the assignment, or after the read
      const bool ReadFirst = Index == At && isWithin(&Read, Other->getRHS(), Parents) &&
                             !insideLoopBelow(&Read, Block);
      if (!ReadFirst)
        return {};
    }
    return {ReachingWrite::Kind::Assignment, Assignment};
  }
  // No assignment above: the incoming value, when every write comes after
  // the read (not in the read's own full expression, but for `v = f(v)`)
  // and no loop holds both.
  const Stmt *FullExpression = &Read;
  for (const Stmt *Up = Parents.parentOf(&Read); Up && isa<Expr>(Up); Up = Parents.parentOf(Up))
    FullExpression = Up;
  for (const BinaryOperator *Other : Writes->assignments) {
    const bool InRightSide = isWithin(&Read, Other->getRHS(), Parents);
    if (!InRightSide && isWithin(Other, FullExpression, Parents))
      return {}; // unsequenced or ordered by the operators: not followed
    if (!InRightSide && !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Read.getEndLoc()),
                                                      SM.getExpansionLoc(Other->getBeginLoc())))
      return {};
    for (const Stmt *Up = Parents.parentOf(&Read); Up && Up != &Body; Up = Parents.parentOf(Up))
      if (isLoop(Up) && isWithin(Other, Up, Parents))
        return {};
  }
  return {ReachingWrite::Kind::Incoming, nullptr};
}

} // namespace clang::tidy::occlint
