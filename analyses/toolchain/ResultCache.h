// An on-disk cache of compiler results (ptxas resource logs), keyed by a hash
// of everything that changes the result. See docs/resource-reports.md.
//
// Layout: <dir>/v1/<16 hex digits>.json, one JSON object per entry:
//   { "format": 1, "key": "<full key text>",
//     "dependencies": [ {"path": "/abs/a.cuh", "size": 123, "fnv1a64": "..."} ],
//     "payload": "<stored text>" }
// The file name is the FNV-1a 64 hash of the key text; the full key text is
// stored and compared too, so a hash collision is a miss, not a wrong answer.
// Dependencies (the source and every file it includes) are validated on
// lookup by re-hashing their contents: a changed, missing or unreadable
// dependency makes the entry a miss. Writes go to a temporary file in the
// same directory, then rename(2) -- readers never see half an entry. An entry
// that does not parse is a miss. A hit renews the entry's modification time,
// which is what evictLeastRecentlyUsed orders by. Nothing here throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace occlint {

/// FNV-1a, 64 bit. Stable across platforms and runs.
uint64_t fnv1a64(std::string_view data, uint64_t hash = 0xcbf29ce484222325ULL);
/// 16 lower-case hex digits.
std::string hashHex(uint64_t hash);
/// FNV-1a 64 of a file's contents; nullopt when it cannot be read.
std::optional<uint64_t> hashFileContents(const std::string &path);

class ResultCache {
public:
  /// `directory` empty = defaultDirectory().
  explicit ResultCache(std::string directory = {});

  /// $OCCLINT_CACHE_DIR, else $XDG_CACHE_HOME/occlint, else $HOME/.cache/occlint,
  /// else <tmp>/occlint-cache.
  static std::string defaultDirectory();

  const std::string &directory() const { return dir_; }
  /// Where the entry for this key lives (whether or not it exists).
  std::string entryPath(std::string_view keyText) const;

  /// The payload stored for keyText, if the entry exists, parses, has this
  /// exact key, and every dependency still has the content it had. Given
  /// `corrupt`, it says whether a miss was an entry that exists but does not
  /// parse as one (cut short, not occlint's).
  std::optional<std::string> lookup(std::string_view keyText, bool *corrupt = nullptr) const;

  /// Stores payload under keyText with the dependencies' current content
  /// hashes (a dependency that cannot be read is stored as such and makes
  /// later lookups miss). Returns false (and says why in *error) on failure.
  bool store(std::string_view keyText, const std::vector<std::string> &dependencies, std::string_view payload,
             std::string *error = nullptr) const;
  /// The same with the dependencies' content hashes already computed
  /// (hashFileContents; nullopt = unreadable): the compiler launcher hashes
  /// each file once for its sidecar and all its entries.
  bool storeHashed(std::string_view keyText,
                   const std::vector<std::pair<std::string, std::optional<uint64_t>>> &dependencies,
                   std::string_view payload, std::string *error = nullptr) const;

  /// The most bytes the entries may take: $OCCLINT_CACHE_MAX_MB megabytes,
  /// else 1024. nullopt, with the default in *fallback, when the variable is
  /// set but not a positive whole number of megabytes.
  static std::optional<uint64_t> maxBytesFromEnvironment(uint64_t *fallback = nullptr);

  /// When the entries take more than maxBytes: removes the least recently
  /// used ones (by modification time, which a hit renews) until they take at
  /// most 90 % of it. Returns how many were removed. Safe beside other
  /// processes using the cache (a removed entry is a later miss). Never throws.
  size_t evictLeastRecentlyUsed(uint64_t maxBytes) const;

private:
  std::string dir_;
};

} // namespace occlint
