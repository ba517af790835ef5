// The `Targets` check option: the GPUs the checks analyse for, and (through
// their archs) the archs occlint parses each file for. --gpu sets it (as an
// override option, so it wins over every configuration); without --gpu a
// `.clang-tidy` file, --config or --config-file may set it.
#pragma once

#include "lint/CudaCompilationDatabase.h"

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringMap.h"

#include <mutex>
#include <string>
#include <vector>

namespace occlint {

/// The check option's key (global: the checks read it with getLocalOrGlobal).
inline constexpr const char TargetsOptionName[] = "Targets";

/// "H100, A100; sm_90:132" -> {"H100", "A100", "sm_90:132"}: split at ',' or
/// ';' as the checks do (TargetSelection.h), blanks around names trimmed.
std::vector<std::string> splitTargets(llvm::StringRef Value);

/// The distinct archs of the GPUs named, in order; on an unknown name sets
/// Error to the GPU database's one-line message and returns what resolved.
std::vector<std::string> archsOfGpus(const std::vector<std::string> &Names, std::string &Error);

class TargetsOption {
public:
  /// `ConfigFile` is --config-file's value (or empty), to name it in errors.
  TargetsOption(clang::tidy::ClangTidyOptionsProvider &Provider, std::string ConfigFile);

  /// The archs of the GPUs the effective `Targets` for File names, and which
  /// configuration said so. Error: one line naming the option and its source
  /// (an unknown GPU name), for a usage error.
  NamedArchs archsFor(llvm::StringRef File, std::string &Error);

private:
  std::string describeSource(const std::string &Source) const;

  clang::tidy::ClangTidyOptionsProvider &Provider;
  std::string ConfigFile;
  std::mutex MemoLock;
  llvm::StringMap<std::pair<NamedArchs, std::string>> Memo; // file -> archs, error
};

} // namespace occlint
