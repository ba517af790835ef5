// `occlint compdb -p BUILD -o DIR`: writes DIR/compile_commands.json, the
// nvcc database of BUILD translated for Clang exactly as the lint command
// parses it (CudaCompilationDatabase: the nvcc translation, then one command
// per arch with occlint's flags), so that clang-tidy-22 --load, run-clang-tidy
// and clangd read an nvcc-built project as occlint does (docs/editors.md).
// It runs no program: the database is data (docs/security.md).
#include "Commands.h"

#include "ArgParser.h"
#include "ExitCodes.h"
#include "lint/CudaCompilationDatabase.h"
#include "lint/LintPipeline.h"
#include "lint/ProjectDatabase.h"
#include "lint/TargetsOption.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/UnsafeFlags.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace occlint {

namespace {

const char CompdbHelp[] = R"(Usage: occlint compdb -p BUILD -o DIR [options]

Writes DIR/compile_commands.json: the compile database of BUILD (commands for
nvcc, as CMake or Make wrote them) translated for Clang 22 as occlint parses
it: one entry per CUDA file and target arch, each a clang++ command with the
flags of occlint's own parse. Other entries are copied. Then
  clang-tidy-22 --load=<occlint>/lib/libOcclintTidyModule.so -p DIR ...
and clangd-22 (--compile-commands-dir=DIR) read the project as occlint does.
No program is run.

  -p BUILD            the build directory with compile_commands.json
  -o DIR              where to write compile_commands.json (created if missing)
  --gpu GPU           parse for this GPU's arch instead of the command's
                      (H100, sm_90; repeatable)
  --cuda-path DIR     CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda);
                      without one the entries use occlint's built-in headers
  --quiet             print no summary

Exit codes: 0 written, 2 bad command line or input (nothing written).
)";

// The JSON of one command, as compile_commands.json spells it.
nlohmann::ordered_json entryJson(const clang::tooling::CompileCommand &Command) {
  nlohmann::ordered_json Entry = {
      {"directory", Command.Directory}, {"file", Command.Filename}, {"arguments", Command.CommandLine}};
  if (!Command.Output.empty())
    Entry["output"] = Command.Output;
  return Entry;
}

// Writes Path whole or not at all: a temporary file in the same directory,
// renamed over it. "" or the error, naming the file.
std::string writeWhole(const std::string &Path, const std::string &Text) {
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  llvm::SmallString<256> Temporary;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temporary))
    return "cannot write " + Path + ": " + EC.message();
  std::string Error;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Error = "cannot write " + Path + ": " + OS.error().message();
      OS.clear_error();
    }
  }
  if (Error.empty())
    if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path))
      Error = "cannot write " + Path + ": " + EC.message();
  if (!Error.empty())
    llvm::sys::fs::remove(Temporary);
  return Error;
}

int inputError(const std::string &Message) {
  llvm::errs() << "occlint compdb: error: " << Message << "\n";
  return ExitUsageOrInput;
}

} // namespace

int runCompdbCommand(int Argc, const char **Argv) {
  ArgParser Args("compdb", {"p", "o", "gpu", "cuda-path"}, {"quiet", "help"});
  Args.parse(Argc, Argv);
  if (Args.has("help")) {
    std::cout << CompdbHelp;
    return ExitOk;
  }
  if (!Args.positional().empty())
    Args.fail("unexpected argument '" + Args.positional().front() + "' (see --help)");
  const std::optional<std::string> Build = Args.value("p"), OutDir = Args.value("o");
  if (!Build)
    Args.fail("-p BUILD is required (the build directory with compile_commands.json)");
  if (!OutDir || OutDir->empty())
    Args.fail("-o DIR is required (where to write compile_commands.json)");
  std::string Error;
  const std::vector<std::string> GpuArchs = archsOfGpus(Args.values("gpu"), Error);
  if (!Error.empty())
    Args.fail("--gpu: " + Error);
  CudaParseSettings Parse;
  const std::string CudaPath = Args.value("cuda-path").value_or("");
  Parse.cudaPath = findCudaToolkit(CudaPath);
  if (!Parse.cudaPath && !CudaPath.empty())
    Args.fail("--cuda-path: no CUDA toolkit at '" + CudaPath + "' (no bin/ptxas there)");
  // main hands us argv from "compdb" on; the executable is found through
  // /proc/self/exe all the same.
  Parse.builtinHeaders = builtinCudaHeadersDir(Argv[0]);
  // The same compatibility layer as occlint's own parses (docs/nvcc-parity.md).
  if (std::string Warning = enableNvccCompatibility(Parse, Argv[0]); !Warning.empty())
    llvm::errs() << "occlint compdb: warning: " << Warning << "\n";

  std::unique_ptr<clang::tooling::CompilationDatabase> Database = loadProjectDatabase(*Build, Error);
  if (!Database)
    return inputError(Error);

  llvm::SmallString<256> Target(*OutDir);
  llvm::sys::fs::make_absolute(Target);
  if (std::error_code EC = llvm::sys::fs::create_directories(Target))
    return inputError("-o: cannot create " + *OutDir + ": " + EC.message());
  llvm::sys::path::append(Target, "compile_commands.json");
  llvm::SmallString<256> Source(*Build);
  llvm::sys::path::append(Source, "compile_commands.json");
  if (llvm::sys::fs::equivalent(Source, Target))
    return inputError("-o: " + std::string(Target) + " is the database being read; write to another directory");

  const NamedArchs Named{GpuArchs, "--gpu"};
  CudaCompilationDatabase Compilations(*Database, Parse, [&Named](llvm::StringRef) { return Named; });
  nlohmann::ordered_json Entries = nlohmann::ordered_json::array();
  size_t CudaFiles = 0;
  for (const clang::tooling::CompileCommand &Command : Database->getAllCompileCommands()) {
    if (!isCudaCommand(Command)) {
      // A host file's command, for clangd; what would load code into a
      // Clang that reads it goes, as in occlint's own parse.
      clang::tooling::CompileCommand Copy = Command;
      dropUnsafeClangFlags(Copy.CommandLine);
      Entries.push_back(entryJson(Copy));
      continue;
    }
    ++CudaFiles;
    for (clang::tooling::CompileCommand &PerArch : Compilations.perArchCommands(Command, /*Report=*/true)) {
      // The Clang whose resource directory the command names (its CUDA
      // wrapper headers must match), by absolute path.
      if (!PerArch.CommandLine.empty())
        PerArch.CommandLine.front() = clangDriverPath();
      Entries.push_back(entryJson(PerArch));
    }
  }
  if (std::string WriteError = writeWhole(
          std::string(Target), Entries.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n");
      !WriteError.empty())
    return inputError("-o: " + WriteError);
  if (!Args.has("quiet"))
    llvm::errs() << "occlint compdb: wrote " << Entries.size() << (Entries.size() == 1 ? " entry" : " entries") << " ("
                 << CudaFiles << " CUDA " << (CudaFiles == 1 ? "command" : "commands") << ") to " << Target << "\n";
  return ExitOk;
}

} // namespace occlint
