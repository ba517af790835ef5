#include "checks/DivergenceCheck.h"

#include "facts/StatedAssertions.h"

namespace clang::tidy::occlint {

void DivergenceCheck::onStartOfTranslationUnit() {
  OcclintCheck::onStartOfTranslationUnit();
  DivergenceResults::forgetAll();
}

void DivergenceCheck::registerPPCallbacks(const SourceManager &SM, Preprocessor *PP, Preprocessor *ModuleExpanderPP) {
  OcclintCheck::registerPPCallbacks(SM, PP, ModuleExpanderPP);
  StatedAssertions::recordFrom(*PP);
}

void DivergenceCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  checkDivergence(DivergenceResults::get(Ctx, Facts), Ctx);
}

std::string DivergenceCheck::assumption(bool Assumed, const std::string &Kernel) {
  if (!Assumed)
    return "";
  return " (assuming blockDim.x is a multiple of 32: the block shape of '" + Kernel +
         "' is not known at every launch)";
}

void DivergenceCheck::noteContext(const DivergenceContext &C) {
  if (C.BranchLoc.isValid()) {
    const std::string Split = describeSplit(C.Cond);
    if (C.Exit == "return")
      diag(C.BranchLoc, "threads for which '%0' holds return here early", DiagnosticIDs::Note) << C.CondText;
    else if (C.Exit == "break")
      diag(C.BranchLoc, "threads for which '%0' holds leave the loop here", DiagnosticIDs::Note) << C.CondText;
    else if (C.Exit == "continue")
      diag(C.BranchLoc, "threads for which '%0' holds skip the rest of the iteration here", DiagnosticIDs::Note)
          << C.CondText;
    else if (!Split.empty())
      diag(C.BranchLoc, "the branch on '%0' depends on the thread: %1", DiagnosticIDs::Note) << C.CondText << Split;
    else
      diag(C.BranchLoc, "the branch on '%0' depends on the thread: it is the same in every lane of a warp, not in "
                        "the whole block",
           DiagnosticIDs::Note)
          << C.CondText;
  }
  for (const SourceLocation &Call : C.Calls)
    diag(Call, "reached through this call", DiagnosticIDs::Note);
  if (C.DecidedByLaunch.isValid())
    diag(C.DecidedByLaunch,
         "the kernel is launched here with %select{|%1 and }0a block %select{that the bound falls inside|whose "
         "threads run the loop a different number of times}2",
         DiagnosticIDs::Note)
        << !C.DecidedByArguments.empty() << C.DecidedByArguments << C.DecidedTrips;
  if (C.DecidedByAssertion.isValid())
    diag(C.DecidedByAssertion,
         "the kernel asserts its block shape here, and %select{the bound falls inside such a block|the threads of "
         "such a block run the loop a different number of times}0 (taken as a stated assumption, also where NDEBUG "
         "compiles the assertion out)",
         DiagnosticIDs::Note)
        << C.DecidedTrips;
}

DivergenceCollectiveCheck::DivergenceCollectiveCheck(StringRef Name, ClangTidyContext *Context)
    : DivergenceCheck(Name, Context), ReportExitedThreads(boolOption("ReportExitedThreads", false)) {}

void DivergenceCollectiveCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  DivergenceCheck::storeOptions(Opts);
  Options.store(Opts, "ReportExitedThreads", ReportExitedThreads ? "true" : "false");
}

const DivergenceContext *DivergenceCollectiveCheck::missedUnder(const DivergenceCollective &C) const {
  const DivergenceContext &Ctx = ReportExitedThreads || C.ExitedMatter ? C.Ctx : C.Ctx.ignoringExited();
  return Ctx.Group < C.Needed ? &Ctx : nullptr;
}

} // namespace clang::tidy::occlint
