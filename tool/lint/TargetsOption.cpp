#include "lint/TargetsOption.h"

#include "facts/TargetSelection.h"
#include "gpu/GpuDatabase.h"
#include "lint/CheckOptionValidation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>

namespace occlint {

// The checks' own list syntax (TargetSelection's splitOptionList), so the tool
// and the checks read a Targets value alike.
std::vector<std::string> splitTargets(llvm::StringRef Value) {
  std::vector<std::string> Names;
  for (llvm::StringRef Name : clang::tidy::occlint::splitOptionList(Value))
    Names.push_back(Name.str());
  return Names;
}

std::vector<std::string> archsOfGpus(const std::vector<std::string> &Names, std::string &Error) {
  std::vector<std::string> Archs;
  for (const std::string &Name : Names) {
    std::string Message;
    std::optional<TargetGpu> Gpu = GpuDatabase::builtin().resolve(Name, Message);
    if (!Gpu) {
      if (Error.empty())
        Error = Message;
      continue;
    }
    if (!llvm::is_contained(Archs, Gpu->arch.name))
      Archs.push_back(Gpu->arch.name);
  }
  return Archs;
}

TargetsOption::TargetsOption(clang::tidy::ClangTidyOptionsProvider &Provider, std::string ConfigFile)
    : Provider(Provider), ConfigFile(std::move(ConfigFile)) {}

// Raw option sources are named by clang-tidy's library: a .clang-tidy path,
// or fixed strings for the command-line options.
std::string TargetsOption::describeSource(const std::string &Source) const {
  if (Source == clang::tidy::ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption)
    return "--gpu"; // the override options: only --gpu sets Targets there
  return describeOptionsSource(Source, ConfigFile);
}

NamedArchs TargetsOption::archsFor(llvm::StringRef File, std::string &Error) {
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Path);
  std::lock_guard<std::mutex> Guard(MemoLock); // occlint --jobs: several parses ask at once
  auto It = Memo.find(Path);
  if (It == Memo.end()) {
    // The last source that sets Targets wins, as in ClangTidyOptions::merge.
    std::optional<std::pair<std::string, std::string>> Setting; // value, source
    for (const auto &[Options, Source] : Provider.getRawOptions(Path))
      if (auto Value = Options.CheckOptions.find(TargetsOptionName); Value != Options.CheckOptions.end())
        Setting = {Value->getValue().Value, Source};
    NamedArchs Named;
    std::string Problem;
    if (Setting) {
      const std::string Where = describeSource(Setting->second);
      Named.archs = archsOfGpus(splitTargets(Setting->first), Problem);
      Named.origin = Where == "--gpu" ? Where : std::string(TargetsOptionName) + " in " + Where;
      if (!Problem.empty())
        Problem = "CheckOptions " + std::string(TargetsOptionName) + " in " + Where + ": " + Problem;
    }
    It = Memo.try_emplace(Path, std::move(Named), std::move(Problem)).first;
  }
  Error = It->second.second;
  return It->second.first;
}

} // namespace occlint
