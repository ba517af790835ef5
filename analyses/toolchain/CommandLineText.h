// Internal to the compile command translator: the small text helpers its parts
// share (comma lists, quote trimming, positive integers).
// splitCommandLine, the shell-like word splitter, is public and declared in
// toolchain/CompileCommandTranslator.h; CommandLineText.cpp defines all of them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint::translator_detail {

/// Removes every quote, square bracket, space and tab.
std::string trimQuotesAndBrackets(std::string S);

/// The non-empty items of S between separators.
std::vector<std::string> splitList(const std::string &S, char Sep = ',');

/// S as an int > 0, all of it; nullopt otherwise.
std::optional<int> parsePositiveInt(std::string_view S);

} // namespace occlint::translator_detail
