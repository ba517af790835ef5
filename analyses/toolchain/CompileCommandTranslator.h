// Translating a compile command written for nvcc (by CMake, Make, Bear...)
// into one that Clang 22 can parse as CUDA, and recording what occlint's
// occupancy model needs from it: the target archs, -maxrregcount, relocatable
// device code, device debug. docs/compile-commands.md has the full table.
//
// Plain C++20, no LLVM dependency. Nothing here throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

/// Bytes of one options or response file (`--options-file F`, `@F`) occlint
/// reads, here and where Clang's loader of compile_commands.json expands them
/// (tool/lint/ProjectDatabase.cpp). Real ones hold flags and paths
/// (kilobytes); a command naming `@/usr/local/cuda/bin/nvcc` would otherwise
/// have its 30 MB read and split into words (found by fuzz-compile-database:
/// 10 s and 560 MB per command).
inline constexpr std::uint64_t kMaxResponseFileBytes = 4u << 20;

struct TranslatedCommand {
  /// argv for Clang: argv[0] = "clang++", then the flags, then (when the nvcc
  /// command had -x cu) "-x" "cuda", then the input file(s). For a command that
  /// was not nvcc's: the command itself, unchanged except that a launcher
  /// (ccache, sccache...) in front of the compiler is removed.
  std::vector<std::string> clangArgs;
  /// Target archs as real archs, in command order, no duplicates: "sm_80",
  /// "sm_90a", "sm_100f"; compute_XX and lto_XX are recorded as sm_XX.
  /// Empty when the command names none (nvcc's default) or only a symbolic
  /// one (-arch=native/all/all-major, see symbolicArch).
  std::vector<std::string> archs;
  /// The archs (of `archs`) whose device code this compile leaves to the
  /// device link: `code=lto_90` without `sm_90`, or `-arch=sm_90` with
  /// `-dlto`. ptxas does not run for them at compile time; the link decides
  /// their registers (docs/build-integration.md).
  std::vector<std::string> linkTimeArchs;
  /// "native", "all" or "all-major" when -arch named one: the archs depend on
  /// the build machine or the toolkit and are not in `archs`.
  std::optional<std::string> symbolicArch;
  /// -maxrregcount / --maxrregcount, also from -Xptxas --maxrregcount=N (for
  /// Clang commands: -Xcuda-ptxas -maxrregcount=N). The last one wins.
  std::optional<int> maxRegisterCount;
  /// Flags (with their values, space-separated) that were not passed to Clang,
  /// for --verbose. Output and dependency-file flags (-c, -o, -MD, -MF, -MT...)
  /// and -forward-unknown-to-host-compiler are removed without being listed.
  std::vector<std::string> droppedFlags;
  /// One line per noteworthy decision, e.g. why a flag needs no counterpart in
  /// Clang, or that -arch=native leaves the archs unknown.
  std::vector<std::string> notes;
  /// What -Xptxas / --ptxas-options carried (for Clang commands: -Xcuda-ptxas),
  /// one entry per comma-separated item.
  std::vector<std::string> ptxasFlags;
  bool isNvcc = false;                // the command was an nvcc command
  bool relocatableDeviceCode = false; // -rdc=true / -dc / --relocatable-device-code=true (clang: -fgpu-rdc)
  bool deviceDebug = false;           // -G / --device-debug: nvcc builds unoptimized device code
  /// Non-empty: (part of) the command could not be read, e.g. an unreadable
  /// --options-file or @file (the message names it), or an empty command. The
  /// rest of the command is still translated as far as possible.
  std::string error;
};

/// Translates one compile command. `argv` is the command as in
/// compile_commands.json's "arguments" (or splitCommandLine of its "command");
/// `directory` is its working directory, against which relative --options-file
/// and @file paths are read (relative paths inside the result stay relative to
/// it, as the tooling runs there).
TranslatedCommand translateCompileCommand(const std::vector<std::string> &argv, const std::string &directory);

/// True when argv[0] is nvcc ("nvcc", "/usr/local/cuda/bin/nvcc", "nvcc.exe"),
/// possibly behind launchers such as ccache, sccache, distcc or icecc.
bool isNvccCommand(const std::vector<std::string> &argv);

/// True when argv[0] (behind launchers) is clang, clang++, clang-22, clang++-22...
bool isClangCommand(const std::vector<std::string> &argv);

/// Splits a command line like a POSIX shell does, without expansions:
/// whitespace separates words; '...' is literal; in "..." a backslash escapes
/// " \ $ ` and newline; elsewhere a backslash escapes the next character.
/// An unterminated quote ends at the end of the text. Used for options files,
/// @files and compile_commands.json "command" strings.
std::vector<std::string> splitCommandLine(std::string_view text);

} // namespace occlint
