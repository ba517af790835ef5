// The commands of the occlint binary, one function each (main.cpp picks one
// by the first argument). Each lives in its own place: the lint command (and
// compdb, which writes the lint command's Clang commands) in lint/, report in
// report/, lsp in lsp/, occupancy and resources here.
#pragma once

namespace occlint {

int runLintCommand(int Argc, const char **Argv);
int runOccupancyCommand(int Argc, const char **Argv);
int runResourcesCommand(int Argc, const char **Argv);
int runReportCommand(int Argc, const char **Argv);
int runLspCommand(int Argc, const char **Argv);
int runCompdbCommand(int Argc, const char **Argv);

} // namespace occlint
