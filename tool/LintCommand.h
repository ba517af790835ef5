// `occlint [options] <files...> [-- <compiler flags>]` and `occlint -p <dir>`:
// runs the cuda-* clang-tidy checks through clang-tidy's own engine.
#pragma once

namespace occlint {

int runLintCommand(int Argc, const char **Argv);

} // namespace occlint
