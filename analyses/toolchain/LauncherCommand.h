// Reading a build's compile command the way the compiler launcher
// (occlint-wrap, docs/build-integration.md) needs it: which compiler runs
// (behind ccache, sccache, distcc...), whether the command compiles one CUDA
// source through ptxas, whether it already asked for ptxas's report, where
// its object and dependency file go, and which SASS archs it builds; then the
// argv with the report (and, if needed, a dependency file) turned on.
//
// Plain C++, no process is started here. Nothing here throws.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

enum class LaunchedCompiler { Nvcc, Clang, Unknown };

struct CompileInvocation {
  /// argv index of the compiler: 0, or after the launchers (ccache...).
  size_t compilerIndex = 0;
  LaunchedCompiler kind = LaunchedCompiler::Unknown;
  /// The command compiles exactly one CUDA source and runs ptxas on it (-c,
  /// -dc, --cubin, --fatbin or a compile-and-link): the launcher adds its
  /// flags and captures. False for anything else (a link step, -E, -M, -ptx,
  /// --cuda-host-only, -fsyntax-only, a dry run, a verbose driver, several
  /// CUDA sources, an unknown compiler): the command then runs unchanged.
  bool capturable = false;
  /// Why not, when !capturable (for tests and --verbose).
  std::string whyNot;
  /// The command already asks for the report (-Xptxas -v, -Xptxas=-v,
  /// --ptxas-options=-v, --resource-usage, -res-usage, -Xcuda-ptxas -v): add
  /// nothing, strip nothing.
  bool reportRequested = false;
  std::string source; // the CUDA source, as written
  std::string output; // -o's value as written; "" when the command has none
  /// The command writes a dependency file itself (-MD/-MMD and the long forms).
  bool writesDepfile = false;
  /// -MF's value as written; when writesDepfile without -MF, where the compiler
  /// puts it (the output with its extension replaced by .d); "" when unknown.
  std::string depfile;
  /// The SASS archs the command builds ("sm_80", "sm_90a": -arch=sm_XX,
  /// -code/-gencode code=sm_XX, --cuda-gpu-arch/--offload-arch); nullopt when
  /// the command does not say (the compiler's default, -arch=native/all, a
  /// virtual arch only).
  std::optional<std::vector<std::string>> sassArchs;
  /// A --options-file or @file could not be read (the rest was analysed).
  std::string error;
};

/// True for ccache, sccache, distcc, icecc and buildcache (a path's file name).
bool isCompilerLauncherName(std::string_view program);

/// Analyses `argv` (launchers first, then the compiler and its arguments).
/// Response and options files are read relative to `directory` (the working
/// directory of the command; "" = ours) to find the flags; argv itself is never
/// rewritten here.
CompileInvocation analyzeCompileCommand(const std::vector<std::string> &argv, const std::string &directory = {});

/// `argv` with what the launcher adds inserted right after the compiler (so a
/// `--` or an input list at the end stays last): the report flag unless the
/// command already asked for it (nvcc: -Xptxas -v, clang: -Xcuda-ptxas -v),
/// and `-MD -MF addedDepfile` when addedDepfile is not empty.
std::vector<std::string> withCaptureFlags(const std::vector<std::string> &argv, const CompileInvocation &inv,
                                          const std::string &addedDepfile);

/// A compile command with the launchers and every dependency-file flag (-MD,
/// -MMD, -MP, -MF F, -MT T, -MQ T and nvcc's long forms) removed: what decides
/// the compile's result. Two commands whose normal forms are equal compile
/// the same way (CMake's compile_commands.json has no -MD/-MF; its build
/// rules do).
std::vector<std::string> normalizedCompileArguments(const std::vector<std::string> &argv);

} // namespace occlint
