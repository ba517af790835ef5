#include "checks/CheckRegistry.h"

#include "checks/BlockCapCheck.h"
#include "checks/BlockNotWarpMultipleCheck.h"
#include "checks/DivergenceBarrierCheck.h"
#include "checks/DivergenceBranchCheck.h"
#include "checks/DivergenceWarpSyncMaskCheck.h"
#include "checks/InvalidConfigCheck.h"
#include "checks/OccupancyReportCheck.h"
#include "checks/PipelineBufferReuseCheck.h"
#include "checks/PipelineDepthCheck.h"
#include "checks/PipelineEarlyReadCheck.h"
#include "checks/RegisterCliffCheck.h"
#include "checks/SpillsCheck.h"
#include "checks/TailWaveCheck.h"
#include "checks/TinyGridCheck.h"

#include <vector>

namespace clang::tidy::occlint {

namespace {

struct RegisteredCheck {
  const CheckDeclaration &declaration;
  void (*add)(ClangTidyCheckFactories &, llvm::StringRef);
};

template <typename CheckT> RegisteredCheck entry() {
  return {CheckT::Declaration,
          [](ClangTidyCheckFactories &Factories, llvm::StringRef Name) { Factories.registerCheck<CheckT>(Name); }};
}

// The one list of checks, in the order of the index table of
// docs/checks/README.md: launch, occupancy, divergence, then the kernel and
// pipeline checks (scripts/add_new_check.py appends a line here).
const std::vector<RegisteredCheck> &registeredChecks() {
  static const std::vector<RegisteredCheck> Checks = {
      entry<BlockNotWarpMultipleCheck>(),
      entry<InvalidConfigCheck>(),
      entry<TailWaveCheck>(),
      entry<TinyGridCheck>(),
      entry<BlockCapCheck>(),
      entry<RegisterCliffCheck>(),
      entry<PipelineDepthCheck>(),
      entry<OccupancyReportCheck>(),
      entry<DivergenceBarrierCheck>(),
      entry<DivergenceBranchCheck>(),
      entry<DivergenceDataBranchCheck>(),
      entry<DivergenceWarpSyncMaskCheck>(),
      entry<SpillsCheck>(),
      entry<PipelineEarlyReadCheck>(),
      entry<PipelineBufferReuseCheck>(),
      // add_new_check.py: new checks above this line
  };
  return Checks;
}

} // namespace

const char *severityName(CheckSeverity Severity) {
  switch (Severity) {
  case CheckSeverity::Error:
    return "error";
  case CheckSeverity::Warning:
    return "warning";
  case CheckSeverity::Remark:
    return "remark";
  }
  return "warning";
}

llvm::ArrayRef<CheckDeclaration> checkDeclarations() {
  static const std::vector<CheckDeclaration> Declarations = [] {
    std::vector<CheckDeclaration> All;
    for (const RegisteredCheck &Check : registeredChecks())
      All.push_back(Check.declaration);
    return All;
  }();
  return Declarations;
}

const CheckDeclaration *findCheckDeclaration(llvm::StringRef Name) {
  for (const CheckDeclaration &Declaration : checkDeclarations())
    if (Declaration.name == Name)
      return &Declaration;
  return nullptr;
}

llvm::StringRef checkWinningRow(LaunchFindingRow Row) {
  for (const CheckDeclaration &Declaration : checkDeclarations())
    if (Declaration.row == Row)
      return Declaration.name;
  return {};
}

std::string defaultChecksGlob() {
  std::string Glob = "-*,cuda-*";
  for (const CheckDeclaration &Declaration : checkDeclarations())
    if (!Declaration.onByDefault)
      Glob += ",-" + Declaration.name.str();
  return Glob;
}

void registerOcclintChecks(ClangTidyCheckFactories &Factories) {
  for (const RegisteredCheck &Check : registeredChecks())
    Check.add(Factories, Check.declaration.name);
}

} // namespace clang::tidy::occlint
