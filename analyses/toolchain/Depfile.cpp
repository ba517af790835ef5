#include "toolchain/Depfile.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace occlint {

namespace fs = std::filesystem;

std::string absolutePathIn(const std::string &path, const std::string &directory) {
  if (path.empty() || path[0] == '/')
    return path;
  std::error_code ec;
  fs::path base = directory.empty() ? fs::current_path(ec) : fs::path(directory);
  return (base / path).lexically_normal().string();
}

std::vector<std::string> parseDepfile(const std::string &text, const std::string &dir) {
  std::vector<std::string> deps;
  std::string tok;
  bool inPrereqs = false;
  auto flush = [&]() {
    if (tok.empty())
      return;
    if (inPrereqs)
      deps.push_back(absolutePathIn(tok, dir));
    tok.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      char n = text[i + 1];
      if (n == '\n') {
        flush();
        ++i;
        continue;
      }
      if (n == '\r' && i + 2 < text.size() && text[i + 2] == '\n') {
        flush();
        i += 2;
        continue;
      }
      if (n == ' ' || n == '#' || n == '\\') {
        tok += n;
        ++i;
        continue;
      }
      tok += c;
      continue;
    }
    if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      tok += '$';
      ++i;
      continue;
    }
    if (c == '\n') {
      flush();
      inPrereqs = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      flush();
      continue;
    }
    if (c == ':' && !inPrereqs && (i + 1 == text.size() || std::isspace(static_cast<unsigned char>(text[i + 1])))) {
      tok.clear(); // the target
      inPrereqs = true;
      continue;
    }
    tok += c;
  }
  flush();
  std::sort(deps.begin(), deps.end());
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  return deps;
}

} // namespace occlint
