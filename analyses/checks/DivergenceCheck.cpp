#include "checks/DivergenceCheck.h"

#include "facts/StatedAssertions.h"

#include <algorithm>
#include <set>

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
  return " (assuming blockDim.x is a multiple of 32: the block shape of '" + Kernel + "' is not known at every launch)";
}

void DivergenceCheck::noteContext(const DivergenceContext &C) {
  if (C.BranchLoc.isValid()) {
    const std::string Split = describeSplit(C.Cond, C.WarpLanes);
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
      diag(C.BranchLoc,
           "the branch on '%0' depends on the thread: it is the same in every lane of a warp, not in "
           "the whole block",
           DiagnosticIDs::Note)
          << C.CondText;
  }
  for (const SourceLocation &Call : C.Calls)
    diag(Call, "reached through this call", DiagnosticIDs::Note);
  if (C.DecidedByLaunch.isValid() && !C.LaunchedBlock.empty())
    diag(C.DecidedByLaunch,
         "the kernel is launched here with %select{|%1 and }0a block of %2 threads, for which the "
         "miss is certain",
         DiagnosticIDs::Note)
        << !C.DecidedByArguments.empty() << C.DecidedByArguments << C.LaunchedBlock;
  else if (C.DecidedByLaunch.isValid())
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

static bool sameCollective(const DivergenceCollective &A, const DivergenceCollective &B) {
  return A.Kernel == B.Kernel && A.Call == B.Call && A.AsmStmt == B.AsmStmt;
}

std::vector<DivergenceCollectiveCheck::MissedCollective>
DivergenceCollectiveCheck::collectivesToReport(const DivergenceResults &R, bool Barriers) const {
  // Candidates in the order found; a place is reported once, a certain
  // miss (an error) before a possible one: a helper analysed for two
  // kernels, or a template's two instantiations, one of them launched with
  // the configuration that makes the miss certain.
  std::vector<MissedCollective> Candidates;
  auto Add = [&](const DivergenceCollective &C, const DivergenceContext &Missed) {
    Candidates.push_back({&C, &Missed});
  };
  for (const DivergenceCollective &C : R.Collectives) {
    if (C.Barrier != Barriers)
      continue;
    const DivergenceContext *Missed = missedUnder(C);
    if (!Missed)
      continue;
    if (!Missed->Boundary) {
      Add(C, *Missed);
      continue;
    }
    // A possible miss: what do the kernel's launches, each on its own, make of it?
    const DivergenceCollective *Certain = nullptr;
    const DivergenceContext *CertainCtx = nullptr;
    bool Analysed = false, AnyMiss = false;
    for (const LaunchCollectives &Run : R.ByLaunch) {
      if (Run.Kernel != C.Kernel)
        continue;
      Analysed = true;
      AnyMiss |= !Run.CoversEveryLaunch; // a launch whose block is not known may miss it
      for (const DivergenceCollective &Other : Run.Collectives) {
        if (!sameCollective(C, Other))
          continue;
        if (const DivergenceContext *M = missedUnder(Other)) {
          AnyMiss = true;
          if (!M->Boundary && !Certain) {
            Certain = &Other;
            CertainCtx = M;
          }
        }
      }
    }
    if (Certain)
      Add(*Certain, *CertainCtx);
    else if (!Analysed || AnyMiss)
      Add(C, *Missed);
    // else: every launch of the kernel rules the miss out
  }
  // A miss only a launch's own configuration shows (a value the agreed
  // analysis takes as uniform, one launch gives).
  for (const LaunchCollectives &Run : R.ByLaunch)
    for (const DivergenceCollective &C : Run.Collectives)
      if (C.Barrier == Barriers)
        if (const DivergenceContext *M = missedUnder(C); M && !M->Boundary)
          Add(C, *M);
  std::stable_partition(Candidates.begin(), Candidates.end(),
                        [](const MissedCollective &M) { return !M.missed->Boundary; });
  std::vector<MissedCollective> Out;
  std::set<SourceLocation::UIntTy> Done;
  for (const MissedCollective &M : Candidates)
    if (Done.insert(M.collective->Loc.getRawEncoding()).second)
      Out.push_back(M);
  return Out;
}

} // namespace clang::tidy::occlint
