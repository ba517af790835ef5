#include "lint/CheckoutExtraArgs.h"

#include "toolchain/UnsafeFlags.h"

#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <set>

namespace occlint {

namespace {

using clang::tidy::ClangTidyOptionsProvider;

/// The sources a user's own command line sets (not a file of the checkout).
bool fromTheUser(const std::string &Source, const std::string &UserConfigFile) {
  return Source == ClangTidyOptionsProvider::OptionsSourceTypeDefaultBinary ||
         Source == ClangTidyOptionsProvider::OptionsSourceTypeCheckCommandLineOption ||
         Source == ClangTidyOptionsProvider::OptionsSourceTypeConfigCommandLineOption ||
         Source == "<command-line-config>" || (!UserConfigFile.empty() && Source == UserConfigFile);
}

void noteOnce(const std::string &Flag, const std::string &Source) {
  static std::mutex Lock;
  static std::set<std::string> Noted;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Noted.insert(Source + "\n" + Flag).second)
    llvm::errs() << "occlint: note: dropped '" << Flag << "' from ExtraArgs in " << Source
                 << ": it would load or run other code (docs/security.md)\n";
}

void filter(std::optional<std::vector<std::string>> &Args, const std::string &Source) {
  if (!Args)
    return;
  for (const std::string &Flag : dropUnsafeClangFlags(*Args))
    noteOnce(Flag, Source);
}

class UnsafeExtraArgsFilter final : public ClangTidyOptionsProvider {
public:
  UnsafeExtraArgsFilter(std::unique_ptr<ClangTidyOptionsProvider> Inner, std::string UserConfigFile)
      : Inner(std::move(Inner)), UserConfigFile(std::move(UserConfigFile)) {}

  const clang::tidy::ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }

  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(FileName);
    for (OptionsSource &S : Sources)
      if (!fromTheUser(S.second, UserConfigFile)) {
        filter(S.first.ExtraArgs, S.second);
        filter(S.first.ExtraArgsBefore, S.second);
      }
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  std::string UserConfigFile;
};

} // namespace

std::unique_ptr<ClangTidyOptionsProvider> dropUnsafeCheckoutExtraArgs(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                                                                      std::string UserConfigFile) {
  return std::make_unique<UnsafeExtraArgsFilter>(std::move(Inner), std::move(UserConfigFile));
}

} // namespace occlint
