// --line-filter's value, read into clang-tidy's global options.
#pragma once

#include "clang-tidy/ClangTidyOptions.h"
#include "llvm/ADT/StringRef.h"

#include <system_error>

namespace occlint {

/// clang-tidy's parseLineFilter, for JSON only: a value that is not a JSON
/// document is refused (invalid_argument) before it reaches clang-tidy's YAML
/// reader, which crashes on some non-JSON YAML (an alias such as `*x`: LLVM
/// 22's yaml::Input dereferences a null node in beginSequence; found by
/// tests/fuzz, fuzz-check-options).
std::error_code parseJsonLineFilter(llvm::StringRef Text, clang::tidy::ClangTidyGlobalOptions &Options);

} // namespace occlint
