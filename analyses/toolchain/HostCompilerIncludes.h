// The host compiler's own builtin include directory (GCC's
// lib/gcc/<triple>/<version>/include: omp.h, the x86 intrinsic headers...),
// which nvcc's preprocessing sees and Clang's does not. occlint's parse adds
// it with -idirafter, after Clang's own headers (docs/nvcc-parity.md).
#pragma once

#include <string>
#include <vector>

namespace occlint {

/// The -ccbin/--compiler-bindir value written in an nvcc command ("" when none).
std::string writtenHostCompiler(const std::vector<std::string> &CommandLine);

/// `<host compiler> -print-file-name=include` for the host compiler nvcc would
/// run (resolveHostCompiler: the command's -ccbin when the allowlist allows it,
/// else /usr/bin/g++), when that is an existing directory; "" otherwise (no
/// allowed compiler, it failed, or it printed no directory). Runs each
/// compiler at most once per process (memoized by its realpath; thread-safe).
std::string hostCompilerIncludeDir(const std::string &WrittenHostCompiler, const std::string &Directory);

} // namespace occlint
