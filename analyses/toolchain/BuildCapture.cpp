#include "toolchain/BuildCapture.h"

#include "toolchain/AtomicFile.h"
#include "toolchain/Depfile.h"
#include "toolchain/LauncherCommand.h"
#include "toolchain/PtxasStream.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/ResultCache.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace occlint {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<uint64_t> fileSize(const std::string &path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return std::nullopt;
  return static_cast<uint64_t>(st.st_size);
}

std::optional<std::string> readWhole(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return ss.str();
}

template <typename T> bool get(const json &j, const char *key, T &out) {
  auto it = j.find(key);
  if (it == j.end())
    return false;
  try {
    out = it->get<T>();
    return true;
  } catch (...) {
    return false;
  }
}

/// Where execvp would find `program`: itself (made absolute) when it has a
/// '/', else the first executable file in $PATH ("" entries: `directory`).
std::string locateLikeExecvp(const std::string &program, const std::string &directory) {
  if (program.find('/') != std::string::npos)
    return absolutePathIn(program, directory);
  const char *env = std::getenv("PATH");
  std::string path = env ? env : "/bin:/usr/bin";
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = path.find(':', start);
    std::string entry = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    std::string candidate = absolutePathIn((entry.empty() ? std::string(".") : entry) + "/" + program, directory);
    struct stat st{};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos)
      break;
    start = colon + 1;
  }
  return {};
}

int64_t mtimeNs(const std::string &path) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0)
    return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

bool samePath(const std::string &a, const std::string &b) {
  if (fs::path(a).lexically_normal() == fs::path(b).lexically_normal())
    return true;
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

} // namespace

std::string sidecarPathForObject(const std::string &object) { return object + ".occlint.json"; }

std::optional<std::string> sidecarPathForCommand(const std::vector<std::string> &argv, const std::string &directory) {
  CompileInvocation inv = analyzeCompileCommand(argv, directory);
  if (inv.output.empty())
    return std::nullopt;
  return sidecarPathForObject(absolutePathIn(inv.output, directory));
}

std::optional<std::vector<CapturedFile>> describeFiles(const std::vector<std::string> &paths, std::string *error) {
  std::vector<CapturedFile> files;
  for (const std::string &p : paths) {
    auto size = fileSize(p);
    auto hash = size ? hashFileContents(p) : std::nullopt;
    if (!hash) {
      if (error)
        *error = "cannot read " + p;
      return std::nullopt;
    }
    files.push_back({p, *size, hashHex(*hash)});
  }
  return files;
}

std::optional<CapturedCompiler> describeCompiler(const std::string &path, const std::string &kind) {
  struct stat st{};
  if (path.empty() || ::stat(path.c_str(), &st) != 0)
    return std::nullopt;
  CapturedCompiler c;
  c.path = path;
  c.kind = kind;
  c.size = static_cast<uint64_t>(st.st_size);
  c.mtimeNs = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return c;
}

