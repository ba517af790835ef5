#include "facts/CallSites.h"

#include "facts/InstantiatedFunctionVisitor.h"

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

bool CallSiteIndex::callersAllVisible(const FunctionDecl &Callee) {
  if (!Built)
    build();
  return !Callee.isExternallyVisible() && !AddressTaken.count(Callee.getCanonicalDecl());
}

} // namespace clang::tidy::occlint
