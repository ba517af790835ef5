// The resource reports the occlint binary gives the checks
// (clang::tidy::occlint::ResourceReportSource): the --ptxas-log files when
// given, else the device compile of the file with its own, untranslated
// compile command (ResourceCompiler, cached on disk), else nothing, and the
// checks estimate from the source. docs/resource-reports.md, "In a lint run".
#pragma once

#include "facts/ResourceReports.h"
#include "gpu/PtxasReport.h"
#include "toolchain/CompileCommandTranslator.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace occlint {

struct LoadedBuildCapture; // toolchain/BuildCapture.h

struct ToolResourceSettings {
  std::optional<std::string> cudaPath;      // the toolkit found; none: estimates only
  bool noCompile = false;                   // --no-compile: never run the compiler
  std::string cacheDir;                     // empty: ResultCache's default
  bool cacheOnly = false;                   // start no process: the cache's latest report, else estimates
  std::chrono::seconds compileTimeout{120}; // per compiler process (--compile-timeout)
};

class ToolResourceReports final : public clang::tidy::occlint::ResourceReportSource {
public:
  /// `Commands` is the user's database (compile_commands.json or `-- flags`),
  /// not the translated one. `Verbose`, when given, gets one line per (file,
  /// arch) saying where its report came from; `Warnings` gets the one-line
  /// warnings about failed compiles.
  ToolResourceReports(const clang::tooling::CompilationDatabase &Commands, ToolResourceSettings Settings,
                      llvm::raw_ostream &Warnings, llvm::raw_ostream *Verbose = nullptr);

  /// Reads and merges the --ptxas-log files; from then on every report comes
  /// from them. Returns "" or the problem with a file (named in the message):
  /// missing, unreadable, or with no ptxas report in it.
  std::string loadPtxasLogs(const std::vector<std::string> &Paths);

  /// Thread-safe (occlint --jobs): each (file, arch) is looked up once; a
  /// second thread asking for it waits for the first.
  clang::tidy::occlint::ResourceReportLookup reportFor(llvm::StringRef MainFile, llvm::StringRef Arch) override;

  /// Whether nvcc compiled `MainFile` for `Arch`: its device compile for the
  /// resource report (run now if no parse asked for it yet; a cached
  /// successful compile counts) succeeded (true) or the compiler rejected the
  /// code (false). nullopt when unknown: --ptxas-log, --no-compile, no
  /// toolkit, no process may start (cache only), or the compile did not get
  /// to a verdict (timeout, refused program). Thread-safe, memoized with the
  /// report.
  std::optional<bool> nvccAccepted(llvm::StringRef MainFile, llvm::StringRef Arch);

  /// In the process that analyses one file (lint/IsolatedAnalysis.h): the
  /// once-per-run notes are kept, not printed, and handed to the parent
  /// (takeDeferredNotes), which prints each once (printNoteOnce).
  void deferNotes() { Deferring = true; }
  std::vector<std::pair<std::string, std::string>> takeDeferredNotes();
  void printNoteOnce(const std::string &Key, const std::string &Line) { noteOnce(Key, Line); }

private:
  struct Entry {
    std::optional<PtxasReport> report;
    std::string source;
    std::optional<int> maxRegisterCount; // -maxrregcount of the compile command
    std::optional<bool> nvccAccepted;    // see nvccAccepted()
    std::string origin;                  // ResourceReportLookup::origin
  };
  /// The file's compile command (the database's first) and its nvcc
  /// translation, fetched and translated once per lookup.
  struct BuildCommand {
    clang::tooling::CompileCommand command;
    TranslatedCommand translated;
  };
  const Entry &entryFor(llvm::StringRef MainFile, llvm::StringRef Arch);
  Entry lookUp(const std::string &MainFile, const std::string &Arch);
  Entry compile(const std::string &MainFile, const std::string &Arch, const BuildCommand &Build);
  /// The report in occlint-wrap's sidecar of the file's compile, if current.
  std::optional<Entry> fromBuild(const std::string &MainFile, const std::string &Arch, const BuildCommand &Build);
  /// Unknown when the compile command leaves Arch to the device link (-dlto).
  static std::optional<Entry> leftToTheDeviceLink(const std::string &Arch, const BuildCommand &Build);

  const clang::tooling::CompilationDatabase &Commands;
  ToolResourceSettings Settings;
  llvm::raw_ostream &Warnings;
  llvm::raw_ostream *Verbose;
  std::optional<PtxasReport> LogReport; // the merged --ptxas-log files
  std::string LogSource;
  /// Says once per run what the allowlist refused or what was dropped.
  void noteOnce(const std::string &Key, const std::string &Line);
  std::mutex NotedLock;
  std::set<std::string> Noted;
  bool Deferring = false;
  std::vector<std::pair<std::string, std::string>> Deferred; // (key, line)
  std::mutex MemoLock;
  std::map<std::pair<std::string, std::string>, std::shared_future<Entry>> Memo; // (file, arch)
  /// The build's sidecar of a file, read and checked (its dependencies
  /// hashed) once for all its archs; thread-safe like entryFor.
  std::shared_ptr<const LoadedBuildCapture> buildCaptureOf(const std::string &MainFile,
                                                           const clang::tooling::CompileCommand &Command);
  std::mutex CaptureLock;
  std::map<std::string, std::shared_future<std::shared_ptr<const LoadedBuildCapture>>> Captures; // by file
};

/// The argv ResourceCompiler gets for a command whose argv[0] is not a
/// compiler (a `-- flags` command line: FixedCompilationDatabase's
/// "clang-tool"): the toolkit's nvcc with the flags (nvcc's filter keeps -I,
/// -D, -U, -isystem, -include, -std, -O...; Clang's `-x cuda` becomes `-x cu`).
/// Commands of nvcc or clang come back unchanged, launchers (ccache...) removed.
std::vector<std::string> resourceCompileCommand(const std::vector<std::string> &CommandLine,
                                                const std::string &Toolkit);

} // namespace occlint
