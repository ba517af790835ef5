// Which GPUs a translation unit is analysed for. Each parse is for one arch
// (the device-side target of the compile command: --cuda-gpu-arch=sm_90); the
// GPUs are those of the global `Targets` check option whose arch is that arch,
// or, when `Targets` is empty, the arch's default product from the GPU
// database (data/gpus.json).
#pragma once

#include "gpu/GpuDatabase.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// "sm_90" for a device-side parse for sm_90 (also "sm_90a"); the device arch
/// of the auxiliary target in a host-side parse; "" when there is none. The
/// arch of this thread's ParseContext instead when it names one: occlint
/// runs the checks again on one parse for each other arch of the compile
/// command when nothing in the project's own files depends on the arch
/// (tool/lint/CheckParse.h), so the parse would be the same for each.
std::string deviceArchOf(const ASTContext &Ctx);

struct TargetSelection {
  std::vector<::occlint::TargetGpu> gpus; // may be empty: nothing to analyse on this pass
  std::string error;                      // an unknown name in Targets (one line)
};

/// "a, b;c" -> {"a", "b", "c"}: the list syntax of the Targets and PtxasLog
/// options (commas or semicolons, blanks trimmed, empty items dropped).
std::vector<llvm::StringRef> splitOptionList(llvm::StringRef List);

/// Targets: comma- or semicolon-separated --gpu style names ("H100, A100",
/// "sm_90:132"). Arch "sm_90a" matches GPUs of sm_90.
TargetSelection selectTargets(llvm::StringRef Targets, llvm::StringRef Arch);

} // namespace clang::tidy::occlint
