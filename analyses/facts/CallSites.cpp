#include "facts/CallSites.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::tidy::occlint {

namespace {

class CallCollector : public RecursiveASTVisitor<CallCollector> {
  using Base = RecursiveASTVisitor<CallCollector>;

public:
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> Calls;
  llvm::SmallPtrSet<const DeclRefExpr *, 32> CalleeRefs;
  std::vector<const DeclRefExpr *> FunctionRefs;

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    if (FD->isDependentContext())
      return true;
    const FunctionDecl *Saved = Current;
    Current = FD;
    const bool Result = Base::TraverseDecl(D);
    Current = Saved;
    return Result;
  }

  bool VisitCallExpr(CallExpr *Call) {
    if (Call->isValueDependent() || Call->isTypeDependent())
      return true;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts()))
      CalleeRefs.insert(Ref);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (Callee && Current && !isa<CXXOperatorCallExpr>(Call))
      Calls[Callee->getCanonicalDecl()].push_back({Call, Current});
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (isa<FunctionDecl>(Ref->getDecl()))
      FunctionRefs.push_back(Ref);
    return true;
  }

private:
  const FunctionDecl *Current = nullptr;
};

} // namespace

void CallSiteIndex::build() {
  Built = true;
  CallCollector Collector;
  Collector.TraverseDecl(Ctx.getTranslationUnitDecl());
  Calls = std::move(Collector.Calls);
  for (const DeclRefExpr *Ref : Collector.FunctionRefs)
    if (!Collector.CalleeRefs.count(Ref))
      AddressTaken.insert(cast<FunctionDecl>(Ref->getDecl())->getCanonicalDecl());
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
