// What the fuzz targets share: a private scratch directory (the only place a
// target writes), where occlint's cache and user config directories point
// too, and the splitting of one input into several parts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace occlint::fuzz {

/// This process's scratch directory, created before main under $TMPDIR (or
/// /tmp) and removed at exit. OCCLINT_CACHE_DIR, XDG_CACHE_HOME and
/// XDG_CONFIG_HOME point inside it, so no target reads or writes the user's.
const std::string &scratchDir();

/// Source-only mode for the targets that run the checks: CUDA_PATH names a
/// directory of the scratch directory without bin/ptxas (and no --cuda-path
/// is given), whatever toolkit the machine has. Call from
/// LLVMFuzzerInitialize.
void useNoCudaToolkit();

/// The input split at NUL bytes into at most `MaxParts` parts (the last part
/// keeps any further NULs).
std::vector<std::string> splitParts(std::string_view Input, size_t MaxParts);

/// Writes `Text` to `Path` (truncating).
void writeFile(const std::string &Path, std::string_view Text);

inline std::string_view asText(const uint8_t *Data, size_t Size) {
  return std::string_view(reinterpret_cast<const char *>(Data), Size);
}

} // namespace occlint::fuzz
