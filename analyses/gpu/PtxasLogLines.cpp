#include "gpu/PtxasLogLines.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace occlint::ptxaslines {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

bool endsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

/// Parses a non-negative decimal; "a+b" (old ptxas "8+0 bytes lmem") sums.
std::optional<int64_t> parseNumber(std::string_view s) {
  s = trim(s);
  if (s.empty())
    return std::nullopt;
  int64_t total = 0;
  while (!s.empty()) {
    int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || v < 0)
      return std::nullopt;
    if (total > INT64_MAX - v)
      return std::nullopt;
    total += v;
    s.remove_prefix(static_cast<size_t>(r.ptr - s.data()));
    if (s.empty())
      break;
    if (s.front() != '+')
      return std::nullopt;
    s.remove_prefix(1);
  }
  return total;
}

int clampInt(int64_t v) { return v > INT32_MAX ? INT32_MAX : static_cast<int>(v); }

/// The text after "<tool> <kind> :" in "ptxas info    : Used 8 registers".
std::optional<std::string_view> afterTag(std::string_view line, std::string_view tool, std::string_view kind) {
  size_t pos = line.find(tool);
  while (pos != std::string_view::npos) {
    std::string_view rest = line.substr(pos + tool.size());
    size_t i = 0;
    while (i < rest.size() && rest[i] == ' ')
      ++i;
    if (i > 0 && rest.substr(i).starts_with(kind)) {
      rest = rest.substr(i + kind.size());
      size_t j = 0;
      while (j < rest.size() && rest[j] == ' ')
        ++j;
      if (j < rest.size() && rest[j] == ':')
        return trim(rest.substr(j + 1));
    }
    pos = line.find(tool, pos + 1);
  }
  return std::nullopt;
}

/// Removes a trailing "(target: sm_80)" (nvlink), returning the arch in it.
std::string_view stripTarget(std::string_view &s) {
  size_t p = s.rfind("(target:");
  if (p == std::string_view::npos)
    return {};
  std::string_view t = s.substr(p + 8);
  size_t close = t.find(')');
  std::string_view arch = trim(close == std::string_view::npos ? t : t.substr(0, close));
  s = trim(s.substr(0, p));
  return arch;
}

bool plausibleArch(std::string_view a) {
  if (a.size() < 4 || a.size() > 12 || !(a.starts_with("sm_") || a.starts_with("compute_")))
    return false;
  for (char c : a)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

/// Finds the function a ptxas warning names, if any.
std::string functionInWarning(std::string_view text) {
  for (std::string_view key : {"function '", "entry '", "kernel '"}) {
    size_t p = text.find(key);
    if (p == std::string_view::npos)
      continue;
    std::string_view rest = text.substr(p + key.size());
    size_t q = rest.find('\'');
    if (q != std::string_view::npos && q > 0)
      return std::string(rest.substr(0, q));
  }
  for (std::string_view key : {"for entry ", "for function ", "in function "}) {
    size_t p = text.find(key);
    if (p == std::string_view::npos)
      continue;
    std::string_view rest = text.substr(p + key.size());
    size_t q = 0;
    while (q < rest.size() && !std::isspace(static_cast<unsigned char>(rest[q])) && rest[q] != ',' && rest[q] != '\'')
      ++q;
    if (q > 0)
      return std::string(rest.substr(0, q));
  }
  return {};
}

/// A .cu file named by a build line: CMake/ninja "Building CUDA object
/// CMakeFiles/t.dir/src/a.cu.o", or an echoed nvcc/clang command.
std::string sourceNamedBy(std::string_view line) {
  size_t b = line.find("Building CUDA object ");
  if (b != std::string_view::npos) {
    std::string_view obj = trim(line.substr(b + 21));
    size_t sp = obj.find(' ');
    if (sp != std::string_view::npos)
      obj = obj.substr(0, sp);
    if (endsWith(obj, ".o"))
      obj.remove_suffix(2);
    else if (endsWith(obj, ".obj"))
      obj.remove_suffix(4);
    size_t dir = obj.find(".dir/");
    if (dir != std::string_view::npos)
      obj = obj.substr(dir + 5);
    return std::string(obj);
  }
  // An echoed compile command: first word is nvcc or clang(++).
  std::string_view t = trim(line);
  size_t sp = t.find(' ');
  std::string_view prog = t.substr(0, sp);
  size_t slash = prog.rfind('/');
  if (slash != std::string_view::npos)
    prog = prog.substr(slash + 1);
  if (!(prog == "nvcc" || prog.starts_with("clang") || prog == "nvcc.exe"))
    return {};
  std::string found;
  bool afterO = false;
  while (sp != std::string_view::npos) {
    t = t.substr(sp + 1);
    sp = t.find(' ');
    std::string_view w = t.substr(0, sp);
    if (w.empty())
      continue;
    if (w == "-o") {
      afterO = true;
      continue;
    }
    if (!afterO && endsWith(w, ".cu"))
      found = std::string(w);
    afterO = false;
  }
  return found;
}

} // namespace occlint::ptxaslines
