// Bad values of the checks' options, found before anything is analysed, with
// the configuration that set them: "invalid value 'maybe' for option
// 'cuda-launch-tiny-grid.IgnoreSingleBlock' in /src/.clang-tidy: expected
// true or false". (Inside clang-tidy --load the checks say it themselves, as
// clang-tidy's own checks do, without the file: OcclintCheck::boolOption.)
#pragma once

#include "clang-tidy/ClangTidyOptions.h"

#include <map>
#include <string>

namespace occlint {

enum class OptionType { Text, Bool, Integer };

class CheckOptionValidator {
public:
  /// The option types come from the checks' defaults (an option whose
  /// default is true/false is a bool, digits an integer) and from the global
  /// options' table. `ConfigFile`: --config-file's value, to name it.
  explicit CheckOptionValidator(std::string ConfigFile);

  /// "" or the first bad value among the configurations that apply to `File`.
  std::string validate(clang::tidy::ClangTidyOptionsProvider &Provider, llvm::StringRef File) const;

  /// The type of a check option ("cuda-x.Name") or global option ("ReadCache").
  OptionType typeOf(llvm::StringRef Key) const;

private:
  std::string ConfigFile;
  std::map<std::string, OptionType, std::less<>> Types;
};

/// How an options source is named in messages: a file path, "--config",
/// "--config-file FILE", or "the command line" for the override options.
std::string describeOptionsSource(const std::string &Source, const std::string &ConfigFile);

} // namespace occlint
