#include "lint/IncludedTranslationUnits.h"

#include "toolchain/CompileCommandTranslator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace occlint {

static std::string canonical(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Normal(Path);
  llvm::sys::path::remove_dots(Normal, true);
  return std::string(Normal);
}

static std::string inDirectory(llvm::StringRef Dir, llvm::StringRef Path) {
  if (llvm::sys::path::is_absolute(Path) || Dir.empty())
    return Path.str();
  llvm::SmallString<256> Joined(Dir);
  llvm::sys::path::append(Joined, Path);
  return std::string(Joined);
}

// The include search directories of the file's (first) compile command.
static std::vector<std::string> includeDirs(const clang::tooling::CompilationDatabase &Database, llvm::StringRef File) {
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(File);
  if (Commands.empty())
    return {};
  const clang::tooling::CompileCommand &Command = Commands.front();
  TranslatedCommand T = translateCompileCommand(Command.CommandLine, Command.Directory);
  const std::vector<std::string> &Args = T.isNvcc ? T.clangArgs : Command.CommandLine;
  std::vector<std::string> Dirs;
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    for (llvm::StringRef Flag : {"-I", "-iquote", "-isystem", "-idirafter"}) {
      if (!Arg.starts_with(Flag))
        continue;
      llvm::StringRef Dir = Arg.drop_front(Flag.size());
      if (Dir.empty() && I + 1 < Args.size())
        Dir = Args[++I];
      if (!Dir.empty())
        Dirs.push_back(inDirectory(Command.Directory, Dir));
      break;
    }
  }
  return Dirs;
}

// The .cu files `File` names in #include lines, resolved to existing paths.
static std::vector<std::string> includedCudaFiles(const std::string &File, const std::vector<std::string> &Dirs) {
  std::vector<std::string> Found;
  auto Buffer = llvm::MemoryBuffer::getFile(File);
  if (!Buffer)
    return Found;
  llvm::SmallVector<llvm::StringRef> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim();
    if (!Line.consume_front("include"))
      continue;
    Line = Line.ltrim();
    if (Line.empty() || (Line.front() != '"' && Line.front() != '<'))
      continue;
    const char Close = Line.front() == '"' ? '"' : '>';
    llvm::StringRef Name = Line.drop_front().take_until([Close](char C) { return C == Close; });
    if (!Name.ends_with(".cu"))
      continue;
    std::vector<std::string> Candidates{inDirectory(llvm::sys::path::parent_path(File), Name)};
    for (const std::string &Dir : Dirs)
      Candidates.push_back(inDirectory(Dir, Name));
    for (const std::string &Candidate : Candidates)
      if (llvm::sys::fs::is_regular_file(Candidate)) {
        Found.push_back(canonical(Candidate));
        break;
      }
  }
  return Found;
}

std::vector<std::string> withoutIncludedTranslationUnits(const std::vector<std::string> &Files,
                                                         const clang::tooling::CompilationDatabase &Database,
                                                         std::vector<SkippedTranslationUnit> &Skipped) {
  std::map<std::string, size_t> IndexOf; // canonical path -> index in Files
  for (size_t I = 0; I < Files.size(); ++I)
    IndexOf.emplace(canonical(Files[I]), I);
  // Includes[I]: the translation units file I #includes.
  std::vector<std::vector<size_t>> Includes(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    for (const std::string &Path : includedCudaFiles(Files[I], includeDirs(Database, Files[I])))
      if (auto It = IndexOf.find(Path); It != IndexOf.end() && It->second != I)
        Includes[I].push_back(It->second);

  // Last to first: a file is skipped when a file still kept includes it.
  // Then of files that include each other the first stays, and in a chain
  // (a includes b, b includes c) only a stays: b and c are in a's parse.
  std::vector<bool> Kept(Files.size(), true);
  for (size_t I = Files.size(); I-- > 0;)
    for (size_t By = 0; By < Files.size(); ++By)
      if (Kept[By] && By != I && llvm::is_contained(Includes[By], I)) {
        Kept[I] = false;
        Skipped.push_back({Files[I], Files[By]});
        break;
      }
  std::reverse(Skipped.begin(), Skipped.end());
  std::vector<std::string> Out;
  for (size_t I = 0; I < Files.size(); ++I)
    if (Kept[I])
      Out.push_back(Files[I]);
  return Out;
}

} // namespace occlint
