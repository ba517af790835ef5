#include "values/ReachingWrites.h"

#include "ast/AstWalker.h"
#include "clang/AST/ExprCXX.h"
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

bool isFollowedObject(const VarDecl *VD) {
  if (!VD || !(isa<ParmVarDecl>(VD) || VD->isLocalVarDecl()) || VD->isStaticLocal() ||
      VD->getType()->isReferenceType() || VD->getType().isVolatileQualified())
    return false;
  const auto *Class = VD->getType()->getAsCXXRecordDecl();
  return Class && !Class->isUnion() && !Class->isLambda();
}

class BodyWritesCollector : public AstWalker {
public:
  explicit BodyWritesCollector(BodyWrites &W) : W(W) {}

  bool visitStmt(Stmt *S) override {
    if (isa<GotoStmt, IndirectGotoStmt>(S))
      W.Untrackable = true;
    else if (const auto *Case = dyn_cast<SwitchCase>(S))
      visitSwitchCase(*Case);
    else if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      visitLambda(*Lambda);
    else if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      visitReference(*Ref);
    return true;
  }

private:
  // A case label is followed only where it is a statement of its switch's
  // block (or chained to one: `case 1: case 2:`); one below a nested
  // statement jumps into the middle of that statement.
  void visitSwitchCase(const SwitchCase &S) {
    const Stmt *Up = W.Parents.parentOf(&S);
    while (Up && isa<SwitchCase>(Up))
      Up = W.Parents.parentOf(Up);
    const Stmt *Switch = Up ? W.Parents.parentOf(Up) : nullptr;
    if (!Up || !isa<CompoundStmt>(Up) || !Switch || !isa<SwitchStmt>(Switch))
      W.Untrackable = true;
  }
  void visitLambda(const LambdaExpr &L) {
    for (const LambdaCapture &Capture : L.captures())
      if (Capture.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(Capture.getCapturedVar())) {
          W.Vars[{VD, nullptr}].tracked = false;
          W.WholeObjectsUsed.insert(VD);
        }
  }
  void visitReference(const DeclRefExpr &E) {
    const auto *VD = dyn_cast<VarDecl>(E.getDecl());
    if (isFollowed(VD)) {
      classifyUse(E, W.Vars[{VD, nullptr}]);
      return;
    }
    if (!isFollowedObject(VD))
      return;
    const auto [Child, Up] = lvalueUse(E);
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(Up); Member && !Member->isArrow()) {
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (Field && !Field->isBitField() && Field->getType()->isIntegralOrEnumerationType() &&
          !Field->getType().isVolatileQualified() && !Field->isMutable()) {
        classifyUse(*Member, W.Vars[{VD, Field}]);
        return;
      }
    }
    // A copy (`kernel<<<grid, block>>>` copies the dim3) reads every member.
    if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(Up);
        Copy && Copy->getConstructor()->isCopyConstructor() && Copy->getNumArgs() >= 1 && Copy->getArg(0) == Child)
      return;
    if (const auto *Call = dyn_cast_or_null<CallExpr>(Up); Call && bindsToConstReference(*Call, Child))
      return;
    W.WholeObjectsUsed.insert(VD); // a method, its address, a modifiable reference, a whole assignment
  }

  /// The lvalue E and its first parent above parentheses and
  /// const-qualifying conversions.
  std::pair<const Stmt *, const Stmt *> lvalueUse(const Expr &E) const {
    const Stmt *Child = &E;
    const Stmt *Up = W.Parents.parentOf(&E);
    while (Up && (isa<ParenExpr>(Up) ||
                  (isa<ImplicitCastExpr>(Up) && cast<ImplicitCastExpr>(Up)->getCastKind() == CK_NoOp))) {
      Child = Up;
      Up = W.Parents.parentOf(Up);
    }
    return {Child, Up};
  }
  /// A use of a followed place (`v`, `obj.m`): a read, an assignment of it,
  /// or anything else, which stops it being followed.
  void classifyUse(const Expr &Lvalue, BodyWrites::VarWrites &Writes) {
    const auto [Child, Up] = lvalueUse(Lvalue);
    if (const auto *Cast = dyn_cast_or_null<CastExpr>(Up))
      if (Cast->getCastKind() == CK_LValueToRValue || Cast->getCastKind() == CK_ToVoid)
        return; // a read
    if (Up && isa<UnaryExprOrTypeTraitExpr>(Up))
      return; // sizeof(v): not evaluated
    if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Up))
      if (Assign->getOpcode() == BO_Assign && Assign->getLHS() == Child) {
        Writes.assignments.push_back(Assign);
        return;
      }
    if (const auto *Call = dyn_cast_or_null<CallExpr>(Up))
      if (bindsToConstReference(*Call, Child))
        return;
    Writes.tracked = false; // address taken, ++, +=, a modifiable reference, ...
  }

  BodyWrites &W;
};

