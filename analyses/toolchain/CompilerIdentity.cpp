#include "toolchain/CompilerIdentity.h"

#include "toolchain/ResultCache.h"
#include "toolchain/Subprocess.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <sys/stat.h>

namespace occlint {

namespace fs = std::filesystem;

namespace {

std::string trimmedOutput(std::string s, size_t maxChars) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  if (s.size() > maxChars)
    s = "..." + s.substr(s.size() - maxChars);
  return s;
}

} // namespace

std::string compilerIdentityKey(const std::string &binary) {
  struct stat st{};
  if (::stat(binary.c_str(), &st) != 0)
    return {};
  return "occlint-compiler-identity 1\n" + binary + "\n" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + "\n" + std::to_string(st.st_size);
}

std::optional<std::string> compilerIdentity(const std::string &binary, std::chrono::seconds timeout,
                                            const std::string &cacheDir, bool useCache, std::string *error) {
  static std::mutex mu;
  static std::map<std::string, std::string> known; // key (or the path, when unstat-able) -> identity
  const std::string key = compilerIdentityKey(binary);
  const std::string memoKey = key.empty() ? binary : key;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = known.find(memoKey); it != known.end())
      return it->second;
  }
  const bool persistent = useCache && !key.empty();
  if (persistent) {
    // No dependencies: the key already names the binary's size and mtime.
    if (auto hit = ResultCache(cacheDir).lookup(key)) {
      std::lock_guard<std::mutex> lock(mu);
      return known.emplace(memoKey, *hit).first->second;
    }
  }
  SubprocessOptions opt;
  opt.timeout = std::min<std::chrono::seconds>(timeout, std::chrono::seconds(30));
  std::error_code ec;
  opt.workingDirectory = fs::temp_directory_path(ec).string(); // never the checkout occlint runs in
  if (ec)
    opt.workingDirectory = "/tmp";
  auto r = runSubprocess({binary, "--version"}, opt);
  if (!r.ok()) {
    if (error) {
      std::string detail = trimmedOutput(r.err, 4000);
      *error = "cannot get the version of " + binary + ": " + r.describe() + (detail.empty() ? "" : ": " + detail);
    }
    return std::nullopt;
  }
  std::string identity = trimmedOutput(r.out + r.err, 1u << 16);
  if (persistent)
    ResultCache(cacheDir).store(key, {}, identity); // best effort: a failed store is a later miss
  std::lock_guard<std::mutex> lock(mu);
  return known.emplace(memoKey, identity).first->second;
}

} // namespace occlint
