// cuda-divergence-barrier: a barrier (__syncthreads*, block.sync(),
// cg::sync(g), bar.sync in inline assembly, a tile's sync()) reached under
// control flow that is not uniform across the group it synchronises.
// docs/checks/cuda-divergence-barrier.md
#pragma once

#include "checks/DivergenceCheck.h"

namespace clang::tidy::occlint {

class DivergenceBarrierCheck : public DivergenceCollectiveCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-divergence-barrier", CheckSeverity::Error, OnByDefault};
  using DivergenceCollectiveCheck::DivergenceCollectiveCheck;

protected:
  void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
