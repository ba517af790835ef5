#include "checks/fixes/LaunchBoundsFix.h"

#include "ast/AstWalker.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::occlint {

namespace {

bool sameFunction(const FunctionDecl *A, const FunctionDecl *B) {
  return A && B && A->getCanonicalDecl() == B->getCanonicalDecl();
}

// "line 40", or "line 40 of helpers.cuh" outside the main file.
std::string where(SourceLocation Loc, const SourceManager &SM) {
  const SourceLocation At = SM.getExpansionLoc(Loc);
  std::string Out = "line " + std::to_string(SM.getExpansionLineNumber(At));
  if (SM.getFileID(At) != SM.getMainFileID())
    Out += " of " + llvm::sys::path::filename(SM.getFilename(At)).str();
  return Out;
}

// The first reference to the kernel that is not part of a launch occlint read
// nor of a cudaFunc*/cudaOccupancy* query: its address may then reach a
// launch occlint cannot see.
class OtherReference : public AstWalker {
public:
  OtherReference(const FunctionDecl &Kernel, const SourceManager &SM, std::vector<SourceRange> Launches)
      : Kernel(Kernel), SM(SM), Allowed(std::move(Launches)) {
    VisitTemplateInstantiations = true;
  }

  bool visitStmt(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S))
      return visitCall(*Call);
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      return visitReference(*Ref);
    return true;
  }

  SourceLocation Found;

private:
  bool visitCall(const CallExpr &Call) {
    if (const FunctionDecl *Callee = Call.getDirectCallee();
        Callee && Callee->getIdentifier() &&
        (Callee->getName().starts_with("cudaFunc") || Callee->getName().starts_with("cudaOccupancy")))
      Allowed.push_back(SM.getExpansionRange(Call.getSourceRange()).getAsRange());
    return true;
  }
  bool visitReference(const DeclRefExpr &Ref) {
    if (!sameFunction(dyn_cast<FunctionDecl>(Ref.getDecl()), &Kernel))
      return true;
    const SourceLocation At = SM.getExpansionLoc(Ref.getLocation());
    for (const SourceRange &R : Allowed)
      if (SM.isPointWithin(At, R.getBegin(), R.getEnd()))
        return true;
    Found = At;
    return false;
  }

  const FunctionDecl &Kernel;
  const SourceManager &SM;
  std::vector<SourceRange> Allowed;
};

} // namespace

std::string launchBoundsFixBlocker(const KernelInfo &Kernel, int64_t Threads, const TranslationUnitFacts &Facts,
                                   ASTContext &Ctx) {
  const FunctionDecl &FD = *Kernel.decl;
  const SourceManager &SM = Ctx.getSourceManager();
  const std::string Name = "'" + Kernel.displayName + "'";
  const std::string T = std::to_string(Threads);
  if (FD.isTemplateInstantiation() || FD.getPrimaryTemplate() || FD.isFunctionTemplateSpecialization())
    return Name + " is a template instantiation: one attribute would serve every instantiation";
  if (Kernel.launchBoundsMaxThreads || Kernel.maxRegisters)
    return Name + " already has __launch_bounds__ or __maxnreg__";
  const SourceLocation NameLoc = FD.getLocation();
  if (!NameLoc.isFileID() || SM.isInSystemHeader(NameLoc))
    return "the name of " + Name + " is not written in the file (a macro)";
  if (FD.isExternallyVisible())
    return Name + " has external linkage: another file may launch it with more than " + T +
           " threads, a launch the attribute would make fail; a static kernel (or one in an anonymous namespace) "
           "launched here with at most " +
           T + " threads gets the fix-it";
  std::vector<SourceRange> Launches;
  for (const LaunchSite &Site : Facts.launches) {
    if (!sameFunction(Site.kernel, &FD))
      continue;
    const EvaluatedValue Block = Site.block.product();
    if (!Block.max)
      return "the launch at " + where(Site.loc, SM) +
             " has a block size not known at compile time, which the attribute could make fail";
    if (*Block.max > Threads)
      return "the attribute would make the launch at " + where(Site.loc, SM) + " (" +
             std::string(Block.isExact() ? "" : "up to ") + std::to_string(*Block.max) + " threads) fail";
    if (Site.call)
      Launches.push_back(SM.getExpansionRange(Site.call->getSourceRange()).getAsRange());
  }
  OtherReference Finder(FD, SM, std::move(Launches));
  Finder.traverseDecl(Ctx.getTranslationUnitDecl());
  if (Finder.Found.isValid())
    return Name + " is referenced at " + where(Finder.Found, SM) +
           " other than by a launch occlint reads: its address may reach a launch of more than " + T + " threads";
  return "";
}

} // namespace clang::tidy::occlint
