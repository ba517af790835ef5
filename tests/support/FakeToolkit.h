// A CUDA toolkit for tests whose nvcc is a shell script (one that hangs, one
// that fails): bin/nvcc answers --version as nvcc does and runs `CompileBody`
// for anything else; bin/ptxas answers --version; everything else (headers,
// libdevice) links to the real toolkit, so that Clang parses as usual.
#pragma once

#include "TestFiles.h"

#include <filesystem>
#include <string>

namespace occlint::testing {

/// Writes the toolkit under Dir/cuda and returns its path.
inline std::string writeFakeToolkit(const ScratchDir &Dir, const std::string &CompileBody) {
  namespace fs = std::filesystem;
  Dir.write("cuda/bin/nvcc",
            "#!/bin/sh\n"
            "if [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0'; exit 0; fi\n" +
                CompileBody);
  Dir.write("cuda/bin/ptxas", "#!/bin/sh\necho 'ptxas: NVIDIA (R) Ptx optimizing assembler'\n");
  fs::permissions(Dir.path() / "cuda/bin/nvcc", fs::perms::owner_all);
  fs::permissions(Dir.path() / "cuda/bin/ptxas", fs::perms::owner_all);
  for (const fs::directory_entry &E : fs::directory_iterator(OCCLINT_CUDA_PATH))
    if (E.path().filename() != "bin")
      fs::create_directory_symlink(E.path(), Dir.path() / "cuda" / E.path().filename());
  return (Dir.path() / "cuda").string();
}

} // namespace occlint::testing
