// Facts from the guards around a statement (see the header): the walk up the
// parent map from the statement to the function body, switch case labels
// with fall-through, and comparisons in if/while/for conditions.
#include "values/ValueGuards.h"

#include "ast/IntegerConstants.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

const VarDecl *testedVariable(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

std::string textOf(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()), SM, Ctx.getLangOpts());
  if (R.isInvalid())
    return "";
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  return Text.size() > 80 ? Text.substr(0, 77).str() + "..." : Text.str();
}

// The comparison `Var Op C` (or `C Op Var`) is `Truth`: the bounds it gives.
void compareFacts(const BinaryOperator *B, bool Truth, ASTContext &Ctx, std::vector<GuardFact> &Out) {
  BinaryOperatorKind Op = B->getOpcode();
  const VarDecl *Var = testedVariable(B->getLHS());
  std::optional<int64_t> C = integerConstantOf(B->getRHS(), Ctx);
  const Expr *VarSide = B->getLHS();
  if (!Var || !C) {
    Var = testedVariable(B->getRHS());
    C = integerConstantOf(B->getLHS(), Ctx);
    VarSide = B->getRHS();
    if (!Var || !C)
      return;
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  // The comparison happens in the converted type: only a conversion that
  // keeps every value of the variable's type (same signedness, no narrower)
  // lets the comparison speak about the variable's own value.
  QualType VarT = Var->getType().getNonReferenceType(), CmpT = VarSide->getType();
  if (!VarT->isIntegralOrEnumerationType() || !CmpT->isIntegralOrEnumerationType() ||
      VarT->isSignedIntegerOrEnumerationType() != CmpT->isSignedIntegerOrEnumerationType() ||
      Ctx.getTypeSize(VarT) > Ctx.getTypeSize(CmpT))
    return;
  if (!Truth)
    Op = BinaryOperator::negateComparisonOp(Op);
  GuardFact F;
  F.var = Var;
  switch (Op) {
  case BO_EQ:
    F.min = F.max = *C;
    break;
  case BO_LT:
    F.max = *C - 1;
    break;
  case BO_LE:
    F.max = *C;
    break;
  case BO_GT:
    F.min = *C + 1;
    break;
  case BO_GE:
    F.min = *C;
    break;
  default:
    return; // != proves no bound
  }
  F.loc = B->getOperatorLoc();
  F.text = textOf(B, Ctx);
  if (!Truth)
    F.text = "!(" + F.text + ")";
  Out.push_back(std::move(F));
}

void conditionFacts(const Expr *E, bool Truth, ASTContext &Ctx, std::vector<GuardFact> &Out, unsigned Depth = 0) {
  if (!E || Depth > 32 || E->isValueDependent())
    return;
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_LNot)
    return conditionFacts(U->getSubExpr(), !Truth, Ctx, Out, Depth + 1);
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return;
  if ((B->getOpcode() == BO_LAnd && Truth) || (B->getOpcode() == BO_LOr && !Truth)) {
    conditionFacts(B->getLHS(), Truth, Ctx, Out, Depth + 1);
    conditionFacts(B->getRHS(), Truth, Ctx, Out, Depth + 1);
    return;
  }
  if (B->isComparisonOp())
    compareFacts(B, Truth, Ctx, Out);
}

// The statement control cannot pass over to the next: break, return, ...,
// or a compound statement that ends in one.
bool endsControl(const Stmt *S) {
  while (const auto *Case = dyn_cast_or_null<SwitchCase>(S))
    S = Case->getSubStmt();
  if (const auto *Compound = dyn_cast_or_null<CompoundStmt>(S))
    return Compound->body_back() && endsControl(Compound->body_back());
  if (const auto *Cleanups = dyn_cast_or_null<ExprWithCleanups>(S))
    S = Cleanups->getSubExpr();
  return isa_and_nonnull<BreakStmt, ReturnStmt, ContinueStmt, GotoStmt, CXXThrowExpr>(S);
}

