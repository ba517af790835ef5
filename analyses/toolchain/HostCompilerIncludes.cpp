#include "toolchain/HostCompilerIncludes.h"

#include "toolchain/ResourceCompiler.h"
#include "toolchain/Subprocess.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>

namespace occlint {

std::string writtenHostCompiler(const std::vector<std::string> &CommandLine) {
  std::string Written;
  for (size_t I = 1; I < CommandLine.size(); ++I) {
    const std::string &A = CommandLine[I];
    for (const std::string Name : {"-ccbin", "--compiler-bindir"}) {
      if (A == Name && I + 1 < CommandLine.size())
        Written = CommandLine[I + 1];
      else if (A.size() > Name.size() && A.compare(0, Name.size(), Name) == 0 && A[Name.size()] == '=')
        Written = A.substr(Name.size() + 1);
    }
  }
  return Written;
}

std::string hostCompilerIncludeDir(const std::string &WrittenHostCompiler, const std::string &Directory) {
  std::string Refused;
  const std::string Compiler = resolveHostCompiler(WrittenHostCompiler, Directory, Refused);
  if (Compiler.empty())
    return "";
  static std::mutex Lock;
  static std::map<std::string, std::string> Known; // realpath -> directory ("" when none)
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (auto It = Known.find(Compiler); It != Known.end())
      return It->second;
  }
  SubprocessOptions Options;
  Options.timeout = std::chrono::seconds(10);
  Options.maxOutputBytes = 4096;
  const SubprocessResult R = runSubprocess({Compiler, "-print-file-name=include"}, Options);
  std::string Dir;
  if (R.ok()) {
    Dir = R.out;
    while (!Dir.empty() && (Dir.back() == '\n' || Dir.back() == '\r' || Dir.back() == ' '))
      Dir.pop_back();
    std::error_code Error;
    // GCC prints the name itself ("include") when it has no such directory.
    if (Dir.empty() || Dir.front() != '/' || !std::filesystem::is_directory(Dir, Error))
      Dir.clear();
  }
  std::lock_guard<std::mutex> Guard(Lock);
  Known.emplace(Compiler, Dir);
  return Dir;
}

} // namespace occlint
