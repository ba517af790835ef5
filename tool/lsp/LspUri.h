// The paths that the Language Server Protocol's document URIs stand for: the
// inverse of fileUri (FileUris.h), for the URIs editors send (RFC 8089; POSIX
// paths only).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace occlint::lsp {

/// The path of a file: URI ("file:///a%20b/x.cu", "file://localhost/x.cu",
/// "file:/x.cu"), percent-decoded; none for other schemes (untitled:,
/// https:), a file on another host, or a bad escape.
std::optional<std::string> filePathFromUri(llvm::StringRef Uri);

} // namespace occlint::lsp
