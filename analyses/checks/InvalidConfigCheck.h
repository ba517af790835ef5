// cuda-launch-invalid-config: a launch that cannot start (too many threads, registers or shared memory per block, a
// zero or oversized dimension, dynamic shared memory over 48 KB without the opt-in, a cooperative grid that cannot be
// co-resident). docs/checks/cuda-launch-invalid-config.md
#pragma once

#include "checks/OcclintCheck.h"

#include <map>

namespace clang::tidy::occlint {

class InvalidConfigCheck : public OcclintCheck {
public:
  static FindingLoss launchLoss(const LaunchRecord &L);
  static constexpr CheckDeclaration Declaration{"cuda-launch-invalid-config", CheckSeverity::Error, OnByDefault,
                                                LaunchFindingRow::CannotStart, &launchLoss};
  InvalidConfigCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;

private:
  bool reportShapeErrors(const LaunchSite &Site, const KernelInfo *Kernel);
  std::map<const LaunchSite *, bool> ShapeErrors;
};

} // namespace clang::tidy::occlint
