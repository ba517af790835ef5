// Diagnostics in a .cu file that is linted as part of another translation
// unit (IncludedTranslationUnits.h) must still be shown, though for Clang
// that file is a header, which clang-tidy hides unless the header filter
// matches it. This options provider widens the header filter by those files.
#pragma once

#include "clang-tidy/ClangTidyOptions.h"

#include <memory>
#include <string>
#include <vector>

namespace occlint {

/// `Inner`'s options, with HeaderFilterRegex also matching `Files` (by file
/// name: `(^|/)name\.cu$`). `Inner` unchanged when Files is empty.
std::unique_ptr<clang::tidy::ClangTidyOptionsProvider>
showDiagnosticsInFiles(std::unique_ptr<clang::tidy::ClangTidyOptionsProvider> Inner,
                       const std::vector<std::string> &Files);

} // namespace occlint
