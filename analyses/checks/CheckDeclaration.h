// What occlint knows of a check besides its code, declared once, in the
// check's own header (`static constexpr CheckDeclaration Declaration{...}`):
// its name, its documented severity, whether occlint runs it by default, its
// row in the precedence table of launch findings and, for a launch finding,
// how it estimates its loss (the report's ranking). CheckRegistry.cpp lists
// every check; the module registers them from that list, and the tool reads it
// for the default check set and the SARIF/JSON rules' severities. Its doc page
// is docs/checks/<name>.md (tests/checks/CheckRegistryTest.cpp holds the
// index tables in docs/checks/README.md and README.md against the list).
#pragma once

#include "checks/FindingLoss.h"

#include "llvm/ADT/StringRef.h"

namespace clang::tidy::occlint {

/// The severity a check's findings have by default (a check may lower one
/// finding, e.g. an error to a warning where only a bound decides it).
enum class CheckSeverity { Error, Warning, Remark };

/// A check's row in the precedence table (LaunchFindingPrecedence.h): which
/// other findings make one of its findings moot.
enum class LaunchFindingRow {
  None,        // not in the table: a finding about a kernel or its code
  CannotStart, // row 1's winner: the launch cannot start
  SmallGrid,   // row 2's winner (fewer blocks than SMs); moot under row 1
  Launch,      // moot under row 1
  PerSM,       // moot under rows 1 and 2: what limits the blocks on one SM
  Remark,      // moot under row 1 while row 1's check is enabled
};

struct CheckDeclaration {
  llvm::StringLiteral name; // "cuda-launch-tiny-grid"
  CheckSeverity severity;
  bool onByDefault; // in occlint's default check set (clang-tidy has no such notion)
  LaunchFindingRow row = LaunchFindingRow::None;
  LaunchLossEstimate launchLoss = nullptr; // null: no estimate (the report ranks it last)
};

inline constexpr bool OnByDefault = true;
inline constexpr bool OffByDefault = false;

const char *severityName(CheckSeverity Severity); // "error", "warning", "remark"

} // namespace clang::tidy::occlint
