// Makes a compile command from a compilation database (or from `-- flags`)
// usable by the Clang inside occlint for CUDA: the resource directory of the
// Clang we link, the CUDA toolkit, and one device-side parse for one arch.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct CudaParseSettings {
  std::optional<std::string> cudaPath; // the toolkit; none: source-only mode
  std::string builtinHeaders;          // source-only mode: tool/builtin-cuda as installed
  std::string defaultArch = "sm_90";   // when neither --gpu/Targets nor the command name an arch
  /// The nvcc compatibility prelude (tool/nvcc-compat, as installed),
  /// force-included in every parse; empty: none (docs/nvcc-parity.md).
  std::string compatPrelude;
  /// Add the host compiler's builtin include directory (-idirafter), found
  /// through an allowed host compiler (toolchain/HostCompilerIncludes.h).
  bool hostCompilerIncludes = false;
};

/// The Clang resource directory (builtin headers, CUDA wrapper headers).
std::string clangResourceDir();

/// The clang++ of the Clang occlint links (whose resource directory that is),
/// as an absolute path: the compiler of the commands `occlint compdb` writes.
std::string clangDriverPath();

/// The built-in minimal CUDA headers (tool/builtin-cuda), copied next to the
/// binary at build and install time: <bin>/../share/occlint/builtin-cuda.
std::string builtinCudaHeadersDir(const char *Argv0);

/// The nvcc compatibility prelude next to the binary, at build and install
/// time: <bin>/../share/occlint/nvcc-compat/occlint_nvcc_compat.h.
std::string nvccCompatPreludePath(const char *Argv0);

/// Turns the nvcc compatibility layer on in `Settings` (the prelude next to
/// the binary, the host compiler's include directory). Returns "" or a
/// one-line warning when the prelude is missing (then parses go without it).
std::string enableNvccCompatibility(CudaParseSettings &Settings, const char *Argv0);

/// The Clang command for the device-side parse of `Args` (a Clang command:
/// argv[0], flags, input) for exactly one `Arch`: every other
/// --cuda-gpu-arch/--offload-arch and host/device-only flag is removed, then
/// `--cuda-gpu-arch=<Arch> --cuda-device-only`, the toolkit (or source-only)
/// flags and the nvcc compatibility flags (the prelude, and `-idirafter
/// HostIncludeDir` when not empty) are inserted after argv[0].
std::vector<std::string> cudaParseCommand(const std::vector<std::string> &Args, const CudaParseSettings &Settings,
                                          const std::string &Arch, const std::string &HostIncludeDir = "");

} // namespace occlint
