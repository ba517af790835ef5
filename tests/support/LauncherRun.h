// Runs the compiler launcher in the test process with its stdout and stderr
// going to files in a scratch directory, and reads them back: what a build
// log would show. Shared by the launcher's tests with a fake compiler
// (CompilerLauncherTest.cpp) and with the real nvcc (LauncherNvccTest.cpp).
#pragma once

#include "TestFiles.h"

#include "toolchain/CompilerLauncher.h"

#include <fcntl.h>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace occlint::testing {

struct Ran {
  LauncherOutcome outcome;
  std::string out, err;
};

inline Ran launchInto(const std::vector<std::string> &args, const std::filesystem::path &scratch) {
  const std::string outPath = (scratch / "launch.out").string(), errPath = (scratch / "launch.err").string();
  int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  Ran r;
  r.outcome = runCompilerLauncher(args, {out, err});
  ::close(out);
  ::close(err);
  r.out = readFile(outPath);
  r.err = readFile(errPath);
  return r;
}

} // namespace occlint::testing