std::string serializeBuildCapture(const BuildCapture &c) {
  json j;
  j["format"] = kBuildCaptureFormat;
  j["version"] = c.version;
  j["source"] = c.source;
  j["object"] = c.object;
  j["directory"] = c.directory;
  j["compiler"] = {
      {"path", c.compiler.path}, {"kind", c.compiler.kind}, {"size", c.compiler.size}, {"mtimeNs", c.compiler.mtimeNs}};
  j["launchers"] = c.launchers;
  j["arguments"] = c.arguments;
  j["reportRequested"] = c.reportRequested;
  j["ptxas"] = json::object();
  for (const auto &[arch, log] : c.ptxasLogs)
    j["ptxas"][arch] = log;
  j["dependencies"] = json::array();
  for (const CapturedFile &f : c.dependencies)
    j["dependencies"].push_back({{"path", f.path}, {"size", f.size}, {"fnv1a64", f.fnv1a64}});
  if (!c.lint.empty()) {
    json lint = json::parse(c.lint, nullptr, /*allow_exceptions=*/false);
    if (lint.is_object())
      j["lint"] = std::move(lint);
  }
  // Bytes that are not UTF-8 (a path, a log line) become U+FFFD rather than an exception.
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::optional<BuildCapture> parseBuildCapture(std::string_view text, std::string *error) {
  auto fail = [&](const std::string &why) -> std::optional<BuildCapture> {
    if (error)
      *error = why;
    return std::nullopt;
  };
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object())
    return fail("not a JSON object");
  std::string format;
  if (!get(j, "format", format) || format != kBuildCaptureFormat)
    return fail("not an occlint sidecar");
  BuildCapture c;
  if (!get(j, "version", c.version) || c.version != kBuildCaptureVersion)
    return fail("sidecar format version " + std::to_string(c.version) + ", expected " +
                std::to_string(kBuildCaptureVersion));
  const json *compiler = j.contains("compiler") && j["compiler"].is_object() ? &j["compiler"] : nullptr;
  if (!get(j, "source", c.source) || !get(j, "object", c.object) || !get(j, "directory", c.directory) || !compiler ||
      !get(*compiler, "path", c.compiler.path) || !get(*compiler, "kind", c.compiler.kind) ||
      !get(*compiler, "size", c.compiler.size) || !get(*compiler, "mtimeNs", c.compiler.mtimeNs) ||
      !get(j, "launchers", c.launchers) || !get(j, "arguments", c.arguments) ||
      !get(j, "reportRequested", c.reportRequested) || !get(j, "ptxas", c.ptxasLogs))
    return fail("a field is missing or has the wrong type");
  auto deps = j.find("dependencies");
  if (deps == j.end() || !deps->is_array())
    return fail("no dependencies");
  for (const json &d : *deps) {
    CapturedFile f;
    if (!d.is_object() || !get(d, "path", f.path) || !get(d, "size", f.size) || !get(d, "fnv1a64", f.fnv1a64))
      return fail("a dependency is malformed");
    c.dependencies.push_back(std::move(f));
  }
  if (auto lint = j.find("lint"); lint != j.end()) {
    if (!lint->is_object())
      return fail("'lint' is not an object");
    c.lint = lint->dump(-1, ' ', false, json::error_handler_t::replace);
  }
  return c;
}

bool writeBuildCapture(const std::string &path, const BuildCapture &capture, std::string *error) {
  auto fail = [&](const std::string &why) {
    if (error)
      *error = why;
    return false;
  };
  try {
    const std::string text = serializeBuildCapture(capture);
    return writeFileAtomically(path, text, error);
  } catch (const std::exception &e) {
    return fail(e.what());
  }
}

std::optional<BuildCapture> readBuildCapture(const std::string &path, std::string *error) {
  auto text = readWhole(path);
  if (!text) {
    if (error)
      *error = "cannot read " + path;
    return std::nullopt;
  }
  std::string why;
  auto c = parseBuildCapture(*text, &why);
  if (!c && error)
    *error = path + ": " + why;
  return c;
}

std::string staleReason(const BuildCapture &capture, const BuildCaptureExpectation &expect) {
  if (!expect.source.empty() && !samePath(capture.source, expect.source))
    return "the sidecar is of " + capture.source + ", not " + expect.source;
  if (expect.arguments) {
    if (normalizedCompileArguments(capture.arguments) != normalizedCompileArguments(*expect.arguments))
      return "the build ran another command than the compile database's";
    if (!expect.directory.empty() && !samePath(expect.directory, capture.directory))
      return "the build ran in " + capture.directory + ", the compile database says " + expect.directory;
  }
  auto compiler = describeCompiler(capture.compiler.path, capture.compiler.kind);
  if (!compiler)
    return "the compiler " + capture.compiler.path + " is gone";
  if (compiler->size != capture.compiler.size || compiler->mtimeNs != capture.compiler.mtimeNs)
    return "the compiler " + capture.compiler.path + " changed";
  for (const CapturedFile &f : capture.dependencies) {
    auto size = fileSize(f.path);
    if (!size)
      return f.path + " is gone or unreadable";
    if (*size != f.size)
      return f.path + " changed";
    auto hash = hashFileContents(f.path);
    if (!hash)
      return f.path + " is unreadable";
    if (hashHex(*hash) != f.fnv1a64)
      return f.path + " changed";
  }
  return {};
}

