// Compiler flags that make a compiler run or load code other than itself:
// plugins (-fplugin=, -fpass-plugin=, -Xclang -load), tool search paths
// (-B), configuration files that can carry more flags (--config). A compile
// command or a .clang-tidy ExtraArgs from a checkout is data: occlint never
// passes these on, to Clang in-process or to a compiler it runs
// (docs/security.md).
#pragma once

#include <string>
#include <vector>

namespace occlint {

/// Removes the unsafe flags (with their separate values) from a Clang
/// command line (argv[0] included or not: it is never a flag) and returns
/// them as written, one entry per flag ("-Xclang -load -Xclang x.so").
std::vector<std::string> dropUnsafeClangFlags(std::vector<std::string> &args);

} // namespace occlint
