#include "checks/LaunchFindingPrecedence.h"

#include "checks/CheckRegistry.h"
#include "checks/LaunchConfigErrors.h"

#include "llvm/Support/FormatVariadic.h"

namespace clang::tidy::occlint {

LaunchFindingPrecedence::LaunchFindingPrecedence(const TranslationUnitFacts &Facts,
                                                 llvm::function_ref<bool(StringRef)> IsEnabled)
    : InvalidConfig(checkWinningRow(LaunchFindingRow::CannotStart)),
      TinyGrid(checkWinningRow(LaunchFindingRow::SmallGrid)), InvalidConfigOn(IsEnabled(InvalidConfig)),
      TinyGridOn(IsEnabled(TinyGrid)) {
  // Row 1 applies to the launch checks whether cuda-launch-invalid-config is
  // enabled or not: a launch that cannot start has nothing else worth saying.
  for (const LaunchSite &Site : Facts.launches)
    ShapeErrors[&Site] = !launchShapeErrors(Site, Facts.kernelFor(Site.kernel)).empty();
  for (const LaunchOnTarget &L : Facts.launchesOnTargets)
    Targets[L.site].push_back(&L);
}

bool LaunchFindingPrecedence::gridBelowSMCount(const LaunchOnTarget &L) {
  const EvaluatedValue Grid = L.site->grid.product();
  return Grid.max && *Grid.max > 0 && *Grid.max < L.gpu->smCount;
}

// Exactly what cuda-launch-invalid-config reports on this launch and target.
bool LaunchFindingPrecedence::invalid(const LaunchOnTarget &L) const {
  auto Shape = ShapeErrors.find(L.site);
  return (Shape != ShapeErrors.end() && Shape->second) || targetError(L) != TargetError::None;
}

static std::string gpuLabel(const ::occlint::TargetGpu &Gpu) {
  return llvm::formatv("{0} ({1}, {2} SMs)", Gpu.productName, Gpu.arch.name, Gpu.smCount).str();
}

// The row of a check the registry does not know (none: every check is in
// it) is None: in no row.
static LaunchFindingRow rowOf(StringRef Check) {
  const CheckDeclaration *Declaration = findCheckDeclaration(Check);
  return Declaration ? Declaration->row : LaunchFindingRow::None;
}

MootVerdict LaunchFindingPrecedence::mootOnTarget(StringRef Check, const LaunchOnTarget &L) const {
  using Row = LaunchFindingRow;
  const Row CheckRow = rowOf(Check);
  const bool LosesToInvalid =
      CheckRow == Row::SmallGrid || CheckRow == Row::Launch || CheckRow == Row::PerSM || CheckRow == Row::Remark;
  // The occupancy remark of a launch that cannot start says so ("cannot
  // launch: ..."): the same root cause, moot only while invalid-config's error
  // says it.
  const bool Moot = CheckRow != Row::Remark || InvalidConfigOn;
  if (LosesToInvalid && Moot && invalid(L))
    return {InvalidConfig.str(), "the launch cannot start on " + gpuLabel(*L.gpu)};
  // Each SM holds at most one block: what limits the blocks per SM, and how
  // whole the last wave of blocks is, cannot matter.
  if (TinyGridOn && CheckRow == Row::PerSM && gridBelowSMCount(L)) {
    const EvaluatedValue Grid = L.site->grid.product();
    return {TinyGrid.str(),
            llvm::formatv("the grid of {0}{1} block{2} is smaller than the SM count of {3}: each SM "
                          "holds at most one block",
                          Grid.isExact() ? "" : "at most ", *Grid.max, *Grid.max == 1 ? "" : "s", gpuLabel(*L.gpu))
                .str()};
  }
  return {};
}

MootVerdict LaunchFindingPrecedence::mootAtSite(StringRef Check, const LaunchSite &Site) const {
  if (auto Shape = ShapeErrors.find(&Site); Shape != ShapeErrors.end() && Shape->second)
    return {InvalidConfig.str(), "the launch cannot start"};
  for (const LaunchOnTarget *L : targetsOf(Site))
    if (MootVerdict V = mootOnTarget(Check, *L); V.by == InvalidConfig)
      return V;
  return {};
}

const std::vector<const LaunchOnTarget *> &LaunchFindingPrecedence::targetsOf(const LaunchSite &Site) const {
  static const std::vector<const LaunchOnTarget *> None;
  auto Found = Targets.find(&Site);
  return Found == Targets.end() ? None : Found->second;
}

bool LaunchFindingPrecedence::atMostOneBlockPerSM(const LaunchSite &Site) const {
  const std::vector<const LaunchOnTarget *> &Launches = targetsOf(Site);
  if (!TinyGridOn || Launches.empty())
    return false;
  for (const LaunchOnTarget *L : Launches)
    if (!gridBelowSMCount(*L))
      return false;
  return true;
}

} // namespace clang::tidy::occlint
