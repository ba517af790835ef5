// Which programs occlint may start (docs/security.md). A compile database, a
// .clang-tidy file and the sources all arrive with `git clone`: they are data,
// and nothing in them may make occlint run a program. Only the user widens
// this list (--allow-compiler, $OCCLINT_ALLOW_COMPILER, the user's own
// config file); runSubprocess (toolchain/Subprocess.h), the one function that
// starts processes, refuses every program that is not on it.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace occlint {

class ProgramAllowlist {
public:
  /// The default list: every program in the CUDA toolkit's bin/ (`toolkit`,
  /// realpath-resolved; none when empty) and the system host compilers
  /// /usr/bin/{gcc,g++,cc,c++,clang,clang++} with version suffixes
  /// (gcc-12, clang++-22), each as the realpath it resolves to.
  static ProgramAllowlist defaults(const std::string &toolkit);

  /// Adds a glob (fnmatch(3), '*' does not cross '/'), matched against a
  /// program's realpath; what it names today is also resolved and allowed
  /// (so '/usr/bin/g++-13' allows the file that symlink points at).
  void allow(const std::string &glob);

  /// The realpath of `program` (absolute, or found in $PATH's absolute
  /// entries when it has no '/') when it is allowed; nullopt otherwise, with
  /// `why` saying what was refused (the realpath, or that it is not found).
  std::optional<std::string> resolve(const std::string &program, std::string *why = nullptr) const;

  /// The --allow-compiler line that would allow this program (its realpath).
  static std::string allowLineFor(const std::string &realPath);

  const std::vector<std::string> &globs() const { return Globs; }

private:
  std::vector<std::string> Globs;
};

/// The list runSubprocess checks, for this process. Until the tool installs
/// one it is ProgramAllowlist::defaults of the toolkit findCudaToolkit("")
/// finds ($CUDA_PATH, /usr/local/cuda).
ProgramAllowlist processAllowlist();
void setProcessAllowlist(ProgramAllowlist List);

/// The absolute path of `program`: itself when it has a '/' (relative ones
/// against `directory`, then made absolute), else the first executable in
/// $PATH's absolute entries (relative entries such as '.' are skipped: they
/// would search wherever occlint runs). "" when not found.
std::string locateProgram(const std::string &program, const std::string &directory = {});

} // namespace occlint
