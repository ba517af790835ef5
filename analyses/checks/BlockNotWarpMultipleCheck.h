// cuda-launch-block-not-warp-multiple: a launch whose block size (x*y*z) is
// not a multiple of the warp size. The last warp of every block runs with
// masked lanes that still take a warp slot. docs/checks/cuda-launch-block-not-warp-multiple.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class BlockNotWarpMultipleCheck : public OcclintCheck {
public:
  static FindingLoss launchLoss(const LaunchRecord &L);
  static constexpr CheckDeclaration Declaration{"cuda-launch-block-not-warp-multiple", CheckSeverity::Warning,
                                                OnByDefault, LaunchFindingRow::Launch, &launchLoss};
  using OcclintCheck::OcclintCheck;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  void noteResize(const LaunchSite &Site, const IntegerLiteral &Literal, uint64_t Threads, uint64_t Lanes,
                  const TranslationUnitFacts &Facts, ASTContext &Ctx, SourceLocation Loc);
};

} // namespace clang::tidy::occlint
