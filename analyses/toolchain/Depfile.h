// Make-style dependency files (what `-M`, `-MD -MF F` write): the files a
// compile read. Used by the resource compiles (ResourceCompiler.cpp) and the
// compiler launcher (BuildCapture.cpp). Nothing here throws.
#pragma once

#include <string>
#include <vector>

namespace occlint {

/// `path` made absolute against `directory` ("" = our working directory) and
/// lexically normalized; an absolute `path` is returned unchanged.
std::string absolutePathIn(const std::string &path, const std::string &directory);

/// The prerequisites of every rule in `text` (the targets are skipped), each
/// made absolute against `directory`, sorted, without duplicates. Reads
/// escaped spaces (`\ `), `$$`, line continuations (`\` newline, CRLF too).
std::vector<std::string> parseDepfile(const std::string &text, const std::string &directory);

} // namespace occlint
