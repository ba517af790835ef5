// Wraps the user's compilation database (compile_commands.json, or `-- flags`)
// so that every command reaching Clang is a Clang CUDA command for one
// device-side parse: nvcc commands are translated (CompileCommandTranslator),
// then each file gets one command per target arch (CudaCommandAdjuster).
#pragma once

#include "lint/CudaCommandAdjuster.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <mutex>

namespace occlint {

/// The archs named for a file by --gpu or the `Targets` check option, and
/// where they came from ("--gpu", "Targets in /src/.clang-tidy"). No archs:
/// none named, the compile command's archs apply.
struct NamedArchs {
  std::vector<std::string> archs;
  std::string origin;
};
using NamedArchsForFile = std::function<NamedArchs(llvm::StringRef File)>;

/// The archs of the parses of one file, and why those.
struct ParseArchs {
  std::vector<std::string> archs; // as Clang spells them (sm_100f -> sm_100a)
  std::string origin;             // "--gpu", "the compile command", "the default"...
  std::vector<std::string> notes; // e.g. a symbolic -arch=native replaced by the default
};

/// --gpu/Targets archs if any, else the command's, else the default.
ParseArchs chooseParseArchs(const NamedArchs &Named, const std::vector<std::string> &CommandArchs,
                            const std::optional<std::string> &SymbolicArch, const std::string &DefaultArch);

class CudaCompilationDatabase : public clang::tooling::CompilationDatabase {
public:
  /// `Verbose`, when given, receives per file and arch the Clang command line,
  /// the flags the nvcc translation dropped and its notes.
  CudaCompilationDatabase(const clang::tooling::CompilationDatabase &Inner, CudaParseSettings Settings,
                          NamedArchsForFile NamedArchs, llvm::raw_ostream *Verbose = nullptr);

  /// One command per target arch, each with exactly one --cuda-gpu-arch.
  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef File) const override;
  std::vector<std::string> getAllFiles() const override { return Inner.getAllFiles(); }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override;

  /// The per-arch commands of one of the inner database's commands (`occlint
  /// compdb` writes them); `Report`: its translation warnings on stderr.
  std::vector<clang::tooling::CompileCommand> perArchCommands(const clang::tooling::CompileCommand &Command,
                                                              bool Report) const {
    return expand(Command, Report);
  }

private:
  std::vector<clang::tooling::CompileCommand> expand(const clang::tooling::CompileCommand &Command, bool Report) const;

  const clang::tooling::CompilationDatabase &Inner;
  CudaParseSettings Settings;
  NamedArchsForFile NamedArchsFor;
  llvm::raw_ostream *Verbose;
  mutable std::mutex ReportedLock;    // occlint --jobs asks from several threads
  mutable llvm::StringSet<> Reported; // files whose commands --verbose printed
};

} // namespace occlint
