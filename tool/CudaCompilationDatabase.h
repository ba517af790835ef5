// Wraps the user's compilation database (compile_commands.json, or `-- flags`)
// so that every command reaching Clang is a Clang CUDA command: nvcc commands
// are translated (CompileCommandTranslator), then the CUDA parse settings are
// applied (CudaCommandAdjuster).
#pragma once

#include "CudaCommandAdjuster.h"

#include "clang/Tooling/CompilationDatabase.h"

namespace occlint {

class CudaCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  CudaCompilationDatabase(const clang::tooling::CompilationDatabase &Inner, CudaParseSettings Settings);

  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef File) const override;
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override;

private:
  clang::tooling::CompileCommand adjust(clang::tooling::CompileCommand Command) const;

  const clang::tooling::CompilationDatabase &Inner;
  clang::tooling::ArgumentsAdjuster CudaAdjuster;
};

} // namespace occlint
