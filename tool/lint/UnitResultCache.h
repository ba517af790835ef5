// The result cache of a lint run: each file's findings and facts, as its
// isolated analysis sent them back (lint/WorkerMessages.h), kept in occlint's
// cache directory (toolchain/ResultCache.h) and given again while nothing they
// depend on changed. docs/result-cache.md.
//
// What an entry depends on, and how each is checked:
//  - in its key (text compared whole): occlint itself (occlintIdentity), the
//    run's settings that change findings, the file, its per-arch commands as
//    occlint parses them, and its clang-tidy configuration (checks, every
//    check option, Targets from --gpu, ExtraArgs: .clang-tidy files included);
//  - the content of every file its parses read (the main file, every header),
//    hashed again on each lookup: an edit, a deleted file, an unreadable one
//    is a miss;
//  - what it asked outside the parse, asked again on each lookup and
//    compared: each resource report it used (the ptxas report as the checks
//    see it) and each nvcc verdict on a parse with errors.
// A hit is checked in the process that would have analysed the file, so
// that the resource reports it asks for are the ones that process would
// have used. A header that appears earlier on the include path, shadowing
// one the file read, is not noticed (as with ccache's direct mode).
#pragma once

#include "lint/WorkerMessages.h"

#include "facts/ResourceReports.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

/// occlint's version, its executable's content (hashed) and the build ids of
/// the shared libraries it loaded (LLVM, Clang): another build of occlint or
/// of its libraries is another identity. Computed once per process.
const std::string &occlintIdentity();

/// The key text of a file's entry.
std::string unitResultKey(const std::string &File, const std::vector<clang::tooling::CompileCommand> &Commands,
                          const std::string &Configuration, const std::string &RunSettings);

/// A resource report as the checks see it, hashed: equal answers, equal hashes.
std::string answerOf(const clang::tidy::occlint::ResourceReportLookup &Lookup);
std::string answerOf(std::optional<bool> NvccVerdict);

/// What an analysis asked outside its parse, with the answers it got: a JSON
/// array of {"what": "report" | "verdict", "file", "arch", "answer"}.
/// Thread-safe.
class AnalysisInputs {
public:
  void add(const char *What, const std::string &File, const std::string &Arch, const std::string &Answer);
  nlohmann::json take();

private:
  std::mutex Lock;
  nlohmann::json Uses = nlohmann::json::array();
};

/// Passes every lookup on to `Inner` and records it.
class RecordingReportSource final : public clang::tidy::occlint::ResourceReportSource {
public:
  RecordingReportSource(clang::tidy::occlint::ResourceReportSource &Inner, AnalysisInputs &Inputs)
      : Inner(Inner), Inputs(Inputs) {}
  clang::tidy::occlint::ResourceReportLookup reportFor(llvm::StringRef MainFile, llvm::StringRef Arch) override;

private:
  clang::tidy::occlint::ResourceReportSource &Inner;
  AnalysisInputs &Inputs;
};

/// A stored analysis: what the child sent back and what it wrote on stderr.
struct CachedResult {
  WorkerResult result;
  std::string said;
};

class UnitResultCache {
public:
  /// `Directory` empty: ResultCache's default ($OCCLINT_CACHE_DIR, ...).
  explicit UnitResultCache(std::string Directory = {}) : Directory(std::move(Directory)) {}

  /// The result stored under Key when every file it read is unchanged and
  /// `CurrentAnswer` gives each recorded use the answer it had. A corrupt
  /// entry is a miss, and sets `Corrupt`.
  std::optional<CachedResult> lookup(const std::string &Key,
                                     const std::function<std::string(const nlohmann::json &Use)> &CurrentAnswer,
                                     bool &Corrupt) const;

  /// Stores Result (its `cache` member aside) and what its analysis wrote
  /// on stderr (`Said`) under Key with the contents of FilesRead and the
  /// recorded uses. False, and why in Error, on failure.
  bool store(const std::string &Key, const std::vector<std::string> &FilesRead, const nlohmann::json &Uses,
             const WorkerResult &Result, const std::string &Said, std::string &Error) const;

private:
  std::string Directory;
};

} // namespace occlint
