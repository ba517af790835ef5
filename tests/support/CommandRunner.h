// Runs a command line for the end-to-end tests and captures what it printed.
#pragma once

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace occlint::testing {

struct CommandResult {
  int exitCode = -1;
  std::string output; // stdout and stderr together, or only stdout
};

inline std::string shellQuote(const std::string &S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

/// Runs Command through /bin/sh (test code only: the tool itself never uses a shell).
inline CommandResult runCommand(const std::string &Command, bool MergeStderr = true) {
  CommandResult R;
  FILE *Pipe = popen((Command + (MergeStderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  if (!Pipe)
    return R;
  std::array<char, 4096> Buffer;
  size_t N;
  while ((N = fread(Buffer.data(), 1, Buffer.size(), Pipe)) > 0)
    R.output.append(Buffer.data(), N);
  int Status = pclose(Pipe);
  R.exitCode = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  return R;
}

} // namespace occlint::testing
