#include "outputs/PathRoots.h"

#include <filesystem>
#include <optional>
#include <system_error>

namespace occlint {

namespace fs = std::filesystem;

namespace {

std::string normal(const std::string &Path) {
  std::string Out = fs::path(Path).lexically_normal().string();
  while (Out.size() > 1 && Out.back() == '/')
    Out.pop_back();
  return Out;
}

/// File relative to Directory when it is inside it, else nullopt.
std::optional<std::string> inside(const std::string &File, const std::string &Directory) {
  if (Directory.empty())
    return std::nullopt;
  if (Directory == "/")
    return File.size() > 1 && File[0] == '/' ? std::optional<std::string>(File.substr(1)) : std::nullopt;
  if (File.size() <= Directory.size() + 1 || File.compare(0, Directory.size(), Directory) != 0 ||
      File[Directory.size()] != '/')
    return std::nullopt;
  return File.substr(Directory.size() + 1);
}

} // namespace

std::string PathRoots::display(const std::string &File) const {
  if (File.empty() || File[0] != '/')
    return File; // not a path of this machine ("<stdin>", a relative name): as it is
  const std::string Path = normal(File);
  if (std::optional<std::string> Relative = inside(Path, project))
    return *Relative;
  for (const std::string *Toolkit : {&cuda, &cudaResolved})
    if (std::optional<std::string> Relative = inside(Path, *Toolkit))
      return "<cuda>/" + *Relative;
  // The deepest system directory that holds it: <system>/c++/12/vector, not <system>/12/vector.
  std::optional<std::string> Best;
  for (const std::string &Directory : system)
    if (std::optional<std::string> Relative = inside(Path, Directory))
      if (!Best || Relative->size() < Best->size())
        Best = Relative;
  if (Best)
    return "<system>/" + *Best;
  return Path;
}

std::string gitTopLevel(const std::string &Directory) {
  if (Directory.empty())
    return "";
  std::error_code Ignored;
  for (fs::path Dir = fs::path(normal(Directory));; Dir = Dir.parent_path()) {
    if (fs::exists(Dir / ".git", Ignored))
      return Dir.string();
    if (Dir == Dir.root_path() || Dir.parent_path() == Dir)
      return "";
  }
}

std::string commonDirectory(const std::vector<std::string> &Files) {
  std::optional<fs::path> Common;
  for (const std::string &File : Files) {
    fs::path Dir = fs::path(normal(File)).parent_path();
    if (!Common) {
      Common = Dir;
      continue;
    }
    fs::path Shared;
    auto A = Common->begin(), B = Dir.begin();
    for (; A != Common->end() && B != Dir.end() && *A == *B; ++A, ++B)
      Shared /= *A;
    Common = Shared;
  }
  return Common ? Common->string() : std::string();
}

PathRoots choosePathRoots(const std::string &ExplicitRoot, const std::vector<std::string> &Sources,
                          const std::string &CudaPath, std::vector<std::string> SystemDirectories) {
  PathRoots Roots;
  if (!CudaPath.empty()) {
    // Both spellings: the toolkit as configured and where its links lead
    // (/usr/local/cuda -> /usr/local/cuda-13.0).
    Roots.cuda = normal(CudaPath);
    std::error_code Error;
    fs::path Resolved = fs::canonical(CudaPath, Error);
    if (!Error && Resolved.string() != Roots.cuda)
      Roots.cudaResolved = Resolved.string();
  }
  for (std::string &Directory : SystemDirectories)
    if (!Directory.empty())
      Roots.system.push_back(normal(Directory));
  if (!ExplicitRoot.empty()) {
    std::error_code Error;
    fs::path Absolute = fs::absolute(ExplicitRoot, Error);
    Roots.project = normal(Error ? ExplicitRoot : Absolute.string());
    Roots.projectFrom = "--root";
    return Roots;
  }
  std::vector<std::string> Absolute;
  for (const std::string &Source : Sources) {
    std::error_code Error;
    fs::path Path = fs::absolute(Source, Error);
    Absolute.push_back(Error ? Source : Path.string());
  }
  const std::string Common = commonDirectory(Absolute);
  if (std::string Git = gitTopLevel(Common); !Git.empty() && Git != "/") {
    Roots.project = Git;
    Roots.projectFrom = "git";
  } else if (!Common.empty() && Common != "/") {
    Roots.project = normal(Common);
    Roots.projectFrom = "sources";
  }
  return Roots;
}

} // namespace occlint
