#include "lint/CheckOptionValidation.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/ADT/StringExtras.h"

namespace occlint {

namespace {

// Options every cuda-* check reads with getLocalOrGlobal (OcclintCheck.h).
// Targets is checked against the GPU database by TargetsOption.
const std::pair<const char *, OptionType> GlobalOptions[] = {{"Targets", OptionType::Text},
                                                             {"PtxasLog", OptionType::Text},
                                                             {"ReadCache", OptionType::Bool},
                                                             {"IgnoreSingleBlock", OptionType::Bool}};

OptionType typeOfDefault(llvm::StringRef Value) {
  if (Value == "true" || Value == "false")
    return OptionType::Bool;
  long long Ignored;
  if (!Value.empty() && !Value.getAsInteger(10, Ignored))
    return OptionType::Integer;
  return OptionType::Text;
}

bool isBool(llvm::StringRef Value) {
  const std::string Lower = Value.trim().lower();
  return Lower == "true" || Lower == "false" || Lower == "1" || Lower == "0" || Lower == "on" || Lower == "off";
}

} // namespace

std::string describeOptionsSource(const std::string &Source, const std::string &ConfigFile) {
  using clang::tidy::ClangTidyOptionsProvider;
  if (Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption)
    return "the command line";
  if (Source == ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption)
    return ConfigFile.empty() ? "--config" : "--config-file " + ConfigFile;
  return Source;
}

CheckOptionValidator::CheckOptionValidator(std::string ConfigFile) : ConfigFile(std::move(ConfigFile)) {
  clang::tidy::ClangTidyOptions All = clang::tidy::ClangTidyOptions::getDefaults();
  All.Checks = "-*,cuda-*";
  for (const auto &Option : clang::tidy::getCheckOptions(All, false, false))
    Types.emplace(Option.getKey().str(), typeOfDefault(Option.getValue().Value));
  for (const auto &[Name, Type] : GlobalOptions)
    Types.emplace(Name, Type);
}

OptionType CheckOptionValidator::typeOf(llvm::StringRef Key) const {
  auto It = Types.find(Key);
  if (It == Types.end() && Key.contains('.'))
    It = Types.find(Key.rsplit('.').second); // a check's own value of a global option
  return It == Types.end() ? OptionType::Text : It->second;
}

std::string CheckOptionValidator::validate(clang::tidy::ClangTidyOptionsProvider &Provider,
                                           llvm::StringRef File) const {
  for (const auto &[Options, Source] : Provider.getRawOptions(File))
    for (const auto &Option : Options.CheckOptions) {
      const llvm::StringRef Key = Option.getKey();
      const llvm::StringRef Value = Option.getValue().Value;
      const OptionType Type = typeOf(Key);
      const char *Expected = nullptr;
      long long Ignored;
      if (Type == OptionType::Bool && !isBool(Value))
        Expected = "true or false";
      else if (Type == OptionType::Integer && Value.trim().getAsInteger(10, Ignored))
        Expected = "an integer";
      if (Expected)
        return "invalid value '" + Value.str() + "' for option '" + Key.str() + "' in " +
               describeOptionsSource(Source, ConfigFile) + ": expected " + Expected;
    }
  return "";
}

} // namespace occlint
