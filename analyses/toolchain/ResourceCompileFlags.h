// Which flags of the user's compile command a resource compile keeps
// (toolchain/ResourceCompiler.h): include paths, defines, the language and
// the flags that change the code, with paths made absolute (the compile runs
// in a temporary folder); nothing that runs or loads other code
// (docs/security.md).
#pragma once

#include <string>
#include <vector>

namespace occlint::compileflags {

struct Filtered {
  std::vector<std::string> flags;      // carried over to the device compile
  std::vector<std::string> ptxasExtra; // clang -Xcuda-ptxas values
  bool hasCudaPath = false;
  std::string hostCompiler;        // nvcc's -ccbin/--compiler-bindir value, as written
  std::vector<std::string> unsafe; // flags dropped because they would run or load other code
};

/// nvcc's command: the flags kept for `nvcc -cubin -Xptxas -v`.
Filtered filterNvcc(const std::vector<std::string> &cmd, const std::string &dir);
/// clang's command (CUDA): the flags kept for a device-only compile.
Filtered filterClang(const std::vector<std::string> &command, const std::string &dir);
/// `p` made absolute against `dir` (the command's directory).
std::string absolutePath(const std::string &p, const std::string &dir);

} // namespace occlint::compileflags
