// The statements a run executes: blocks, declarations of integer locals,
// if, switch, for, while, do, break, continue, return
// (HostFunctionRunnerInternals.h).
#include "values/HostFunctionRunnerInternals.h"

namespace clang::tidy::occlint::host_runner_detail {

std::optional<Flow> Runner::exec(const Stmt *S) {
  if (!S)
    return Flow::Next;
  if (!step())
    return std::nullopt;
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (!eval(E))
      return std::nullopt;
    return Flow::Next;
  }
  switch (S->getStmtClass()) {
  case Stmt::NullStmtClass:
    return Flow::Next;
  case Stmt::CompoundStmtClass:
    for (const Stmt *Child : cast<CompoundStmt>(S)->body()) {
      std::optional<Flow> F = exec(Child);
      if (!F || *F != Flow::Next)
        return F;
    }
    return Flow::Next;
  case Stmt::DeclStmtClass:
    return declare(cast<DeclStmt>(S));
  case Stmt::ReturnStmtClass: {
    const Expr *Value = cast<ReturnStmt>(S)->getRetValue();
    if (Value) {
      std::optional<i128> V = eval(Value);
      if (!V)
        return std::nullopt;
      Calls.back().returned = V;
    }
    return Flow::Return;
  }
  case Stmt::BreakStmtClass:
    return Flow::Break;
  case Stmt::ContinueStmtClass:
    return Flow::Continue;
  case Stmt::IfStmtClass:
    return execIf(cast<IfStmt>(S));
  case Stmt::WhileStmtClass:
  case Stmt::DoStmtClass:
  case Stmt::ForStmtClass:
    return execLoop(S);
  case Stmt::SwitchStmtClass:
    return execSwitch(cast<SwitchStmt>(S));
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    return exec(cast<SwitchCase>(S)->getSubStmt());
  case Stmt::AttributedStmtClass:
    return exec(cast<AttributedStmt>(S)->getSubStmt());
  default:
    return stop(std::string("it runs a ") + S->getStmtClassName());
  }
}

std::optional<Flow> Runner::declare(const DeclStmt *S) {
  for (const Decl *D : S->decls()) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD)
      continue; // a typedef, a using, a static_assert
    if (!VD->isLocalVarDecl() || VD->isStaticLocal() || VD->getType()->isReferenceType() ||
        !intType(VD->getType()).valid)
      return stop("it declares '" + nameOf(*VD) + "', which is not a local integer");
    std::optional<i128> Value;
    if (const Expr *Init = VD->getInit()) {
      if (const auto *List = dyn_cast<InitListExpr>(Init)) {
        if (List->getNumInits() > 1)
          return stop("it initializes '" + nameOf(*VD) + "' with a list");
        Init = List->getNumInits() == 1 ? List->getInit(0) : nullptr;
      }
      std::optional<i128> V = Init ? eval(Init) : std::optional<i128>(0);
      if (!V)
        return std::nullopt;
      Value = convert(*V, VD->getType());
      if (!Value)
        return std::nullopt;
    }
    Calls.back().vars[VD] = Value;
  }
  return Flow::Next;
}

std::optional<bool> Runner::condition(const Stmt *Init, const DeclStmt *CondVar, const Expr *Cond) {
  if (Init && !exec(Init))
    return std::nullopt;
  if (CondVar && !exec(CondVar))
    return std::nullopt;
  std::optional<i128> V = eval(Cond);
  if (!V)
    return std::nullopt;
  return *V != 0;
}

std::optional<Flow> Runner::execIf(const IfStmt *S) {
  if (S->isConsteval())
    return stop("it runs an 'if consteval'");
  std::optional<bool> C = condition(S->getInit(), S->getConditionVariableDeclStmt(), S->getCond());
  if (!C)
    return std::nullopt;
  return exec(*C ? S->getThen() : S->getElse());
}

std::optional<Flow> Runner::execLoop(const Stmt *S) {
  const auto *For = dyn_cast<ForStmt>(S);
  const auto *While = dyn_cast<WhileStmt>(S);
  const auto *Do = dyn_cast<DoStmt>(S);
  if (For && For->getInit() && !exec(For->getInit()))
    return std::nullopt;
  const Stmt *Body = For ? For->getBody() : While ? While->getBody() : Do->getBody();
  for (bool First = true;; First = false) {
    if (!step())
      return std::nullopt;
    if (!(Do && First)) {
      const Expr *Cond = For ? For->getCond() : While ? While->getCond() : Do->getCond();
      const DeclStmt *CondVar = For     ? For->getConditionVariableDeclStmt()
                                : While ? While->getConditionVariableDeclStmt()
                                        : nullptr;
      if (Cond) { // for (;;) has none
        std::optional<bool> C = condition(nullptr, CondVar, Cond);
        if (!C)
          return std::nullopt;
        if (!*C)
          return Flow::Next;
      }
    }
    std::optional<Flow> F = exec(Body);
    if (!F)
      return std::nullopt;
    if (*F == Flow::Return)
      return F;
    if (*F == Flow::Break)
      return Flow::Next;
    if (For && For->getInc() && !eval(For->getInc()))
      return std::nullopt;
  }
}

/// Whether Child is Label, or a chain of labels ending at Label
/// (`case 1: case 2: ...`).
bool Runner::labels(const Stmt *Child, const SwitchCase *Label) {
  while (const auto *Case = dyn_cast_or_null<SwitchCase>(Child)) {
    if (Case == Label)
      return true;
    Child = Case->getSubStmt();
  }
  return false;
}

std::optional<Flow> Runner::execSwitch(const SwitchStmt *S) {
  if (S->getInit() && !exec(S->getInit()))
    return std::nullopt;
  if (S->getConditionVariableDeclStmt() && !exec(S->getConditionVariableDeclStmt()))
    return std::nullopt;
  std::optional<i128> Value = eval(S->getCond());
  if (!Value)
    return std::nullopt;
  const SwitchCase *Target = nullptr, *Default = nullptr;
  for (const SwitchCase *Case = S->getSwitchCaseList(); Case; Case = Case->getNextSwitchCase()) {
    if (isa<DefaultStmt>(Case)) {
      Default = Case;
      continue;
    }
    const auto *C = cast<CaseStmt>(Case);
    if (C->caseStmtIsGNURange())
      return stop("it switches with a case range");
    std::optional<i128> Label = fromAPSInt(C->getLHS()->EvaluateKnownConstInt(Ctx));
    if (!Label)
      return std::nullopt;
    std::optional<i128> Converted = convert(*Label, S->getCond()->getType());
    if (!Converted)
      return std::nullopt;
    if (*Converted == *Value)
      Target = C;
  }
  if (!Target)
    Target = Default;
  if (!Target)
    return Flow::Next;
  const auto *Body = dyn_cast<CompoundStmt>(S->getBody());
  if (!Body)
    return stop("it switches on a body that is not a block");
  bool Started = false;
  for (const Stmt *Child : Body->body()) {
    if (!Started && !labels(Child, Target))
      continue;
    Started = true;
    std::optional<Flow> F = exec(Child);
    if (!F)
      return std::nullopt;
    if (*F == Flow::Break)
      return Flow::Next;
    if (*F != Flow::Next)
      return F;
  }
  if (!Started)
    return stop("it jumps to a case label inside a nested statement");
  return Flow::Next;
}

} // namespace clang::tidy::occlint::host_runner_detail
