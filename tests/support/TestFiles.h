// Files and scratch directories for the end-to-end tests: read and write a
// file whole, and a temporary directory that a test owns while it runs.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace occlint::testing {

/// The bytes of the file at P, or "" when it cannot be read (tests check for
/// that and say which file is missing).
inline std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Writes Text as the whole content of P, creating its parent directories.
/// Throws when it cannot (a test should not go on with a file it thinks it wrote).
inline void writeFile(const std::filesystem::path &P, const std::string &Text) {
  if (P.has_parent_path())
    std::filesystem::create_directories(P.parent_path());
  std::ofstream Out(P, std::ios::binary | std::ios::trunc);
  Out << Text;
  if (!Out.flush())
    throw std::runtime_error("cannot write " + P.string());
}

/// A fresh directory under the system temp dir, removed with everything in it
/// when the object goes out of scope.
class ScratchDir {
public:
  ScratchDir() {
    std::string Template = (std::filesystem::temp_directory_path() / "occlint-test-XXXXXX").string();
    if (!::mkdtemp(Template.data()))
      throw std::system_error(errno, std::generic_category(), "mkdtemp " + Template);
    Path = Template;
  }
  ~ScratchDir() {
    std::error_code Ignored;
    std::filesystem::remove_all(Path, Ignored);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  const std::filesystem::path &path() const { return Path; }

  /// Writes Text to Name (relative, may hold directories) inside this
  /// directory; returns the file's path.
  std::string write(const std::string &Name, const std::string &Text) const {
    writeFile(Path / Name, Text);
    return (Path / Name).string();
  }

private:
  std::filesystem::path Path;
};

} // namespace occlint::testing