BodyWrites::BodyWrites(const Stmt &Body, const StatementParents &Parents, const SourceManager &SM)
    : Body(Body), Parents(Parents), SM(SM) {
  BodyWritesCollector(*this).traverseStmt(&Body);
}

const BodyWrites::VarWrites *BodyWrites::writesOf(WrittenPlace V) const {
  static const VarWrites NotFollowed{/*tracked=*/false, {}}, NeverNamed{/*tracked=*/true, {}};
  if (V.field && WholeObjectsUsed.count(V.var))
    return &NotFollowed;
  auto It = Vars.find({V.var, V.field});
  if (It != Vars.end())
    return &It->second;
  // A member of a followed object the body never names keeps its initial
  // value (the object's uses were all seen).
  return V.field && isFollowedObject(V.var) ? &NeverNamed : nullptr;
}

bool BodyWrites::assigned(WrittenPlace V) const {
  const VarWrites *Writes = writesOf(V);
  return Writes && !Writes->assignments.empty();
}

bool BodyWrites::tracked(WrittenPlace V) const {
  const VarWrites *Writes = writesOf(V);
  return !Untrackable && Writes && Writes->tracked;
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

const BodyWrites::BlockIndex &BodyWrites::indexOf(const CompoundStmt &Block) const {
  std::unique_ptr<BlockIndex> &Index = Blocks[&Block];
  if (!Index) {
    Index = std::make_unique<BlockIndex>();
    unsigned At = 0;
    for (const Stmt *Child : Block.body())
      Index->position[Child] = At++;
  }
  return *Index;
}

bool BodyWrites::comesAfter(const BinaryOperator &Write, const Stmt &Position, const Stmt *Stop) const {
  for (const Stmt *Up = Parents.parentOf(&Position); Up && Up != Stop; Up = Parents.parentOf(Up))
    if (isLoop(Up) && isWithin(&Write, Up, Parents))
      return false;         // the next iteration runs it before the position
  if (!isa<Expr>(Position)) // just before a statement: its own writes come after
    return isWithin(&Write, &Position, Parents) ||
           SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Position.getEndLoc()),
                                        SM.getExpansionLoc(Write.getBeginLoc()));
  if (isWithin(&Position, Write.getRHS(), Parents))
    return true; // v = f(v): the right side is read first
  const Stmt *FullExpression = &Position;
  for (const Stmt *Up = Parents.parentOf(&Position); Up && isa<Expr>(Up); Up = Parents.parentOf(Up))
    FullExpression = Up;
  if (isWithin(&Write, FullExpression, Parents))
    return false; // unsequenced, or ordered by operators: not followed
  return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Position.getEndLoc()),
                                      SM.getExpansionLoc(Write.getBeginLoc()));
}

const BinaryOperator *BodyWrites::assignmentStatement(const Stmt *S, const VarWrites &Writes) {
  const auto *Assignment = dyn_cast_or_null<BinaryOperator>(statementExpression(S));
  return Assignment &&
                 std::find(Writes.assignments.begin(), Writes.assignments.end(), Assignment) != Writes.assignments.end()
             ? Assignment
             : nullptr;
}

const BinaryOperator *BodyWrites::clampOf(const Stmt *S, const VarWrites &Writes) const {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() || If->isConsteval())
    return nullptr;
  const Stmt *Then = If->getThen();
  if (const auto *Block = dyn_cast<CompoundStmt>(Then)) {
    if (Block->size() != 1)
      return nullptr;
    Then = Block->body_front();
  }
  const BinaryOperator *Assignment = assignmentStatement(Then, Writes);
  if (!Assignment)
    return nullptr;
  for (const BinaryOperator *Other : Writes.assignments)
    if (isWithin(Other, If->getCond(), Parents))
      return nullptr;
  return Assignment;
}

