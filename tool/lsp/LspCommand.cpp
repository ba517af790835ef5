// `occlint lsp`: the command line of the language server, and its loop:
// read a framed message from stdin, handle it, until `exit` or the end of
// the input. stdout carries the protocol and nothing else: the process's
// file descriptor 1 is pointed at stderr, so that anything else printing
// there (Clang, LLVM, a library) lands in the log instead of corrupting the
// stream.
#include "ArgParser.h"
#include "ExitCodes.h"
#include "gpu/GpuDatabase.h"
#include "lsp/LspServer.h"
#include "lsp/LspTransport.h"
#include "toolchain/ResourceCompiler.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <unistd.h>

namespace occlint {

static const char LspHelp[] = R"(Usage: occlint lsp [options]

A Language Server Protocol server on stdin/stdout for editors (docs/editors.md).
It checks the CUDA files (.cu, .cuh, language cuda/cuda-cpp) that the editor
opens and saves, as they are on disk, publishes the findings as diagnostics,
and offers their fixes as quick fixes.

Options:
  -p DIR           The build directory with compile_commands.json (default: the
                   one found by walking up from each file; with none, a file is
                   checked with `-x cuda -I<its directory>`).
  --gpu NAME       Target GPU, as occlint --gpu (repeatable).
  --cuda-path DIR  CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda).
  --checks GLOBS   The checks, as occlint --checks.
  --no-compile     Never run the device compiler: resources estimated from source.
  --strict-parse   Clang's errors in files nvcc compiled are shown as errors
                   (by default they are hidden: docs/nvcc-parity.md).
  --compile-timeout SECONDS
                   How long a compiler process may run (default: 120).
  --max-memory MB  Memory the analysis of one file may use (default: 8192).
  --allow-compiler GLOB
                   Also allow this program to run (realpath glob; repeatable).
  --trust-workspace
                   Trust every workspace this server opens: it may run the
                   CUDA toolkit and the allowed compilers for resource reports.
                   Without it (or the workspace under a trusted-workspaces
                   entry of the user config file), the server starts no
                   process: resources come from occlint's cache or are
                   estimated (docs/security.md). Pass it from the user's own
                   editor configuration, never from a workspace's.
  --stdio          Accepted and ignored (stdio is the only transport).
  --help           This text.

initializationOptions {"compilationDatabasePath", "gpu", "cudaPath",
"noCompile", "checks"} override the options above; nothing there can allow a
program or trust a workspace.

Exit codes: 0 after shutdown and exit, 1 on exit (or end of input) without
shutdown, 2 for a bad command line.
)";

static lsp::ServerOptions serverOptionsFromCommandLine(const ArgParser &Args, const char *Argv0) {
  lsp::ServerOptions Options;
  LintSettings &Settings = Options.settings;
  for (const std::string &Gpu : Args.values("gpu")) {
    std::string Error;
    if (!GpuDatabase::builtin().resolve(Gpu, Error))
      Args.fail("--gpu: " + Error);
    Settings.gpus.push_back(Gpu);
  }
  Settings.cudaPath = Args.value("cuda-path").value_or("");
  Settings.trustedCudaPath = Settings.cudaPath;
  if (!Settings.cudaPath.empty() && !findCudaToolkit(Settings.cudaPath))
    Args.fail("--cuda-path: no CUDA toolkit at '" + Settings.cudaPath + "' (no bin/ptxas there)");
  Settings.noCompile = Args.has("no-compile");
  Settings.strictParse = Args.has("strict-parse");
  Settings.compileTimeoutSeconds = unsigned(Args.integer("compile-timeout", 1, 86400).value_or(120));
  Settings.maxMemoryMB = uint64_t(Args.integer("max-memory", 64, 1 << 20).value_or(8192));
  Settings.allowCompilers = Args.values("allow-compiler");
  Options.trustAllWorkspaces = Args.has("trust-workspace");
  if (Args.has("checks"))
    Settings.checks = *Args.value("checks");
  if (std::optional<std::string> Directory = Args.value("p")) {
    if (!llvm::sys::fs::is_directory(*Directory))
      Args.fail("-p: '" + *Directory + "' is not a directory");
    llvm::SmallString<256> Absolute(*Directory);
    llvm::sys::fs::make_absolute(Absolute);
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Options.buildDirectory = std::string(Absolute);
  }
  // main hands us argv from "lsp" on; the executable (for the built-in CUDA
  // headers next to it) is found through /proc/self/exe all the same.
  Options.argv0 = Argv0;
  Options.version = OCCLINT_VERSION;
  return Options;
}

int runLspCommand(int Argc, const char **Argv) {
  ArgParser Args("lsp", {"p", "gpu", "cuda-path", "checks", "allow-compiler", "compile-timeout", "max-memory"},
                 {"no-compile", "strict-parse", "trust-workspace", "stdio", "help"});
  Args.parse(Argc, Argv);
  if (Args.has("help")) {
    std::cout << LspHelp;
    return ExitOk;
  }
  if (!Args.positional().empty())
    Args.fail("unexpected argument '" + Args.positional().front() + "' (see --help)");
  lsp::ServerOptions Options = serverOptionsFromCommandLine(Args, Argv[0]);

  // The protocol gets a private copy of stdout (not inherited by the device
  // compiler), and descriptor 1 becomes stderr.
  const int ProtocolFd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (ProtocolFd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    llvm::errs() << "occlint lsp: error: cannot set up stdout: " << std::strerror(errno) << "\n";
    return ExitInternal;
  }
  // A client that went away: writes fail (and are noticed below) instead of
  // killing the process.
  std::signal(SIGPIPE, SIG_IGN);
  llvm::raw_fd_ostream Protocol(ProtocolFd, /*shouldClose=*/true);
  bool OutputBroken = false;
  lsp::Server Server(std::move(Options), [&](const nlohmann::json &Message) {
    if (OutputBroken)
      return;
    // Invalid UTF-8 (a source file's bytes in a message) is replaced, not thrown on.
    lsp::writeMessage(Protocol, Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (Protocol.has_error()) {
      llvm::errs() << "occlint lsp: error: cannot write to stdout: " << Protocol.error().message() << "\n";
      Protocol.clear_error();
      OutputBroken = true;
    }
  });

  lsp::MessageReader Reader(std::cin);
  std::string Body, Problem;
  while (!Server.exitRequested() && !OutputBroken) {
    const lsp::MessageReader::Status Status = Reader.read(Body, Problem);
    if (!Problem.empty())
      Server.reportBadInput(Problem);
    if (Status == lsp::MessageReader::Status::EndOfInput)
      break;
    if (Status == lsp::MessageReader::Status::Message)
      Server.handleMessage(Body);
  }
  return Server.exitCode();
}

} // namespace occlint
