// Fuzz target: the check option values occlint reads. The input, split at
// the first NUL byte:
//   1. a configuration (YAML), read both as the .clang-tidy file next to the
//      linted file and as --config;
//   2. a --line-filter value (JSON), when present.
// For each: the options provider (createOptionsProvider), the validation of
// the values (lint/CheckOptionValidation.h), the `Targets` option
// (lint/TargetsOption.h), and every enabled cuda-* check constructed with
// those options (clang-tidy's getCheckOptions reads them as the checks do).
#include "FuzzSupport.h"
#include "lint/CheckOptionValidation.h"
#include "lint/LintPipeline.h"
#include "lint/TargetsOption.h"

#include "clang-tidy/ClangTidy.h"

#include <filesystem>

namespace {

const std::string &projectDirectory() {
  static const std::string Dir = [] {
    std::string D = occlint::fuzz::scratchDir() + "/opts";
    std::filesystem::create_directories(D);
    return D;
  }();
  return Dir;
}

void readOptions(const occlint::LintSettings &Settings, const std::string &File) {
  using namespace occlint;
  std::string Error;
  std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Provider = createOptionsProvider(Settings, Error);
  if (!Provider)
    return;
  static const CheckOptionValidator Validator("");
  if (!Validator.validate(*Provider, File).empty())
    return; // occlint stops here with a usage error
  TargetsOption Targets(*Provider, "");
  std::string TargetsError;
  Targets.archsFor(File, TargetsError);
  if (!TargetsError.empty())
    return;
  clang::tidy::ClangTidyOptions Options = Provider->getOptions(File);
  clang::tidy::getCheckNames(Options, false, false);
  clang::tidy::getCheckOptions(Options, false, false);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  const std::vector<std::string> Parts = fuzz::splitParts(fuzz::asText(Data, Size), 2);
  const std::string &Dir = projectDirectory();
  const std::string File = Dir + "/kernel.cu";
  fuzz::writeFile(Dir + "/.clang-tidy", Parts[0]);
  LintSettings Settings;
  if (Parts.size() > 1)
    Settings.lineFilter = Parts[1];
  readOptions(Settings, File);
  Settings.config = Parts[0];
  readOptions(Settings, File);
  return 0;
}