const BinaryOperator *BodyWrites::armWrite(const Stmt *Arm, const VarWrites &Writes) {
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Arm);
  if (!Block)
    return assignmentStatement(Arm, Writes);
  const BinaryOperator *Found = nullptr;
  for (const Stmt *S : Block->body())
    if (const BinaryOperator *Assignment = assignmentStatement(S, Writes)) {
      if (Found)
        return nullptr;
      Found = Assignment;
    }
  return Found;
}

std::vector<const BinaryOperator *> BodyWrites::chainWrites(const IfStmt &First, const VarWrites &Writes) const {
  std::vector<const BinaryOperator *> Arms;
  for (const IfStmt *If = &First; If;) {
    if (!If->getElse() || If->getInit() || If->getConditionVariable() || If->isConsteval() || If->isConstexpr())
      return {};
    for (const BinaryOperator *W : Writes.assignments)
      if (isWithin(W, If->getCond(), Parents))
        return {};
    const BinaryOperator *Then = armWrite(If->getThen(), Writes);
    if (!Then)
      return {};
    Arms.push_back(Then);
    const Stmt *Else = If->getElse();
    If = dyn_cast<IfStmt>(Else);
    if (!If) {
      const BinaryOperator *Last = armWrite(Else, Writes);
      if (!Last)
        return {};
      Arms.push_back(Last);
    }
  }
  return Arms;
}

std::vector<const BinaryOperator *> BodyWrites::armWrites(WrittenPlace V, const IfStmt &If) const {
  const VarWrites *Writes = writesOf(V);
  return Writes ? chainWrites(If, *Writes) : std::vector<const BinaryOperator *>{};
}

std::vector<CaseWrite> BodyWrites::switchWrites(const SwitchStmt &Switch, const VarWrites &Writes) const {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch.getBody());
  if (!Body || Switch.getInit() || Switch.getConditionVariable())
    return {};
  for (const BinaryOperator *W : Writes.assignments)
    if (isWithin(W, Switch.getCond(), Parents))
      return {};
  std::vector<CaseWrite> Groups;
  bool Open = false; // the last group has not met its break yet
  bool HasDefault = false;
  for (const Stmt *S : Body->body()) {
    if (const auto *Label = dyn_cast<SwitchCase>(S)) {
      if (Open)
        return {}; // falls through into the next group
      CaseWrite Group;
      const Stmt *Sub = Label;
      while (const auto *Chained = dyn_cast<SwitchCase>(Sub)) {
        if (const auto *Case = dyn_cast<CaseStmt>(Chained); Case && Case->caseStmtIsGNURange())
          return {};
        HasDefault |= isa<DefaultStmt>(Chained);
        Group.labels.push_back(Chained);
        Sub = Chained->getSubStmt();
      }
      Group.assignment = assignmentStatement(Sub, Writes);
      if (!Group.assignment)
        return {};
      Groups.push_back(std::move(Group));
      Open = true;
      continue;
    }
    if (Groups.empty())
      return {}; // a statement before the first label runs for no case
    if (isa<BreakStmt>(S)) {
      Open = false;
      continue;
    }
    for (const BinaryOperator *W : Writes.assignments)
      if (isWithin(W, S, Parents))
        return {}; // a second write in a group
  }
  if (!HasDefault && !namesEveryEnumerator(Switch, Groups))
    return {}; // a value no label names keeps the incoming value
  return Groups;
}

