// Writing a file so that no reader ever sees half of it: the text goes to a
// temporary file in the same directory, then rename(2) replaces the target.
// Used by the result cache and by the compiler launcher's sidecars, both read
// by other processes while a build or a lint runs.
#pragma once

#include <string>
#include <string_view>

namespace occlint {

/// Writes `text` to `path` atomically. false (and why in *error) when the
/// temporary file cannot be written or renamed; the temporary is removed
/// then. The directory must exist. Never throws.
bool writeFileAtomically(const std::string &path, std::string_view text, std::string *error = nullptr);

} // namespace occlint
