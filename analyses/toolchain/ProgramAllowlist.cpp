#include "toolchain/ProgramAllowlist.h"

#include "toolchain/ResourceCompiler.h"

#include <cstdlib>
#include <filesystem>
#include <fnmatch.h>
#include <glob.h>
#include <mutex>
#include <unistd.h>

namespace occlint {

namespace fs = std::filesystem;

namespace {

std::string realPathOf(const std::string &path) {
  std::error_code Ec;
  fs::path Real = fs::canonical(path, Ec);
  return Ec ? std::string() : Real.string();
}

bool isExecutableFile(const std::string &path) {
  std::error_code Ec;
  return fs::is_regular_file(path, Ec) && ::access(path.c_str(), X_OK) == 0;
}

bool hasWildcard(const std::string &s) { return s.find_first_of("*?[") != std::string::npos; }

std::mutex &listLock() {
  static std::mutex M;
  return M;
}
std::optional<ProgramAllowlist> &installedList() {
  static std::optional<ProgramAllowlist> L;
  return L;
}

} // namespace

ProgramAllowlist ProgramAllowlist::defaults(const std::string &toolkit) {
  ProgramAllowlist List;
  if (!toolkit.empty()) {
    std::string Root = realPathOf(toolkit);
    if (!Root.empty())
      List.allow(Root + "/bin/*");
  }
  for (const char *Name : {"gcc", "g++", "cc", "c++", "clang", "clang++"}) {
    List.allow(std::string("/usr/bin/") + Name);
    List.allow(std::string("/usr/bin/") + Name + "-[0-9]*");
  }
  return List;
}

void ProgramAllowlist::allow(const std::string &glob) {
  if (glob.empty())
    return;
  Globs.push_back(glob);
  // What the glob names now, resolved: /usr/bin/g++ is a chain of symlinks to
  // /usr/bin/x86_64-linux-gnu-g++-12, which is what a realpath match sees.
  glob_t Found{};
  if (::glob(glob.c_str(), 0, nullptr, &Found) == 0)
    for (size_t I = 0; I < Found.gl_pathc; ++I) {
      std::string Real = realPathOf(Found.gl_pathv[I]);
      if (!Real.empty() && Real != Found.gl_pathv[I] && isExecutableFile(Real))
        Globs.push_back(Real);
    }
  ::globfree(&Found);
}

std::optional<std::string> ProgramAllowlist::resolve(const std::string &program, std::string *why) const {
  std::string Located = locateProgram(program);
  if (Located.empty()) {
    if (why)
      *why = "'" + program + "' not found";
    return std::nullopt;
  }
  std::string Real = realPathOf(Located);
  if (Real.empty() || !isExecutableFile(Real)) {
    if (why)
      *why = "'" + Located + "' is not an executable file";
    return std::nullopt;
  }
  for (const std::string &G : Globs)
    if (G == Real || (hasWildcard(G) && ::fnmatch(G.c_str(), Real.c_str(), FNM_PATHNAME) == 0))
      return Real;
  if (why)
    *why = Real + (Real == Located ? "" : " (from " + Located + ")") + " is not an allowed program";
  return std::nullopt;
}

std::string ProgramAllowlist::allowLineFor(const std::string &realPath) {
  return "--allow-compiler '" + realPath + "'";
}

ProgramAllowlist processAllowlist() {
  std::lock_guard<std::mutex> Guard(listLock());
  if (!installedList())
    installedList() = ProgramAllowlist::defaults(findCudaToolkit("").value_or(""));
  return *installedList();
}

void setProcessAllowlist(ProgramAllowlist List) {
  std::lock_guard<std::mutex> Guard(listLock());
  installedList() = std::move(List);
}

std::string locateProgram(const std::string &program, const std::string &directory) {
  if (program.empty())
    return {};
  if (program.find('/') != std::string::npos) {
    fs::path P(program);
    if (P.is_relative())
      P = (directory.empty() ? fs::current_path() : fs::path(directory)) / P;
    return P.lexically_normal().string();
  }
  const char *Path = std::getenv("PATH");
  std::string Entries = Path ? Path : "/usr/bin:/bin";
  size_t Start = 0;
  while (Start <= Entries.size()) {
    size_t End = Entries.find(':', Start);
    if (End == std::string::npos)
      End = Entries.size();
    std::string Dir = Entries.substr(Start, End - Start);
    Start = End + 1;
    if (Dir.empty() || Dir[0] != '/')
      continue; // '.', '' and relative entries: they would search the working directory
    std::string Candidate = Dir + "/" + program;
    if (isExecutableFile(Candidate))
      return Candidate;
  }
  return {};
}

} // namespace occlint
