// Where the checks get ptxas resource reports (registers, shared memory,
// spills, barriers per kernel and arch) for the translation unit they analyse.
//
// The occlint binary installs a source that runs the device compile of the
// file with its own compile command (cached, analyses/toolchain/ResourceCompiler)
// and merges the --ptxas-log files. Inside clang-tidy --load nothing is
// installed: the checks read the log files named by the global check option
// `PtxasLog` (';'- or ','-separated), and without either they fall back to
// estimates from the AST and say so.
#pragma once

#include "gpu/PtxasReport.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang::tidy::occlint {

struct ResourceReportLookup {
  /// The report for the translation unit and arch; nullptr when there is none.
  const ::occlint::PtxasReport *report = nullptr;
  /// "ptxas, sm_90" style provenance of the report, or why there is none
  /// ("no CUDA toolkit", "nvcc failed: ..."). Shown in notes.
  std::string source;
  /// -maxrregcount of the compile command (nvcc -maxrregcount=N, -Xptxas
  /// --maxrregcount=N, clang -Xcuda-ptxas -maxrregcount=N), when it has one:
  /// the spills check names it as the cause of spilling.
  std::optional<int> maxRegisterCount;
  /// Where the compile that made the report ran, when not in occlint: "from
  /// the build" (occlint-wrap's sidecar). Each kernel's provenance says it
  /// after "ptxas, sm_90".
  std::string origin;
};

class ResourceReportSource {
public:
  virtual ~ResourceReportSource() = default;
  /// The report for the translation unit whose main file is `MainFile`,
  /// compiled for `Arch` ("sm_90"). Called once per translation unit and arch
  /// (the facts are computed once and shared by all checks); implementations
  /// memoize anyway. Must not throw.
  virtual ResourceReportLookup reportFor(llvm::StringRef MainFile, llvm::StringRef Arch) = 0;
};

} // namespace clang::tidy::occlint
