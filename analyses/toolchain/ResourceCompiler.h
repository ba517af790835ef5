// Producing a PtxasReport by running the compiler on one source file, the way
// its compile command (from compile_commands.json) builds it, once per target
// arch, device code only. Results are cached on disk (ResultCache).
// docs/resource-reports.md gives the exact argv for each compiler.
#pragma once

#include "gpu/PtxasReport.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct CompileRequest {
  std::string sourceFile;            // as in compile_commands.json ("file")
  std::vector<std::string> command;  // argv of the nvcc or clang++ command ("arguments")
  std::string directory;             // the directory its relative paths are from ("directory"); empty = ours
  std::vector<std::string> archs;    // "sm_90", "sm_90a"...; one compile per arch
  std::string cudaPath;              // toolkit; empty = $CUDA_PATH, else /usr/local/cuda
  std::chrono::seconds timeout{120}; // per compiler run
  std::string cacheDir;              // empty = ResultCache::defaultDirectory()
  bool useCache = true;
};

struct CompileOutcome {
  bool ok = false;
  PtxasReport report;     // every function of every requested arch; sourceFile = request's
  std::string error;      // when !ok: what failed, with the compiler's stderr (trimmed)
  bool fromCache = false; // true when every arch came from the cache (no compiler ran)
  /// The compiler ran and exited with an error: it rejected the code (not a
  /// timeout, a refused program or a missing toolkit, where its verdict is unknown).
  bool compilerRejected = false;
  /// The rejection is an earlier run's, from the cache: the file, its
  /// headers and the command are as they were then (no compiler ran).
  bool rejectionRemembered = false;
  /// Programs the command named that the allowlist refused (realpath or as
  /// located): the compiler, or nvcc's -ccbin host compiler.
  std::vector<std::string> refusedPrograms;
  /// nvcc's -ccbin was refused and /usr/bin/g++ used instead: register
  /// counts can differ from the build's.
  bool hostCompilerSubstituted = false;
  /// Flags of the command that would make a compiler run or load other code
  /// (-Xcompiler -fplugin=..., -fplugin=, --run...): never passed on.
  std::vector<std::string> droppedUnsafeFlags;
};

/// Runs the compiler (or reads the cache). Never throws.
CompileOutcome compileForResources(const CompileRequest &request);

/// The realpath of the host compiler nvcc would run for a command whose
/// -ccbin/--compiler-bindir is `written` ("" when it has none: gcc), when the
/// process allowlist allows it; else /usr/bin/g++'s when allowed (and
/// `refused` names the refused program); "" when neither is allowed.
std::string resolveHostCompiler(const std::string &written, const std::string &directory, std::string &refused);

/// The cache key under which every successful compile also stores its log as
/// "the latest ptxas report of this source file for this arch", whatever the
/// command was: the clang-tidy plugin, which has no compile command to build
/// the full key from, reads it (validated like every entry: a changed source
/// or header is a miss). `absoluteSource` as the compile saw it.
std::string latestReportKey(const std::string &absoluteSource, const std::string &arch);

/// The cache key under which a compile the compiler rejected keeps its error
/// (validated by the files it read, like a report), given that compile's key.
std::string rejectedCompileKey(const std::string &compileKey);

/// The ptxas log of the latest compile of `absoluteSource` for `arch` in the
/// cache at `cacheDir` (empty: the default directory), if still current.
std::optional<std::string> latestCachedPtxasLog(const std::string &absoluteSource, const std::string &arch,
                                                const std::string &cacheDir = {});

/// The CUDA toolkit root: explicitPath, else $CUDA_PATH, else /usr/local/cuda;
/// only if it has bin/ptxas. nullopt when none is there.
std::optional<std::string> findCudaToolkit(const std::string &explicitPath);

enum class CompilerKind { Nvcc, Clang, Unknown };
/// From argv[0]'s file name: "nvcc" or "clang*"
CompilerKind compilerKindOf(const std::string &argv0);

/// The device-only argv for one arch (exposed for tests and docs): for nvcc
/// the single command (with `-ccbin hostCompiler` when one is given); for
/// clang the PTX compile (ptxas runs after it). Paths of the build command
/// (the source, -I, -isystem, -include...) are made absolute against its
/// directory: the compiler runs in a temporary directory of occlint's.
std::vector<std::string> deviceCompileArgv(const CompileRequest &request, CompilerKind kind,
                                           const std::string &compiler, const std::string &toolkit,
                                           const std::string &arch, const std::string &output,
                                           const std::string &hostCompiler = {});

} // namespace occlint
