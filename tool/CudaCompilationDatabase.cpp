#include "CudaCompilationDatabase.h"

#include "CompileCommandTranslator.h"

#include "llvm/Support/raw_ostream.h"

namespace occlint {

CudaCompilationDatabase::CudaCompilationDatabase(const clang::tooling::CompilationDatabase &Inner,
                                                 CudaParseSettings Settings)
    : Inner(Inner), CudaAdjuster(makeCudaArgumentsAdjuster(std::move(Settings))) {}

clang::tooling::CompileCommand CudaCompilationDatabase::adjust(clang::tooling::CompileCommand Command) const {
  if (isNvccCommand(Command.CommandLine)) {
    TranslatedCommand Translated = translateCompileCommand(Command.CommandLine, Command.Directory);
    if (!Translated.error.empty())
      llvm::errs() << "occlint: warning: " << Command.Filename << ": " << Translated.error << "\n";
    Command.CommandLine = std::move(Translated.clangArgs);
  }
  Command.CommandLine = CudaAdjuster(Command.CommandLine, Command.Filename);
  return Command;
}

std::vector<clang::tooling::CompileCommand>
CudaCompilationDatabase::getCompileCommands(llvm::StringRef File) const {
  std::vector<clang::tooling::CompileCommand> Commands = Inner.getCompileCommands(File);
  for (clang::tooling::CompileCommand &Command : Commands)
    Command = adjust(std::move(Command));
  return Commands;
}

std::vector<clang::tooling::CompileCommand> CudaCompilationDatabase::getAllCompileCommands() const {
  std::vector<clang::tooling::CompileCommand> Commands = Inner.getAllCompileCommands();
  for (clang::tooling::CompileCommand &Command : Commands)
    Command = adjust(std::move(Command));
  return Commands;
}

} // namespace occlint
