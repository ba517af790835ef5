#include "CudaCommandAdjuster.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace occlint {

std::string clangResourceDir() { return OCCLINT_CLANG_RESOURCE_DIR; }

std::string builtinCudaHeadersDir(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "share", "occlint", "builtin-cuda");
  return std::string(Dir);
}

static bool hasArgWithPrefix(const clang::tooling::CommandLineArguments &Args,
                             llvm::StringRef Prefix) {
  for (const std::string &Arg : Args)
    if (llvm::StringRef(Arg).starts_with(Prefix))
      return true;
  return false;
}

clang::tooling::ArgumentsAdjuster makeCudaArgumentsAdjuster(CudaParseSettings Settings) {
  return [Settings](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    if (Args.empty())
      return Args;
    clang::tooling::CommandLineArguments Out(Args.begin(), Args.end());
    std::vector<std::string> Extra;
    // Our binary does not sit next to Clang's headers; point at them.
    if (!hasArgWithPrefix(Args, "-resource-dir"))
      Extra.push_back("-resource-dir=" + clangResourceDir());
    if (Settings.cudaPath) {
      if (!hasArgWithPrefix(Args, "--cuda-path"))
        Extra.push_back("--cuda-path=" + *Settings.cudaPath);
      // CUDA 13 keeps libcu++ (cuda/std/...) in include/cccl, which nvcc adds
      // by itself and Clang does not; cooperative_groups.h needs it.
      if (llvm::sys::fs::is_directory(*Settings.cudaPath + "/include/cccl"))
        Extra.push_back("-isystem" + *Settings.cudaPath + "/include/cccl");
    } else {
      // Source-only mode: our declarations instead of the toolkit's headers.
      Extra.insert(Extra.end(), {"-nocudainc", "-nocudalib", "-isystem" + Settings.builtinHeaders,
                                 "-include", "occlint_cuda_builtin.h"});
    }
    // Clang 22 knows CUDA up to 12.9 and warns about 13.x; the headers parse.
    Extra.push_back("-Wno-unknown-cuda-version");
    if (!hasArgWithPrefix(Args, "--cuda-gpu-arch") && !hasArgWithPrefix(Args, "--offload-arch"))
      Extra.push_back("--cuda-gpu-arch=" + Settings.defaultArch);
    // One device-side parse: __CUDA_ARCH__ is defined as for that arch, and
    // host functions with their <<<...>>> launches are in the same AST.
    if (!hasArgWithPrefix(Args, "--cuda-host-only") && !hasArgWithPrefix(Args, "--cuda-device-only"))
      Extra.push_back("--cuda-device-only");
    Out.insert(Out.begin() + 1, Extra.begin(), Extra.end());
    return Out;
  };
}

} // namespace occlint
