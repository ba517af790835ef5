#include "lint/CudaCommandAdjuster.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace occlint {

std::string clangResourceDir() { return OCCLINT_CLANG_RESOURCE_DIR; }

// Clang finds its resource directory at <prefix>/lib/clang/<N> from its
// driver at <prefix>/bin; the other way round here.
std::string clangDriverPath() {
  llvm::SmallString<256> Path(clangResourceDir());
  for (int Up = 0; Up < 3; ++Up)
    llvm::sys::path::remove_filename(Path);
  llvm::sys::path::append(Path, "bin", "clang++");
  return std::string(Path);
}

std::string builtinCudaHeadersDir(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Dir, "share", "occlint", "builtin-cuda");
  return std::string(Dir);
}

std::string nvccCompatPreludePath(const char *Argv0) {
  static int Anchor;
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Path(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Path, "share", "occlint", "nvcc-compat", "occlint_nvcc_compat.h");
  return std::string(Path);
}

std::string enableNvccCompatibility(CudaParseSettings &Settings, const char *Argv0) {
  Settings.hostCompilerIncludes = true;
  Settings.compatPrelude = nvccCompatPreludePath(Argv0);
  if (llvm::sys::fs::exists(Settings.compatPrelude))
    return "";
  std::string Warning =
      "the nvcc compatibility prelude is missing (" + Settings.compatPrelude + "); parsing without it";
  Settings.compatPrelude.clear();
  return Warning;
}

static bool hasArgWithPrefix(const std::vector<std::string> &Args, llvm::StringRef Prefix) {
  for (const std::string &Arg : Args)
    if (llvm::StringRef(Arg).starts_with(Prefix))
      return true;
  return false;
}

// Flags that choose the device archs or the side of the compile: the parse
// decides both itself. Clang spells the arch flags joined only (`--x=sm_80`).
static bool isArchOrSideFlag(llvm::StringRef Arg) {
  for (llvm::StringRef Prefix : {"--cuda-gpu-arch=", "--offload-arch=", "--no-cuda-gpu-arch=", "--no-offload-arch="})
    if (Arg.starts_with(Prefix))
      return true;
  return Arg == "--cuda-host-only" || Arg == "--cuda-device-only" || Arg == "--cuda-compile-host-device" ||
         Arg == "--offload-host-only" || Arg == "--offload-device-only" || Arg == "--offload-host-device";
}

std::vector<std::string> cudaParseCommand(const std::vector<std::string> &Args, const CudaParseSettings &Settings,
                                          const std::string &Arch, const std::string &HostIncludeDir) {
  if (Args.empty())
    return Args;
  std::vector<std::string> Out{Args.front()};
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
    Extra.insert(Extra.end(), {"-nocudainc", "-nocudalib", "-isystem" + Settings.builtinHeaders, "-include",
                               "occlint_cuda_builtin.h"});
  }
  // What nvcc's headers declare and Clang's do not, with nvcc's signatures;
  // before the command's own -include flags, as nvcc's runtime header is.
  if (!Settings.compatPrelude.empty())
    Extra.insert(Extra.end(), {"-include", Settings.compatPrelude});
  // nvcc preprocesses with the host compiler, whose own headers (omp.h...)
  // code may include; searched after every other directory, so Clang's own
  // builtin headers win.
  if (!HostIncludeDir.empty())
    Extra.insert(Extra.end(), {"-idirafter", HostIncludeDir});
  // Clang 22 knows CUDA up to 12.9 and warns about 13.x; the headers parse.
  Extra.push_back("-Wno-unknown-cuda-version");
  // One device-side parse per arch: __CUDA_ARCH__ is defined as for that arch,
  // the checks read the arch from the target, and host functions with their
  // <<<...>>> launches are in the same AST.
  Extra.push_back("--cuda-gpu-arch=" + Arch);
  Extra.push_back("--cuda-device-only");
  Out.insert(Out.end(), Extra.begin(), Extra.end());
  for (size_t I = 1; I < Args.size(); ++I)
    if (!isArchOrSideFlag(Args[I]))
      Out.push_back(Args[I]);
  return Out;
}

} // namespace occlint
