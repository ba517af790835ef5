#include "lint/CudaCompilationDatabase.h"

#include "checks/NvccMacroInOwnFiles.h"
#include "toolchain/CompileCommandTranslator.h"
#include "toolchain/HostCompilerIncludes.h"
#include "toolchain/UnsafeFlags.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace occlint {

// Clang 22 has no family-specific targets: sm_100f is parsed as sm_100a (the
// translator's note says so).
static std::string clangArch(std::string Arch) {
  if (Arch.size() > 4 && Arch.back() == 'f' && llvm::isDigit(Arch[Arch.size() - 2]))
    Arch.back() = 'a';
  return Arch;
}

ParseArchs chooseParseArchs(const NamedArchs &Named, const std::vector<std::string> &CommandArchs,
                            const std::optional<std::string> &SymbolicArch, const std::string &DefaultArch) {
  ParseArchs Out;
  auto Add = [&](const std::string &Arch) {
    std::string A = clangArch(Arch);
    if (!llvm::is_contained(Out.archs, A))
      Out.archs.push_back(A);
  };
  if (!Named.archs.empty()) {
    llvm::for_each(Named.archs, Add);
    Out.origin = Named.origin;
  } else if (!CommandArchs.empty()) {
    llvm::for_each(CommandArchs, Add);
    Out.origin = "the compile command";
  } else {
    Add(DefaultArch);
    Out.origin = "the default";
    if (SymbolicArch)
      Out.notes.push_back("-arch=" + *SymbolicArch + " names no arch occlint can know; parsing for " + DefaultArch +
                          " (name the GPUs with --gpu)");
  }
  return Out;
}

static std::string joinForDisplay(const std::vector<std::string> &Args) {
  std::string Out;
  for (const std::string &Arg : Args) {
    if (!Out.empty())
      Out += ' ';
    const bool Quote = Arg.empty() || Arg.find_first_of(" \t\"'\\$") != std::string::npos;
    Out += Quote ? "'" + Arg + "'" : Arg;
  }
  return Out;
}

CudaCompilationDatabase::CudaCompilationDatabase(const clang::tooling::CompilationDatabase &Inner,
                                                 CudaParseSettings Settings, NamedArchsForFile NamedArchs,
                                                 llvm::raw_ostream *Verbose)
    : Inner(Inner), Settings(std::move(Settings)), NamedArchsFor(std::move(NamedArchs)), Verbose(Verbose) {}

std::vector<clang::tooling::CompileCommand>
CudaCompilationDatabase::expand(const clang::tooling::CompileCommand &Command, bool Report) const {
  // Clang and other compilers' commands go through unchanged; the translator
  // still reads their archs (--cuda-gpu-arch=, --offload-arch=).
  TranslatedCommand Translated = translateCompileCommand(Command.CommandLine, Command.Directory);
  std::vector<std::string> ClangArgs = Translated.isNvcc ? Translated.clangArgs : Command.CommandLine;
  // nvcc defines __NVCC__; the checks define it in the project's own files
  // of an nvcc build only (checks/NvccMacroInOwnFiles.h), told by this macro.
  if (Translated.isNvcc && !ClangArgs.empty())
    ClangArgs.insert(ClangArgs.begin() + 1, std::string("-D") + clang::tidy::occlint::NvccBuildMarker + "=1");
  if (!Translated.error.empty() && Report)
    llvm::errs() << "occlint: warning: " << Command.Filename << ": " << Translated.error << "\n";
  // Plugins and the like would run code from the checkout inside occlint.
  for (const std::string &Flag : dropUnsafeClangFlags(ClangArgs))
    if (Report)
      llvm::errs() << "occlint: note: " << Command.Filename << ": dropped '" << Flag
                   << "' from its compile command: it would load or run other code (docs/security.md)\n";

  llvm::SmallString<256> Path(Command.Filename);
  if (llvm::sys::path::is_relative(Path) && !Command.Directory.empty()) {
    Path = Command.Directory;
    llvm::sys::path::append(Path, Command.Filename);
  }
  const NamedArchs Named = NamedArchsFor ? NamedArchsFor(Path) : NamedArchs{};
  const ParseArchs Archs = chooseParseArchs(Named, Translated.archs, Translated.symbolicArch, Settings.defaultArch);

  const std::string HostIncludeDir =
      Settings.hostCompilerIncludes
          ? hostCompilerIncludeDir(writtenHostCompiler(Command.CommandLine), Command.Directory)
          : std::string();
  std::vector<clang::tooling::CompileCommand> Out;
  for (const std::string &Arch : Archs.archs) {
    clang::tooling::CompileCommand PerArch = Command;
    PerArch.CommandLine = cudaParseCommand(ClangArgs, Settings, Arch, HostIncludeDir);
    Out.push_back(std::move(PerArch));
  }

  if (Report && Verbose) {
    llvm::raw_ostream &OS = *Verbose;
    const std::string File = Command.Filename;
    OS << "occlint: " << File << ": parse archs " << llvm::join(Archs.archs, ", ") << " (from " << Archs.origin
       << ")\n";
    for (size_t I = 0; I < Out.size(); ++I)
      OS << "occlint: " << File << " [" << Archs.archs[I] << "]: clang command: " << joinForDisplay(Out[I].CommandLine)
         << "\n";
    if (!Translated.droppedFlags.empty())
      OS << "occlint: " << File << ": dropped by the nvcc translation: " << llvm::join(Translated.droppedFlags, ", ")
         << "\n";
    for (const std::string &Note : Translated.notes)
      OS << "occlint: " << File << ": note: " << Note << "\n";
    for (const std::string &Note : Archs.notes)
      OS << "occlint: " << File << ": note: " << Note << "\n";
    OS.flush();
  }
  return Out;
}

std::vector<clang::tooling::CompileCommand> CudaCompilationDatabase::getCompileCommands(llvm::StringRef File) const {
  std::vector<clang::tooling::CompileCommand> Out;
  // ClangTool asks once per file, right before parsing it: report then, once.
  bool Report;
  {
    std::lock_guard<std::mutex> Guard(ReportedLock);
    Report = Reported.insert(File).second;
  }
  for (const clang::tooling::CompileCommand &Command : Inner.getCompileCommands(File))
    for (clang::tooling::CompileCommand &PerArch : expand(Command, Report))
      Out.push_back(std::move(PerArch));
  return Out;
}

std::vector<clang::tooling::CompileCommand> CudaCompilationDatabase::getAllCompileCommands() const {
  std::vector<clang::tooling::CompileCommand> Out;
  for (const clang::tooling::CompileCommand &Command : Inner.getAllCompileCommands())
    for (clang::tooling::CompileCommand &PerArch : expand(Command, false))
      Out.push_back(std::move(PerArch));
  return Out;
}

} // namespace occlint
