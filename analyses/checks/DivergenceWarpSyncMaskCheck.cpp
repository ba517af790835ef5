#include "checks/DivergenceWarpSyncMaskCheck.h"

namespace clang::tidy::occlint {

void DivergenceWarpSyncMaskCheck::checkDivergence(const DivergenceResults &R, ASTContext &) {
  for (const auto &[Collective, Missed] : collectivesToReport(R, /*Barriers=*/false)) {
    const DivergenceCollective &C = *Collective;
    const DivergenceContext &Ctx = *Missed;
    const bool FullMask = C.Needed == 32 && C.Name.rfind("tile.", 0) != 0;
    if (Ctx.Boundary) { // missed only where the bound cuts through a warp: a warning
      if (FullMask)
        diag(C.Loc, "'%0' with the full mask 0xffffffff is reached only by the lanes on one side of a bound ('%1'): "
                    "where the bound falls inside a warp, lanes named in the mask never arrive (undefined "
                    "behavior); whether it does depends on the sizes of the launch; pass __activemask() or the "
                    "mask of the lanes that take this path%2")
            << C.Name << Ctx.CondText << assumption(Ctx.Cond.Assumed, C.Kernel);
      else
        diag(C.Loc, "'%0' is reached only by the threads on one side of a bound ('%1'): where the bound falls "
                    "inside a tile of %2, the others never arrive (undefined behavior)%3")
            << C.Name << Ctx.CondText << C.Needed << assumption(Ctx.Cond.Assumed, C.Kernel);
    } else if (FullMask)
      diag(C.Loc,
           "'%0' with the full mask 0xffffffff is reached by only some lanes of the warp: lanes named in the "
           "mask never arrive (undefined behavior); pass __activemask() or the mask of the lanes that take "
           "this path%1",
           DiagnosticIDs::Error)
          << C.Name << assumption(Ctx.Cond.Assumed, C.Kernel);
    else
      diag(C.Loc,
           "'%0' is reached by only some threads of its tile of %1: the others never arrive (undefined "
           "behavior)%2",
           DiagnosticIDs::Error)
          << C.Name << C.Needed << assumption(Ctx.Cond.Assumed, C.Kernel);
    noteContext(Ctx);
  }
}

} // namespace clang::tidy::occlint