// `Child` is a statement of the body of `Switch`: the case labels control can
// reach it through, or nothing when a default label is among them.
void switchFacts(const SwitchStmt *Switch, const Stmt *Child, ASTContext &Ctx, std::vector<GuardFact> &Out) {
  const VarDecl *Var = testedVariable(Switch->getCond());
  if (!Var)
    return;
  std::vector<const Stmt *> Statements;
  if (const auto *Body = dyn_cast<CompoundStmt>(Switch->getBody()))
    Statements.assign(Body->body_begin(), Body->body_end());
  else
    Statements.push_back(Switch->getBody());
  auto Here = std::find(Statements.begin(), Statements.end(), Child);
  if (Here == Statements.end())
    return;
  std::vector<int64_t> Members;
  SourceLocation Loc;
  std::string Text;
  for (auto It = Here + 1; It != Statements.begin();) {
    --It;
    if (It != Here && endsControl(*It))
      break;
    for (const Stmt *S = *It; const auto *Case = dyn_cast<SwitchCase>(S); S = Case->getSubStmt()) {
      const auto *Labelled = dyn_cast<CaseStmt>(Case);
      if (!Labelled)
        return; // default: any value the other labels do not take
      std::optional<int64_t> Lo = integerConstantOf(Labelled->getLHS(), Ctx);
      std::optional<int64_t> Hi = Labelled->getRHS() ? integerConstantOf(Labelled->getRHS(), Ctx) : Lo;
      if (!Lo || !Hi || *Hi - *Lo > 64)
        return;
      for (int64_t V = *Lo; V <= *Hi; ++V)
        Members.push_back(V);
      if (Loc.isInvalid()) {
        Loc = Labelled->getKeywordLoc();
        Text = "case " + textOf(Labelled->getLHS(), Ctx);
      }
    }
  }
  if (Members.empty())
    return; // the statement is not reached through a label of its own
  std::sort(Members.begin(), Members.end());
  Members.erase(std::unique(Members.begin(), Members.end()), Members.end());
  GuardFact F;
  F.var = Var;
  F.min = Members.front();
  F.max = Members.back();
  if (Members.size() > 1)
    F.members = std::move(Members);
  F.key = Switch;
  F.loc = Loc;
  F.text = std::move(Text);
  Out.push_back(std::move(F));
}

} // namespace

std::vector<GuardFact> guardsAround(const Stmt &At, const Stmt &Body, const StatementParents &Parents,
                                    ASTContext &Ctx) {
  std::vector<GuardFact> Out;
  const Stmt *Child = &At;
  for (unsigned Steps = 0; Steps < 512 && Child != &Body; ++Steps) {
    const Stmt *Parent = Parents.parentOf(Child);
    if (!Parent)
      break;
    const size_t Before = Out.size();
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child == If->getThen())
        conditionFacts(If->getCond(), true, Ctx, Out);
      else if (Child == If->getElse())
        conditionFacts(If->getCond(), false, Ctx, Out);
    } else if (const auto *While = dyn_cast<WhileStmt>(Parent)) {
      if (Child == While->getBody())
        conditionFacts(While->getCond(), true, Ctx, Out);
    } else if (const auto *For = dyn_cast<ForStmt>(Parent)) {
      if (Child == For->getBody())
        conditionFacts(For->getCond(), true, Ctx, Out);
    } else if (const auto *Switch = dyn_cast<SwitchStmt>(Parent)) {
      if (Child == Switch->getBody())
        switchFacts(Switch, Child, Ctx, Out);
    } else if (isa<CompoundStmt>(Parent)) {
      if (const auto *Switch = dyn_cast_or_null<SwitchStmt>(Parents.parentOf(Parent));
          Switch && Switch->getBody() == Parent)
        switchFacts(Switch, Child, Ctx, Out);
    }
    for (size_t I = Before; I < Out.size(); ++I)
      Out[I].statement = Parent;
    Child = Parent;
  }
  return Out;
}

} // namespace clang::tidy::occlint