// `switch (precision) { case Half: ...; case Single: ...; }` with a label for
// every enumerator of the selector's enumeration: no value is left for the
// incoming one (what -Wswitch takes as complete; a value cast from outside
// the enumerators is not followed).
bool BodyWrites::namesEveryEnumerator(const SwitchStmt &Switch, const std::vector<CaseWrite> &Groups) {
  const auto *Enum = Switch.getCond()->IgnoreParenImpCasts()->getType()->getAs<EnumType>();
  const EnumDecl *Decl = Enum ? Enum->getDecl()->getDefinition() : nullptr;
  if (!Decl)
    return false;
  llvm::SmallVector<llvm::APSInt, 8> Named;
  for (const CaseWrite &Group : Groups)
    for (const SwitchCase *Label : Group.labels) {
      Expr::EvalResult Value;
      const auto *Case = dyn_cast<CaseStmt>(Label);
      if (!Case || !Case->getLHS()->EvaluateAsInt(Value, Decl->getASTContext()))
        return false;
      Named.push_back(Value.Val.getInt());
    }
  for (const EnumConstantDecl *Enumerator : Decl->enumerators())
    if (llvm::none_of(Named,
                      [&](const llvm::APSInt &V) { return llvm::APSInt::isSameValue(V, Enumerator->getInitVal()); }))
      return false;
  return true;
}

std::vector<CaseWrite> BodyWrites::caseWrites(WrittenPlace V, const SwitchStmt &Switch) const {
  const VarWrites *Writes = writesOf(V);
  return Writes ? switchWrites(Switch, *Writes) : std::vector<CaseWrite>{};
}

ReachingWrite BodyWrites::reachingWrite(WrittenPlace V, const Stmt &Position) const {
  const VarWrites *Writes = writesOf(V);
  if (Untrackable || !Writes || !Writes->tracked)
    return {};
  const Stmt *Below = &Position;
  for (const Stmt *Up = Parents.parentOf(&Position); Up; Below = Up, Up = Parents.parentOf(Up)) {
    const auto *Block = dyn_cast<CompoundStmt>(Up);
    if (!Block)
      continue;
    const BlockIndex &Index = indexOf(*Block);
    auto At = Index.position.find(Below);
    if (At == Index.position.end())
      return {};
    // The writes of each statement of the block up to the one holding the
    // position (nested writes included).
    llvm::DenseMap<const Stmt *, unsigned> WritesIn;
    for (const BinaryOperator *W : Writes->assignments)
      if (const Stmt *Holder = childHolding(Block, W))
        ++WritesIn[Holder];
    // Writes in the statement holding the position must come after it.
    if (WritesIn.count(Below))
      for (const BinaryOperator *W : Writes->assignments)
        if (isWithin(W, Below, Parents) && !comesAfter(*W, Position, Block))
          return {};
    bool PastLabel = isa<SwitchCase>(Below);
    const auto Children = Block->body();
    for (unsigned I = At->second; I-- > 0;) {
      const Stmt *Child = Children.begin()[I];
      if (!WritesIn.count(Child)) {
        PastLabel |= isa<SwitchCase>(Child);
        continue;
      }
      if (PastLabel)
        return {}; // a jump to the label skips the write
      if (const BinaryOperator *Assignment = assignmentStatement(Child, *Writes);
          Assignment && WritesIn.lookup(Child) == 1)
        return {ReachingWrite::Kind::Assignment, Assignment, nullptr};
      if (const BinaryOperator *Clamp = clampOf(Child, *Writes); Clamp && WritesIn.lookup(Child) == 1)
        return {ReachingWrite::Kind::Conditional, Clamp, cast<IfStmt>(Child)};
      // Every write in the statement an arm's own: nested writes would be
      // counted besides the arms'.
      if (const auto *If = dyn_cast<IfStmt>(Child))
        if (std::vector<const BinaryOperator *> Arms = chainWrites(*If, *Writes);
            !Arms.empty() && WritesIn.lookup(Child) == Arms.size())
          return {ReachingWrite::Kind::Branches, Arms.front(), If};
      if (const auto *Switch = dyn_cast<SwitchStmt>(Child))
        if (std::vector<CaseWrite> Groups = switchWrites(*Switch, *Writes);
            !Groups.empty() && WritesIn.lookup(Child) == Groups.size())
          return {ReachingWrite::Kind::Cases, Groups.front().assignment, nullptr, Switch};
      return {}; // written in a loop, an if with no final else, a nested block
    }
  }
  // No write before the position: the incoming value, when every write
  // comes after it.
  for (const BinaryOperator *W : Writes->assignments)
    if (!comesAfter(*W, Position, nullptr))
      return {};
  return {ReachingWrite::Kind::Incoming, nullptr, nullptr};
}

} // namespace clang::tidy::occlint
