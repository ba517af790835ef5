#include "checks/RegisterCliffCheck.h"

#include "checks/fixes/LaunchBoundsFix.h"

#include "clang/Basic/SourceManager.h"

#include <map>

namespace clang::tidy::occlint {

RegisterCliffCheck::RegisterCliffCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), Margin(Options.get("Margin", 8U)),
      MinGainPercent(Options.get("MinGainPercent", 25U)) {}

void RegisterCliffCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "Margin", Margin);
  Options.store(Opts, "MinGainPercent", MinGainPercent);
}

void RegisterCliffCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  remarkMissingResources(Facts, Ctx, "register counts near a step");
  // The kernels whose __launch_bounds__ fix-it a note already carries, and
  // where: a second insertion before the same name would be applied too.
  std::map<const FunctionDecl *, std::pair<std::string, SourceLocation>> Offered;
  const LaunchFindingPrecedence Table = precedence(Facts);
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (!L.occupancy || L.occupancy->failure != ::occlint::LaunchFailure::None || !L.resources->registersKnown() ||
        blockIsDeliberate(*L.site))
      continue;
    const ::occlint::OccupancyResult &R = *L.occupancy;
    if (!(R.bindingLimiters & unsigned(::occlint::Limiter::Registers)))
      continue;
    const ::occlint::NextStep *Step = nullptr;
    for (const ::occlint::NextStep &S : R.nextSteps)
      if (S.resource == "registers" && S.blocksPerSM > R.blocksPerSM)
        Step = &S;
    if (!Step || Step->reduceBy <= 0 || Step->reduceBy > int64_t(Margin))
      continue;
    // Occupancy is a means, not the goal: 50 % -> 56 % is not worth cutting
    // registers (and risking spills) for; 12.5 % -> 25 % is.
    if ((Step->occupancy - R.occupancy) * 100.0 < double(MinGainPercent) * R.occupancy)
      continue;
    if (isMootOnTarget(Table, L))
      continue; // an invalid launch, or a grid with at most one block per SM
    // One more block per SM helps only a grid larger than one wave now.
    const std::optional<std::string> Condition = gridBeyondOneWave(L, R.blocksPerSM);
    if (!Condition)
      continue;
    if (isSilencedAtCaller(*L.site))
      continue;
    const int Regs = L.resources->model.registersPerThread;
    const int Threads = L.shape->threadsPerBlock();
    diag(L.site->loc, "on %0, '%1' uses %2 registers per thread, %3 more than fit %4 blocks of %5 threads per "
                      "SM: %6 occupancy, %7 with %8 registers%9")
        << gpuName(*L.gpu) << L.kernel->displayName << Regs << int(Step->reduceBy) << Step->blocksPerSM << Threads
        << percent(R.occupancy) << percent(Step->occupancy) << int(Step->newValue) << *Condition << L.site->range;
    noteResources(L);
    noteGridFromCallers(L);
    // The fix-it is on the note (applied by --fix-notes, never by --fix), and
    // only where no launch can exceed the attribute (checks/fixes/LaunchBoundsFix.h).
    const std::string Attribute =
        "__launch_bounds__(" + std::to_string(Threads) + ", " + std::to_string(Step->blocksPerSM) + ")";
    std::string Blocker = launchBoundsFixBlocker(*L.kernel, Threads, Facts, Ctx);
    const FunctionDecl *Canonical = L.kernel->decl->getCanonicalDecl();
    if (auto Earlier = Offered.find(Canonical); Blocker.empty() && Earlier != Offered.end())
      Blocker = "the note for the launch at line " +
                std::to_string(Ctx.getSourceManager().getExpansionLineNumber(Earlier->second.second)) +
                " carries the fix-it (" + Earlier->second.first + ")";
    else if (Blocker.empty())
      Offered[Canonical] = {Attribute, L.site->loc};
    auto Note = diag(L.kernel->decl->getLocation(),
                     "to cap the registers: __launch_bounds__(%0, %1), __maxnreg__(%2) or -maxrregcount=%2; if "
                     "the code needs more, ptxas spills to local memory (kernels forced from 80 and 128 to 64 "
                     "registers ran 5.5x and 14.8x slower on an H200); %3",
                     DiagnosticIDs::Note)
                << Threads << Step->blocksPerSM << int(Step->newValue)
                << (Blocker.empty() ? "the fix-it inserts " + Attribute + ": '" + L.kernel->displayName +
                                          "' is internal to this file and no launch of it has more than " +
                                          std::to_string(Threads) + " threads"
                                    : "no fix-it: " + Blocker);
    if (Blocker.empty())
      Note << FixItHint::CreateInsertion(L.kernel->decl->getLocation(), Attribute + " ");
    noteDerivation(L.site->block.derivation());
  }
}

} // namespace clang::tidy::occlint
