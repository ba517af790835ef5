// Makes a compile command from a compilation database (or from `-- flags`)
// usable by the Clang inside occlint for CUDA: the resource directory of the
// Clang we link, the CUDA toolkit, the target arch, and device-side parsing.
#pragma once

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <optional>
#include <string>

namespace occlint {

struct CudaParseSettings {
  std::optional<std::string> cudaPath; // the toolkit; none: source-only mode
  std::string builtinHeaders;          // source-only mode: tool/builtin-cuda as installed
  std::string defaultArch = "sm_90";   // when the command names no arch
};

/// The Clang resource directory (builtin headers, CUDA wrapper headers).
std::string clangResourceDir();

/// The built-in minimal CUDA headers (tool/builtin-cuda), copied next to the
/// binary at build and install time: <bin>/../share/occlint/builtin-cuda.
std::string builtinCudaHeadersDir(const char *Argv0);

clang::tooling::ArgumentsAdjuster makeCudaArgumentsAdjuster(CudaParseSettings Settings);

} // namespace occlint
