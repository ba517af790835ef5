#include "checks/DivergenceBarrierCheck.h"

namespace clang::tidy::occlint {

void DivergenceBarrierCheck::checkDivergence(const DivergenceResults &R, ASTContext &) {
  for (const auto &[Collective, Missed] : collectivesToReport(R, /*Barriers=*/true)) {
    const DivergenceCollective &C = *Collective;
    const DivergenceContext &Ctx = *Missed;
    if (Ctx.Boundary) { // missed only where the bound cuts through a block: a warning
      if (C.Needed >= 64)
        diag(C.Loc, "%0 is reached only by the threads on one side of a bound ('%1'): where the bound falls inside "
                    "a block, the threads past it never arrive at the barrier (deadlock or undefined behavior); "
                    "whether it does depends on the sizes and the block shape of the launch%2")
            << C.Name << Ctx.CondText << assumption(Ctx.Cond.Assumed, C.Kernel);
      else
        diag(C.Loc, "%0 is reached only by the threads on one side of a bound ('%1'): where the bound falls inside "
                    "a tile of %2 threads, the others never arrive%3")
            << C.Name << Ctx.CondText << C.Needed << assumption(Ctx.Cond.Assumed, C.Kernel);
    } else if (C.Needed >= 64)
      diag(C.Loc,
           "%0 is reached under control flow that is not uniform across the block: the threads that do not "
           "reach it never arrive at the barrier (deadlock or undefined behavior)%1",
           DiagnosticIDs::Error)
          << C.Name << assumption(Ctx.Cond.Assumed, C.Kernel);
    else
      diag(C.Loc,
           "%0 is reached under control flow that is not uniform across its tile of %1 threads: the threads "
           "of the tile that do not reach it never arrive%2",
           DiagnosticIDs::Error)
          << C.Name << C.Needed << assumption(Ctx.Cond.Assumed, C.Kernel);
    noteContext(Ctx);
  }
}

} // namespace clang::tidy::occlint
