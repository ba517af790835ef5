#include "facts/CallSites.h"

#include "ast/InstantiatedFunctionVisitor.h"
#include "facts/ProgramTranslationUnits.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

namespace {

class CallCollector : public InstantiatedFunctionVisitor {
public:
  explicit CallCollector(CallSiteIndex &Index) : Index(Index) {}

  bool visitStmt(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      Index.noteCall(*Call, currentFunction());
    } else if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
      Index.noteFunctionReference(*Ref);
      Index.noteParameterReference(*Ref);
    }
    return true;
  }

private:
  CallSiteIndex &Index;
};

// The function an argument names, as `f` or `&f`; null for anything else.
const DeclRefExpr *functionNamedBy(const Expr *Arg) {
  Arg = Arg->IgnoreParenImpCasts();
  if (const auto *AddressOf = dyn_cast<UnaryOperator>(Arg); AddressOf && AddressOf->getOpcode() == UO_AddrOf)
    Arg = AddressOf->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
  return Ref && isa<FunctionDecl>(Ref->getDecl()) ? Ref : nullptr;
}

} // namespace

void CallSiteIndex::noteCall(const CallExpr &Call, const FunctionDecl *Caller) {
  if (Call.isValueDependent() || Call.isTypeDependent())
    return;
  const auto *CalleeRef = dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts());
  if (CalleeRef)
    CalleeRefs.insert(CalleeRef);
  if (const auto *Parameter = CalleeRef ? dyn_cast<ParmVarDecl>(CalleeRef->getDecl()) : nullptr;
      Parameter && Caller && !isa<CXXOperatorCallExpr>(Call))
    ParameterCalls[Parameter].push_back({&Call, Caller});
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Caller || isa<CXXOperatorCallExpr>(Call))
    return;
  Calls[Callee->getCanonicalDecl()].push_back({&Call, Caller});
  for (unsigned I = 0; I < Call.getNumArgs(); ++I)
    if (const DeclRefExpr *Ref = functionNamedBy(Call.getArg(I)))
      PassedAsArgument[Ref] = {&Call, I};
}

void CallSiteIndex::noteParameterReference(const DeclRefExpr &Ref) {
  if (const auto *Parameter = dyn_cast<ParmVarDecl>(Ref.getDecl()))
    if (Parameter->getType()->isFunctionPointerType() || Parameter->getType()->isFunctionReferenceType())
      ParameterRefs.push_back(&Ref);
}

// `Function` is passed as argument `Index` of `Call`, to a function whose
// definition only ever calls that parameter: the calls through the parameter
// are calls of `Function` in the contexts where the function's caller passes
// it (the launch analysis keeps, of the function's callers, those that pass
// `Function`: passesFunction).
bool CallSiteIndex::callsThroughParameter(const FunctionDecl &Function, const CallExpr &Call, unsigned Index) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->hasBody() || Index >= Callee->getNumParams() || Callee->isVariadic())
    return false;
  const ParmVarDecl *Parameter = Callee->getParamDecl(Index);
  auto Through = ParameterCalls.find(Parameter);
  if (Through == ParameterCalls.end())
    return false;
  for (const DeclRefExpr *Ref : ParameterRefs)
    if (Ref->getDecl() == Parameter && !CalleeRefs.count(Ref))
      return false; // the parameter is stored, passed on, compared: it escapes
  std::vector<CallSite> &Mine = Calls[Function.getCanonicalDecl()];
  for (const CallSite &Site : Through->second)
    if (std::none_of(Mine.begin(), Mine.end(), [&](const CallSite &C) { return C.call == Site.call; }))
      Mine.push_back(Site);
  return true;
}

bool CallSiteIndex::passesFunction(const CallExpr &Call, unsigned Index, const FunctionDecl &Function) {
  const DeclRefExpr *Ref = Index < Call.getNumArgs() ? functionNamedBy(Call.getArg(Index)) : nullptr;
  return Ref && Ref->getDecl()->getCanonicalDecl() == Function.getCanonicalDecl();
}

void CallSiteIndex::noteFunctionReference(const DeclRefExpr &Ref) {
  if (isa<FunctionDecl>(Ref.getDecl()))
    FunctionRefs.push_back(&Ref);
}

void CallSiteIndex::seal() {
  Built = true;
  for (const DeclRefExpr *Ref : FunctionRefs) {
    if (CalleeRefs.count(Ref))
      continue;
    const auto *Function = cast<FunctionDecl>(Ref->getDecl());
    auto Passed = PassedAsArgument.find(Ref);
    if (Passed != PassedAsArgument.end() &&
        callsThroughParameter(*Function, *Passed->second.first, Passed->second.second))
      continue;
    AddressTaken.insert(Function->getCanonicalDecl());
  }
  CalleeRefs.clear();
  FunctionRefs.clear();
  PassedAsArgument.clear();
  ParameterCalls.clear();
  ParameterRefs.clear();
}

void CallSiteIndex::build() {
  CallCollector Collector(*this);
  Collector.traverseDecl(Ctx.getTranslationUnitDecl());
  seal();
}

const std::vector<CallSite> &CallSiteIndex::callsOf(const FunctionDecl &Callee) {
  if (!Built)
    build();
  static const std::vector<CallSite> None;
  auto It = Calls.find(Callee.getCanonicalDecl());
  return It == Calls.end() ? None : It->second;
}

// Every declaration of `F` (of the template it is instantiated from, for an
// instantiation) is written in the main file: no header declares it for
// other files to call.
static bool declaredInMainFileOnly(const FunctionDecl &F, const SourceManager &SM) {
  const FunctionDecl *Written = F.getTemplateInstantiationPattern() ? F.getTemplateInstantiationPattern() : &F;
  for (const FunctionDecl *D : Written->redecls())
    if (!SM.isWrittenInMainFile(SM.getExpansionLoc(D->getLocation())))
      return false;
  return true;
}

bool CallSiteIndex::callersAllVisible(const FunctionDecl &Callee, std::string *Why) {
  if (!Built)
    build();
  const std::string Name = "'" + Callee.getNameAsString() + "'";
  auto Fail = [&](std::string Reason) {
    if (Why)
      *Why = std::move(Reason);
    return false;
  };
  if (AddressTaken.count(Callee.getCanonicalDecl()))
    return Fail("the address of " + Name + " is taken: it can be called through a pointer");
  if (!Callee.isExternallyVisible())
    return true;
  const SourceManager &SM = Ctx.getSourceManager();
  const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (isa<CXXMethodDecl>(Callee) || Callee.isExternC() || !Callee.getIdentifier() || !Main ||
      !declaredInMainFileOnly(Callee, SM) || !ProgramTranslationUnits::known())
    return Fail(Name + " can be called from other files");
  if (std::optional<std::string> Other = ProgramTranslationUnits::namedOutside(Callee.getName(), Main->getName()))
    return Fail(Name + " can be called from other files (" + *Other + " names it)");
  return true;
}

} // namespace clang::tidy::occlint
