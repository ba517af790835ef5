// Fuzz target: reading a compile database as occlint does. The input, split
// at NUL bytes:
//   1. compile_commands.json, read by Clang's JSON database
//      (loadProjectDatabase, as `occlint -p`), then every command through
//      CudaCompilationDatabase (nvcc translation, one command per arch), the
//      CUDA translation units and the language server's lookup;
//   2.-3. the contents of a.cu and b.cu next to it (the #include scan of the
//      translation units reads them).
#include "FuzzSupport.h"
#include "lint/CudaCompilationDatabase.h"
#include "lint/LintPipeline.h"
#include "lint/ProjectDatabase.h"
#include "lsp/LspCompileCommands.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <filesystem>

namespace {

const std::string &databaseDirectory() {
  static const std::string Dir = [] {
    std::string D = occlint::fuzz::scratchDir() + "/db";
    std::filesystem::create_directories(D);
    return D;
  }();
  return Dir;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  const std::vector<std::string> Parts = fuzz::splitParts(fuzz::asText(Data, Size), 3);
  const std::string &Dir = databaseDirectory();
  fuzz::writeFile(Dir + "/compile_commands.json", Parts[0]);
  fuzz::writeFile(Dir + "/a.cu", Parts.size() > 1 ? Parts[1] : "");
  fuzz::writeFile(Dir + "/b.cu", Parts.size() > 2 ? Parts[2] : "");

  std::string Error;
  std::unique_ptr<clang::tooling::CompilationDatabase> Database = loadProjectDatabase(Dir, Error);
  if (Database) {
    CudaParseSettings Settings;
    Settings.builtinHeaders = Dir + "/builtin-cuda";
    for (int Named = 0; Named < 2; ++Named) {
      std::string Output;
      llvm::raw_string_ostream Verbose(Output);
      CudaCompilationDatabase Cuda(
          *Database, Settings,
          [Named](llvm::StringRef) { return Named ? NamedArchs{{"sm_80", "sm_90a"}, "--gpu"} : NamedArchs{}; },
          &Verbose);
      Cuda.getAllCompileCommands();
      for (const std::string &File : Cuda.getAllFiles())
        Cuda.getCompileCommands(File);
      Cuda.getCompileCommands(Dir + "/a.cu");
    }
    std::vector<std::string> Included;
    std::string Log;
    llvm::raw_string_ostream Verbose(Log);
    cudaTranslationUnits(*Database, Included, &Verbose);
  }
  lsp::compileCommandsFor(Dir + "/a.cu", Dir);
  return 0;
}
