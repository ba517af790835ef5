// cuda-divergence-warp-sync-mask: a warp intrinsic with the full mask
// (__shfl*_sync, __ballot/__any/__all_sync, __syncwarp, __match*_sync,
// __reduce*_sync with 0xffffffff), or a tile's collective, in code that only
// some lanes of the warp (tile) reach. docs/checks/cuda-divergence-warp-sync-mask.md
#pragma once

#include "checks/DivergenceCheck.h"

namespace clang::tidy::occlint {

class DivergenceWarpSyncMaskCheck : public DivergenceCollectiveCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-divergence-warp-sync-mask", CheckSeverity::Error, OnByDefault};
  using DivergenceCollectiveCheck::DivergenceCollectiveCheck;

protected:
  void checkDivergence(const DivergenceResults &R, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
