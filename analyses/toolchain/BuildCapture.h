// What the compiler launcher (occlint-wrap, docs/build-integration.md) keeps
// from a build's compile: the sidecar `<object>.occlint.json` next to the
// object, with the ptxas report of every arch, the command, the compiler's
// identity and every file the compile read; writing it (atomically), reading
// it back, and deciding whether it still describes the sources.
//
// Sidecar, format version 1 (a JSON object):
//   { "format": "occlint-build-capture", "version": 1,
//     "source": "/abs/src/a.cu",            // the CUDA source, absolute
//     "object": "/abs/build/a.cu.o",        // -o, absolute
//     "directory": "/abs/build",            // the compile's working directory
//     "compiler": { "path": "/usr/local/cuda/bin/nvcc", "kind": "nvcc",
//                   "size": 123, "mtimeNs": 1700000000123456789 },
//     "launchers": ["ccache"],              // what ran the compiler (may be empty)
//     "arguments": ["/usr/local/cuda/bin/nvcc", "-c", ...], // as the build ran it:
//                                           // no launcher, nothing occlint-wrap added
//     "reportRequested": false,             // the build itself asked for ptxas -v
//     "ptxas": { "sm_80": "<raw ptxas log of sm_80>", "sm_90": "..." },
//     "dependencies": [ { "path": "/abs/src/a.cu", "size": 812, "fnv1a64": "0123456789abcdef" }, ... ],
//     "lint": { ... } }                    // optional: what `occlint wrap --lint` found
//                                          // (tool/buildlint/WrapLint.cpp), for `occlint merge`
//
// A sidecar is current when every dependency has the size and content hash
// it had (re-hashed), the compiler file has the size and mtime it had and,
// when asked, the command equals the compile database's (launchers and
// dependency-file flags aside: normalizedCompileArguments).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

inline constexpr int kBuildCaptureVersion = 1;
inline constexpr std::string_view kBuildCaptureFormat = "occlint-build-capture";

struct CapturedFile {
  std::string path; // absolute
  uint64_t size = 0;
  std::string fnv1a64; // 16 hex digits (hashHex of hashFileContents)
};

struct CapturedCompiler {
  std::string path;  // absolute, as found (a symlink stays one)
  std::string kind;  // "nvcc" or "clang"
  uint64_t size = 0; // of the file it names (symlinks followed)
  int64_t mtimeNs = 0;
};

struct BuildCapture {
  int version = kBuildCaptureVersion;
  std::string source;
  std::string object;
  std::string directory;
  CapturedCompiler compiler;
  std::vector<std::string> launchers;
  std::vector<std::string> arguments;
  bool reportRequested = false;
  std::map<std::string, std::string> ptxasLogs; // arch -> raw log
  std::vector<CapturedFile> dependencies;
  /// The lint of the translation unit in the build step (`occlint wrap
  /// --lint`): a JSON object kept as text (its schema is the tool's, not the
  /// core's); "" when the build did not lint.
  std::string lint;
};

/// `<object>.occlint.json`.
std::string sidecarPathForObject(const std::string &object);

/// The sidecar of a compile command (as in compile_commands.json, launchers
/// allowed): its -o made absolute against `directory`; nullopt without -o.
std::optional<std::string> sidecarPathForCommand(const std::vector<std::string> &argv, const std::string &directory);

/// The size and content hash of each file (absolute paths); nullopt, naming
/// the file in *error, when one cannot be read.
std::optional<std::vector<CapturedFile>> describeFiles(const std::vector<std::string> &paths,
                                                       std::string *error = nullptr);

/// The identity of the compiler file at `path`; nullopt when it cannot be stat'ed.
std::optional<CapturedCompiler> describeCompiler(const std::string &path, const std::string &kind);

std::string serializeBuildCapture(const BuildCapture &capture);
/// nullopt (with *error) for text that is not a sidecar of this format version.
std::optional<BuildCapture> parseBuildCapture(std::string_view text, std::string *error = nullptr);

/// Writes the sidecar at `path` through a temporary file in the same
/// directory and rename(2): readers see the old file or the new one, never a
/// part. False, with *error, on failure (the temporary file is removed).
bool writeBuildCapture(const std::string &path, const BuildCapture &capture, std::string *error = nullptr);
std::optional<BuildCapture> readBuildCapture(const std::string &path, std::string *error = nullptr);

/// What a caller expects the sidecar to describe (each part optional).
struct BuildCaptureExpectation {
  std::string source; // the absolute source; "" = any
  /// The compile database's command for it; nullptr = not compared.
  const std::vector<std::string> *arguments = nullptr;
  std::string directory; // its directory; "" = not compared
};

/// "" when `capture` is current for `expect`; else the first reason it is
/// not, one line ("/abs/a.cuh changed", "the compiler changed: ...").
std::string staleReason(const BuildCapture &capture, const BuildCaptureExpectation &expect = {});

struct LoadedBuildCapture {
  bool found = false;   // a sidecar of this format was read
  bool current = false; // ... and staleReason found nothing
  std::string reason;   // when !current: why (missing, unreadable, stale)
  BuildCapture capture; // what was read (when found)
  /// arch -> raw ptxas log; only when current.
  std::map<std::string, std::string> ptxasLogs;
};

/// Reads and checks the sidecar at `sidecarPath`.
LoadedBuildCapture loadBuildCapture(const std::string &sidecarPath, const BuildCaptureExpectation &expect = {});

/// What the launcher knows after a compile that succeeded.
struct FinishedCompile {
  std::vector<std::string> command; // as the launcher got it: launchers, compiler, arguments
  std::string directory;            // its working directory, absolute
  std::string ptxasLog;             // every ptxas line the compiler printed (PtxasStderrFilter::log)
  std::string depfile;              // the dependency file it wrote, absolute; "" = none
  int64_t startNs = 0, endNs = 0;   // when it ran (CLOCK_REALTIME)
};

struct RecordOptions {
  bool sidecar = true;  // write <object>.occlint.json (when the command has -o)
  bool cache = true;    // store each arch's log under latestReportKey
  std::string cacheDir; // "" = ResultCache::defaultDirectory() ($OCCLINT_CACHE_DIR...)
};

/// Writes the sidecar and the cache entries of a finished compile. Nothing
/// is written when the compiler printed no ptxas report (a PTX-only or
/// -dlto build), or when a dependency changed while it ran (the build is
/// out of date and will compile again). Returns "" or, when its own
/// bookkeeping failed (no dependency file, an unwritable sidecar...), one
/// line saying what (no prefix, no newline).
std::string recordFinishedCompile(const FinishedCompile &compile, const RecordOptions &options = {});

/// For `occlint -p`: the sidecar of a compile database entry (its -o), read and
/// checked against the entry's source, command and directory.
LoadedBuildCapture loadBuildCaptureForCommand(const std::vector<std::string> &argv, const std::string &directory,
                                              const std::string &sourceFile);

} // namespace occlint
