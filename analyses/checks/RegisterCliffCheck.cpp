#include "checks/RegisterCliffCheck.h"

namespace clang::tidy::occlint {

RegisterCliffCheck::RegisterCliffCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context), Margin(Options.get("Margin", 8U)) {}

void RegisterCliffCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  OcclintCheck::storeOptions(Opts);
  Options.store(Opts, "Margin", Margin);
}

// The note's fix-it writes __launch_bounds__ before the kernel's name, only
// where that is one unambiguous edit: a plain kernel (a template's attribute
// would serve every instantiation), without launch bounds or __maxnreg__ of
// its own, whose name is written in the file (not produced by a macro).
static bool canInsertLaunchBounds(const KernelInfo &Kernel, ASTContext &Ctx) {
  const FunctionDecl &FD = *Kernel.decl;
  if (FD.isTemplateInstantiation() || FD.getPrimaryTemplate() || FD.isFunctionTemplateSpecialization() ||
      Kernel.launchBoundsMaxThreads || Kernel.maxRegisters)
    return false;
  const SourceLocation Name = FD.getLocation();
  return Name.isFileID() && !Ctx.getSourceManager().isInSystemHeader(Name);
}

void RegisterCliffCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  remarkMissingResources(Facts, Ctx, "register counts near a step");
  for (const LaunchOnTarget &L : Facts.launchesOnTargets) {
    if (!L.occupancy || L.occupancy->failure != ::occlint::LaunchFailure::None ||
        !L.resources->registersKnown())
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
    const int Regs = L.resources->model.registersPerThread;
    const int Threads = L.shape->threadsPerBlock();
    diag(L.site->loc, "on %0, '%1' uses %2 registers per thread, %3 more than fit %4 blocks of %5 threads per "
                      "SM: %6 occupancy, %7 with %8 registers")
        << gpuName(*L.gpu) << L.kernel->displayName << Regs << int(Step->reduceBy) << Step->blocksPerSM
        << Threads << percent(R.occupancy) << percent(Step->occupancy) << int(Step->newValue)
        << L.site->range;
    noteResources(L);
    auto Note = diag(L.kernel->decl->getLocation(),
                     "to cap the registers: __launch_bounds__(%0, %1), __maxnreg__(%2) or -maxrregcount=%2; if "
                     "the code needs more, ptxas spills to local memory (kernels forced from 80 and 128 to 64 "
                     "registers ran 5.5x and 14.8x slower on an H200)",
                     DiagnosticIDs::Note)
                << Threads << Step->blocksPerSM << int(Step->newValue);
    if (canInsertLaunchBounds(*L.kernel, Ctx))
      Note << FixItHint::CreateInsertion(L.kernel->decl->getLocation(),
                                         "__launch_bounds__(" + std::to_string(Threads) + ", " +
                                             std::to_string(Step->blocksPerSM) + ") ");
    noteDerivation(L.site->block.derivation());
  }
}

} // namespace clang::tidy::occlint
