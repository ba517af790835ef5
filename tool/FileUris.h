// file:// URIs and relative URI references for local paths, as the
// documentation links (CheckCatalog) and SARIF's artifact locations need them.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace occlint {

/// `Path` with every byte but the unreserved characters (A-Z a-z 0-9 - . _ ~)
/// and '/' percent-encoded: a URI path, absolute or relative.
std::string percentEncodePath(llvm::StringRef Path);

/// "file:///abs/path" for an absolute POSIX path ("file:///a%20b" for "/a b").
std::string fileUri(llvm::StringRef AbsolutePath);

} // namespace occlint
