#include "facts/CallSites.h"

#include "facts/InstantiatedFunctionVisitor.h"
#include "facts/ProgramTranslationUnits.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"

#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

namespace {

class CallCollector : public InstantiatedFunctionVisitor<CallCollector> {
public:
  explicit CallCollector(CallSiteIndex &Index) : Index(Index) {}

  bool VisitCallExpr(CallExpr *Call) {
    Index.noteCall(*Call, currentFunction());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    Index.noteFunctionReference(*Ref);
    return true;
  }

private:
  CallSiteIndex &Index;
};

} // namespace

void CallSiteIndex::noteCall(const CallExpr &Call, const FunctionDecl *Caller) {
  if (Call.isValueDependent() || Call.isTypeDependent())
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    CalleeRefs.insert(Ref);
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (Callee && Caller && !isa<CXXOperatorCallExpr>(Call))
    Calls[Callee->getCanonicalDecl()].push_back({&Call, Caller});
}

void CallSiteIndex::noteFunctionReference(const DeclRefExpr &Ref) {
  if (isa<FunctionDecl>(Ref.getDecl()))
    FunctionRefs.push_back(&Ref);
}

void CallSiteIndex::seal() {
  Built = true;
  for (const DeclRefExpr *Ref : FunctionRefs)
    if (!CalleeRefs.count(Ref))
      AddressTaken.insert(cast<FunctionDecl>(Ref->getDecl())->getCanonicalDecl());
  CalleeRefs.clear();
  FunctionRefs.clear();
}

void CallSiteIndex::build() {
  CallCollector Collector(*this);
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
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
  if (isa<CXXMethodDecl>(Callee) || Callee.isExternC() || !Callee.getIdentifier() ||
      !declaredInMainFileOnly(Callee, SM) || !ProgramTranslationUnits::known())
    return Fail(Name + " can be called from other files");
  const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return Fail(Name + " can be called from other files");
  if (std::optional<std::string> Other = ProgramTranslationUnits::namedOutside(Callee.getName(), Main->getName()))
    return Fail(Name + " can be called from other files (" + *Other + " names it)");
  return true;
}

} // namespace clang::tidy::occlint
