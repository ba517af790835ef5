#include "lint/LineFilter.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace occlint {

std::error_code parseJsonLineFilter(llvm::StringRef Text, clang::tidy::ClangTidyGlobalOptions &Options) {
  // JSON (what clang-tidy documents for --line-filter) has no aliases, anchors
  // or tags, so every JSON document is a YAML tree yaml::Input can walk.
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse(Text);
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::make_error_code(std::errc::invalid_argument);
  }
  return clang::tidy::parseLineFilter(Text, Options);
}

} // namespace occlint
