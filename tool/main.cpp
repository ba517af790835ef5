// occlint's entry point: dispatches to the subcommands, and turns anything
// unexpected into exit code 3 with one line instead of a crash.
#include "ArgParser.h"
#include "ExitCodes.h"
#include "Commands.h"

#include <cstring>
#include <exception>
#include <iostream>
#include <string_view>

int main(int Argc, const char **Argv) {
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