std::string recordFinishedCompile(const FinishedCompile &fc, const RecordOptions &options) {
  try {
    CompileInvocation inv = analyzeCompileCommand(fc.command, fc.directory);
    if (!inv.capturable)
      return {};
    std::map<std::string, std::string> logs = splitPtxasLogByArch(fc.ptxasLog, inv.sassArchs);
    if (logs.empty())
      return {}; // no ptxas ran (PTX-only, -dlto): nothing to keep
    const std::string source = absolutePathIn(inv.source, fc.directory);
    const std::string lost = ": no resource report kept for " + source;
    if (fc.depfile.empty())
      return "the compile wrote no dependency file" + lost;
    auto text = readWhole(fc.depfile);
    std::error_code ec;
    // A compiler cache's hit that does not restore the dependency file: nothing
    // new to keep (the capture of the compile it replays still serves).
    if (!text && inv.compilerIndex > 0 && !fs::exists(fc.depfile, ec))
      return {};
    if (!text)
      return "cannot read the dependency file " + fc.depfile + lost;
    std::vector<std::string> deps = parseDepfile(*text, fc.directory);
    if (std::find(deps.begin(), deps.end(), source) == deps.end())
      deps.push_back(source);
    // A file edited while the compiler read it: what it read is unknown, and
    // the build is out of date anyway (it compiles again next time).
    for (const std::string &d : deps) {
      int64_t m = mtimeNs(d);
      if (m > fc.startNs && m <= fc.endNs)
        return {};
    }
    std::string error;
    auto files = describeFiles(deps, &error);
    if (!files)
      return error + lost;
    // Each file hashed once, for the sidecar and every cache entry.
    std::vector<std::pair<std::string, std::optional<uint64_t>>> hashed;
    for (const CapturedFile &f : *files)
      hashed.emplace_back(f.path, std::stoull(f.fnv1a64, nullptr, 16));

    std::vector<std::string> problems;
    if (options.sidecar && !inv.output.empty() && inv.output != "-") {
      BuildCapture c;
      c.source = source;
      c.object = absolutePathIn(inv.output, fc.directory);
      c.directory = fc.directory;
      const std::string &compiler = fc.command[inv.compilerIndex];
      auto identity = describeCompiler(locateLikeExecvp(compiler, fc.directory),
                                       inv.kind == LaunchedCompiler::Nvcc ? "nvcc" : "clang");
      c.launchers.assign(fc.command.begin(), fc.command.begin() + static_cast<std::ptrdiff_t>(inv.compilerIndex));
      c.arguments.assign(fc.command.begin() + static_cast<std::ptrdiff_t>(inv.compilerIndex), fc.command.end());
      c.reportRequested = inv.reportRequested;
      c.ptxasLogs = logs;
      c.dependencies = std::move(*files);
      const std::string path = sidecarPathForObject(c.object);
      if (!identity)
        problems.push_back("cannot find the compiler " + compiler + ": no sidecar written");
      else {
        c.compiler = *identity;
        if (!writeBuildCapture(path, c, &error))
          problems.push_back("cannot write the sidecar: " + error);
      }
    }
    if (options.cache) {
      ResultCache cache(options.cacheDir);
      for (const auto &[arch, log] : logs)
        if (!cache.storeHashed(latestReportKey(source, arch), hashed, log, &error)) {
          problems.push_back("cannot store the report in occlint's cache " + cache.directory() + ": " + error);
          break;
        }
    }
    std::string joined;
    for (const std::string &p : problems)
      joined += (joined.empty() ? "" : "; ") + p;
    return joined;
  } catch (const std::exception &e) {
    return std::string("internal error: ") + e.what();
  } catch (...) {
    return "internal error";
  }
}

LoadedBuildCapture loadBuildCapture(const std::string &sidecarPath, const BuildCaptureExpectation &expect) {
  LoadedBuildCapture r;
  try {
    std::error_code ec;
    if (!fs::exists(sidecarPath, ec)) {
      r.reason = "no sidecar " + sidecarPath;
      return r;
    }
    std::string why;
    auto c = readBuildCapture(sidecarPath, &why);
    if (!c) {
      r.reason = why;
      return r;
    }
    r.found = true;
    r.capture = std::move(*c);
    r.reason = staleReason(r.capture, expect);
    r.current = r.reason.empty();
    if (r.current)
      r.ptxasLogs = r.capture.ptxasLogs;
  } catch (const std::exception &e) {
    r.current = false;
    r.reason = std::string("internal error: ") + e.what();
  }
  return r;
}

LoadedBuildCapture loadBuildCaptureForCommand(const std::vector<std::string> &argv, const std::string &directory,
                                              const std::string &sourceFile) {
  auto path = sidecarPathForCommand(argv, directory);
  if (!path) {
    LoadedBuildCapture r;
    r.reason = "the command names no object (-o)";
    return r;
  }
  BuildCaptureExpectation expect;
  expect.source = absolutePathIn(sourceFile, directory);
  expect.arguments = &argv;
  expect.directory = directory;
  return loadBuildCapture(*path, expect);
}

} // namespace occlint
