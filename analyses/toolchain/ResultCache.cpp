#include "toolchain/ResultCache.h"

#include "toolchain/AtomicFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace occlint {

namespace fs = std::filesystem;

uint64_t fnv1a64(std::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hashHex(uint64_t hash) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

std::optional<uint64_t> hashFileContents(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  uint64_t h = 0xcbf29ce484222325ULL;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    std::streamsize got = in.gcount();
    if (got > 0)
      h = fnv1a64(std::string_view(buf, static_cast<size_t>(got)), h);
  }
  if (in.bad())
    return std::nullopt;
  return h;
}

std::string ResultCache::defaultDirectory() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  if (auto d = env("OCCLINT_CACHE_DIR"); !d.empty())
    return d;
  if (auto d = env("XDG_CACHE_HOME"); !d.empty())
    return d + "/occlint";
  if (auto d = env("HOME"); !d.empty())
    return d + "/.cache/occlint";
  std::error_code ec;
  return (fs::temp_directory_path(ec) / "occlint-cache").string();
}

ResultCache::ResultCache(std::string directory) : dir_(directory.empty() ? defaultDirectory() : std::move(directory)) {}

std::string ResultCache::entryPath(std::string_view keyText) const {
  return dir_ + "/v1/" + hashHex(fnv1a64(keyText)) + ".json";
}

std::optional<std::string> ResultCache::lookup(std::string_view keyText, bool *corrupt) const {
  if (corrupt)
    *corrupt = false;
  // An entry that exists but is not one of ours, or not whole.
  auto bad = [corrupt]() -> std::optional<std::string> {
    if (corrupt)
      *corrupt = true;
    return std::nullopt;
  };
  try {
    const std::string path = entryPath(keyText);
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || j.value("format", 0) != 1)
      return bad();
    auto key = j.find("key");
    auto payload = j.find("payload");
    auto deps = j.find("dependencies");
    if (key == j.end() || !key->is_string())
      return bad();
    if (key->get<std::string>() != keyText)
      return std::nullopt; // a hash collision
    if (payload == j.end() || !payload->is_string())
      return bad();
    if (deps == j.end() || !deps->is_array())
      return bad();
    for (const auto &d : *deps) {
      if (!d.is_object() || !d.contains("path") || !d["path"].is_string() || !d.contains("fnv1a64") ||
          !d["fnv1a64"].is_string())
        return bad();
      auto h = hashFileContents(d["path"].get<std::string>());
      if (!h || hashHex(*h) != d["fnv1a64"].get<std::string>())
        return std::nullopt;
    }
    std::error_code ignored; // a read-only cache still answers
    fs::last_write_time(path, fs::file_time_type::clock::now(), ignored);
    return payload->get<std::string>();
  } catch (...) {
    return std::nullopt;
  }
}

std::optional<uint64_t> ResultCache::maxBytesFromEnvironment(uint64_t *fallback) {
  constexpr uint64_t defaultBytes = uint64_t(1024) << 20;
  if (fallback)
    *fallback = defaultBytes;
  const char *v = std::getenv("OCCLINT_CACHE_MAX_MB");
  if (!v || !*v)
    return defaultBytes;
  uint64_t mb = 0;
  for (const char *c = v; *c; ++c) {
    if (*c < '0' || *c > '9' || mb > (uint64_t(1) << 40))
      return std::nullopt;
    mb = mb * 10 + uint64_t(*c - '0');
  }
  if (mb == 0)
    return std::nullopt;
  return mb << 20;
}

size_t ResultCache::evictLeastRecentlyUsed(uint64_t maxBytes) const {
  try {
    struct Entry {
      fs::file_time_type used;
      uint64_t bytes;
      fs::path path;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    std::error_code ec;
    for (const fs::directory_entry &e : fs::directory_iterator(dir_ + "/v1", ec)) {
      std::error_code one;
      if (e.path().extension() != ".json" || !e.is_regular_file(one))
        continue;
      const uint64_t bytes = e.file_size(one);
      const fs::file_time_type used = e.last_write_time(one);
      if (one)
        continue; // gone meanwhile
      entries.push_back({used, bytes, e.path()});
      total += bytes;
    }
    if (total <= maxBytes)
      return 0;
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return a.used < b.used; });
    const uint64_t target = maxBytes / 10 * 9;
    size_t removed = 0;
    for (const Entry &e : entries) {
      if (total <= target)
        break;
      std::error_code one;
      if (fs::remove(e.path, one))
        ++removed;
      total -= e.bytes; // removed here or by another process
    }
    return removed;
  } catch (...) {
    return 0;
  }
}

bool ResultCache::store(std::string_view keyText, const std::vector<std::string> &dependencies,
                        std::string_view payload, std::string *error) const {
  std::vector<std::pair<std::string, std::optional<uint64_t>>> hashed;
  for (const auto &d : dependencies)
    hashed.emplace_back(d, hashFileContents(d));
  return storeHashed(keyText, hashed, payload, error);
}

bool ResultCache::storeHashed(std::string_view keyText,
                              const std::vector<std::pair<std::string, std::optional<uint64_t>>> &dependencies,
                              std::string_view payload, std::string *error) const {
  auto fail = [&](const std::string &why) {
    if (error)
      *error = why;
    return false;
  };
  try {
    nlohmann::json j;
    j["format"] = 1;
    j["key"] = std::string(keyText);
    j["dependencies"] = nlohmann::json::array();
    for (const auto &[d, h] : dependencies) {
      // An unreadable dependency is stored with an impossible hash: always a miss.
      j["dependencies"].push_back({{"path", d}, {"fnv1a64", h ? hashHex(*h) : std::string("unreadable")}});
    }
    j["payload"] = std::string(payload);
    std::string text = j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);

    std::string path = entryPath(keyText);
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    if (ec)
      return fail("cannot create " + fs::path(path).parent_path().string() + ": " + ec.message());
    return writeFileAtomically(path, text, error);
  } catch (const std::exception &e) {
    return fail(e.what());
  } catch (...) {
    return fail("unknown error");
  }
}

} // namespace occlint
