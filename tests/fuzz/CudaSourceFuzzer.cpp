// Fuzz target: the whole check set on one CUDA source, in process, as
// `occlint --no-compile kernel.cu -- -x cuda` runs it (runLint): source-only
// mode with the built-in CUDA headers (no toolkit is found: CUDA_PATH
// names an empty directory), no process started, every cuda-* check (the
// per-launch remark too), for the default arch and with
// `--gpu H100 --gpu A100` (two parses). Seeded from test-inputs/**/*.cu, with
// tests/fuzz/cuda.dict. Run it with -rss_limit_mb=4096.
#include "FuzzSupport.h"
#include "lint/LintPipeline.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <filesystem>

namespace {

std::string Argv0 = "fuzz-cuda-source";

const std::string &sourceDirectory() {
  static const std::string Dir = [] {
    std::string D = occlint::fuzz::scratchDir() + "/src";
    std::filesystem::create_directories(D);
    return D;
  }();
  return Dir;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  if (*Argc > 0)
    Argv0 = (*Argv)[0];
  occlint::fuzz::useNoCudaToolkit();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  const std::string &Dir = sourceDirectory();
  const std::string File = Dir + "/kernel.cu";
  fuzz::writeFile(File, fuzz::asText(Data, Size));
  LintSettings Settings;
  Settings.noCompile = true;
  Settings.startProcesses = false;
  Settings.quiet = true;
  Settings.checks = "-*,cuda-*";
  // Odd sizes take the second configuration: two GPUs, so two parses.
  if (Size % 2)
    Settings.gpus = {"H100", "A100"};
  clang::tooling::FixedCompilationDatabase Database(Dir, {"-x", "cuda", "-I" + Dir});
  std::string Log;
  llvm::raw_string_ostream LogStream(Log);
  LintResult Result = runLint(Settings, Database, {File}, Argv0.c_str(), LogStream);
  Result.exitCode();
  if (std::getenv("OCCLINT_FUZZ_DEBUG"))
    llvm::errs() << "setup " << Result.setupExitCode << " " << Result.error << "; " << Result.diagnostics.size()
                 << " diagnostics, " << Result.fileCount << " files\n"
                 << Log;
  return 0;
}
