#include "lint/ShownIncludedFiles.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace occlint {

using clang::tidy::ClangTidyGlobalOptions;
using clang::tidy::ClangTidyOptions;
using clang::tidy::ClangTidyOptionsProvider;

namespace {

class ShownFilesProvider : public ClangTidyOptionsProvider {
public:
  ShownFilesProvider(std::unique_ptr<ClangTidyOptionsProvider> Inner, std::string FilesRegex)
      : Inner(std::move(Inner)), FilesRegex(std::move(FilesRegex)) {}

  const ClangTidyGlobalOptions &getGlobalOptions() override { return Inner->getGlobalOptions(); }

  // The inner sources, then one more (the highest priority) whose header
  // filter is the effective one or'ed with the files'.
  std::vector<OptionsSource> getRawOptions(llvm::StringRef FileName) override {
    std::vector<OptionsSource> Sources = Inner->getRawOptions(FileName);
    std::string Effective;
    for (const OptionsSource &Source : Sources)
      if (Source.first.HeaderFilterRegex)
        Effective = *Source.first.HeaderFilterRegex;
    ClangTidyOptions Extra;
    Extra.HeaderFilterRegex = Effective.empty() ? FilesRegex : "(" + Effective + ")|" + FilesRegex;
    Sources.emplace_back(std::move(Extra), "occlint: .cu files linted as part of the file including them");
    return Sources;
  }

private:
  std::unique_ptr<ClangTidyOptionsProvider> Inner;
  std::string FilesRegex;
};

} // namespace

std::unique_ptr<ClangTidyOptionsProvider> showDiagnosticsInFiles(std::unique_ptr<ClangTidyOptionsProvider> Inner,
                                                                 const std::vector<std::string> &Files) {
  if (Files.empty())
    return Inner;
  // By name, not full path: Clang names an included file by the include
  // directory it was found in (dir/./x.cu, inc/../x.cu), not canonically.
  std::string Names;
  for (const std::string &File : Files)
    Names += (Names.empty() ? "" : "|") + llvm::Regex::escape(llvm::sys::path::filename(File));
  return std::make_unique<ShownFilesProvider>(std::move(Inner), "(^|/)(" + Names + ")$");
}

} // namespace occlint
