// occlint's entry point: dispatches to the subcommands, and turns anything
// unexpected into exit code 3 with one line instead of a crash.
#include "ArgParser.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "toolchain/CompilerLauncher.h"

#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstring>
#include <exception>
#include <iostream>
#include <string_view>

namespace {

// `occlint ... | head`: the reader went away. Not a crash and not worth a
// message: the output stops there and the exit code is the run's.
int quietlyIfStdoutClosed(int Code) {
  llvm::outs().flush();
  if (llvm::outs().has_error())
    llvm::outs().clear_error(); // else its destructor reports a fatal I/O error
  std::cout.flush();
  std::cout.clear();
  return Code;
}

int run(int Argc, const char **Argv) {
  using namespace occlint;
  try {
    if (Argc >= 2) {
      std::string_view Sub = Argv[1];
      if (Sub == "occupancy")
        return runOccupancyCommand(Argc - 1, Argv + 1);
      if (Sub == "resources")
        return runResourcesCommand(Argc - 1, Argv + 1);
      if (Sub == "report")
        return runReportCommand(Argc - 1, Argv + 1);
      if (Sub == "lsp")
        return runLspCommand(Argc - 1, Argv + 1);
      if (Sub == "compdb")
        return runCompdbCommand(Argc - 1, Argv + 1);
      if (Sub == "merge")
        return runMergeCommand(Argc - 1, Argv + 1);
    }
    return runLintCommand(Argc, Argv);
  } catch (const UsageError &E) {
    std::cerr << E.what() << "\n";
    return ExitUsageOrInput;
  } catch (const std::exception &E) {
    std::cerr << "occlint: internal error: " << E.what() << "\n";
    return ExitInternal;
  }
}

} // namespace

int main(int Argc, const char **Argv) {
  // `occlint wrap`: the compiler launcher, before any change to the signals
  // (the compiler inherits them as the build set them).
  // `occlint wrap --lint` lints the unit after the compile (buildlint/).
  if (Argc >= 2 && std::string_view(Argv[1]) == "wrap") {
    if (occlint::wrapAsksForLint(Argc - 1, Argv + 1))
      return occlint::runWrapLintCommand(Argc - 1, Argv + 1, Argv[0]);
    return occlint::compilerLauncherMain(Argc - 1, Argv + 1);
  }
  // A closed pipe on stdout is an error on write (EPIPE), handled above,
  // instead of a signal that kills the process.
  std::signal(SIGPIPE, SIG_IGN);
  return quietlyIfStdoutClosed(run(Argc, Argv));
}
