// The launcher's process handling: the compiler is a child whose stdout is
// ours (never read) and whose stderr comes through a pipe, line-filtered
// (PtxasStderrFilter). Signals that would end a build (SIGINT, SIGTERM,
// SIGHUP, SIGQUIT) are passed on to the compiler; the launcher then ends the
// way the compiler did. The bookkeeping afterwards is BuildCapture.cpp's.
#include "toolchain/CompilerLauncher.h"

#include "toolchain/BuildCapture.h"
#include "toolchain/Depfile.h"
#include "toolchain/LauncherCommand.h"
#include "toolchain/PtxasStream.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <iterator>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace occlint {

namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
volatile sig_atomic_t gChild = 0;

void forwardToChild(int sig) {
  if (gChild > 0)
    ::kill(static_cast<pid_t>(gChild), sig);
}

void writeAll(int fd, std::string_view text, bool &broken) {
  while (!broken && !text.empty()) {
    ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      broken = true; // a closed stderr: the rest is dropped, the compile goes on
      return;
    }
    text.remove_prefix(static_cast<size_t>(n));
  }
}

void say(int fd, const std::string &line) {
  bool broken = false;
  writeAll(fd, line + "\n", broken);
}

int64_t nowNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// The working directory as the build named it ($PWD, when it is this
/// directory: a build under a symlink keeps its paths), else getcwd's.
std::string workingDirectory() {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string real = fs::current_path(ec).string();
  const char *pwd = std::getenv("PWD");
  if (pwd && pwd[0] == '/' && fs::equivalent(pwd, real.empty() ? "." : real, ec) && !ec)
    return pwd;
  return real;
}

const char *kUsage =
    "usage: occlint-wrap [--no-sidecar] [--no-cache] [--] <compiler> <arguments...>\n"
    "  Runs a compile command of the build with ptxas's resource report turned on and keeps\n"
    "  the report of every arch next to the object (<object>.occlint.json) and in occlint's\n"
    "  cache; stdout, stderr and the exit status are the compiler's (docs/build-integration.md).\n"
    "  CMake: -DCMAKE_CUDA_COMPILER_LAUNCHER=occlint-wrap (with ccache: \"occlint-wrap;ccache\").\n"
    "  --no-sidecar  write no <object>.occlint.json\n"
    "  --no-cache    store nothing in occlint's cache ($OCCLINT_CACHE_DIR, ~/.cache/occlint)\n"
    "  `occlint wrap --lint [--gpu GPU]... [--checks GLOBS] ...` (the main binary) also lints the unit\n"
    "  after the compile: findings on stderr and in the sidecar, for `occlint merge BUILD`.\n";

struct Child {
  pid_t pid = -1;
  int err = 0; // posix_spawn's error when it did not start
};

/// Starts argv with stdout on `stdoutFd` and stderr on `stderrFd`.
Child spawn(const std::vector<std::string> &argv, int stdoutFd, int stderrFd, const sigset_t &mask) {
  std::vector<char *> cargv;
  for (const std::string &a : argv)
    cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  if (stdoutFd != STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, stdoutFd, STDOUT_FILENO);
  if (stderrFd != STDERR_FILENO)
    posix_spawn_file_actions_adddup2(&actions, stderrFd, STDERR_FILENO);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : kForwarded)
    sigaddset(&defaults, sig);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  Child c;
  c.err = posix_spawnp(&c.pid, cargv[0], &actions, &attr, cargv.data(), environ);
  if (c.err != 0)
    c.pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return c;
}

LauncherOutcome cannotRun(const std::string &program, int err, const LauncherStreams &io) {
  say(io.stderrFd, "occlint-wrap: error: cannot run " + program + ": " + std::strerror(err));
  return {err == ENOENT ? 127 : 126, 0};
}

/// Runs the compile with stderr through `filter`; returns how it ended.
/// `midLine`: the last byte passed on to stderr was not a newline.
LauncherOutcome runFiltered(const std::vector<std::string> &argv, PtxasStderrFilter *filter, const LauncherStreams &io,
                            bool *midLine = nullptr) {
  int pipeFds[2] = {-1, -1};
  if (filter && ::pipe2(pipeFds, O_CLOEXEC) != 0)
    filter = nullptr; // no pipe: stderr unfiltered
  // The forwarded signals wait while the child starts, so that none is lost.
  sigset_t forwarded, previousMask;
  sigemptyset(&forwarded);
  for (int sig : kForwarded)
    sigaddset(&forwarded, sig);
  ::sigprocmask(SIG_BLOCK, &forwarded, &previousMask);
  struct sigaction previous[std::size(kForwarded)];
  struct sigaction forward{};
  forward.sa_handler = forwardToChild;
  sigemptyset(&forward.sa_mask);
  for (size_t i = 0; i < std::size(kForwarded); ++i)
    ::sigaction(kForwarded[i], &forward, &previous[i]);

  Child child = spawn(argv, io.stdoutFd, filter ? pipeFds[1] : io.stderrFd, previousMask);
  gChild = child.pid > 0 ? child.pid : 0;
  ::sigprocmask(SIG_SETMASK, &previousMask, nullptr);
  if (filter)
    ::close(pipeFds[1]);

  LauncherOutcome outcome;
  bool broken = false, exited = false;
  int status = 0;
  if (child.pid > 0 && filter) {
    char buffer[65536];
    for (;;) {
      pollfd p{pipeFds[0], POLLIN, 0};
      int ready = ::poll(&p, 1, exited ? 0 : 100);
      if (ready < 0 && errno == EINTR)
        continue;
      if (ready == 0) {
        // Nothing to read: stop once the compiler is gone, even if a process
        // it left behind (a compiler cache's server) still holds the pipe.
        if (exited)
          break;
        if (::waitpid(child.pid, &status, WNOHANG) == child.pid)
          exited = true;
        continue;
      }
      ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      std::string pass = filter->feed(std::string_view(buffer, static_cast<size_t>(n)));
      if (!pass.empty() && midLine)
        *midLine = pass.back() != '\n';
      writeAll(io.stderrFd, pass, broken);
    }
    std::string rest = filter->finish();
    if (!rest.empty() && midLine)
      *midLine = rest.back() != '\n';
    writeAll(io.stderrFd, rest, broken);
  }
  if (filter)
    ::close(pipeFds[0]);
  if (child.pid > 0 && !exited) {
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  gChild = 0;
  for (size_t i = 0; i < std::size(kForwarded); ++i)
    ::sigaction(kForwarded[i], &previous[i], nullptr);
  if (child.pid <= 0)
    return cannotRun(argv[0], child.err, io);
  if (WIFSIGNALED(status))
    outcome.termSignal = WTERMSIG(status);
  else
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  return outcome;
}

} // namespace

LauncherOutcome runCompilerLauncher(const std::vector<std::string> &args, const LauncherStreams &io,
                                    bool execWhenUnchanged) {
  RecordOptions record;
  size_t at = 0;
  for (; at < args.size(); ++at) {
    const std::string &a = args[at];
    if (a == "--") {
      ++at;
      break;
    }
    if (a.size() < 2 || a[0] != '-')
      break;
    if (a == "--no-sidecar")
      record.sidecar = false;
    else if (a == "--no-cache")
      record.cache = false;
    else if (a == "--help" || a == "-h") {
      bool broken = false;
      writeAll(io.stdoutFd, kUsage, broken);
      return {0, 0};
    } else {
      say(io.stderrFd, "occlint-wrap: error: unknown option " + a + " (the compiler comes after the options)");
      return {2, 0};
    }
  }
  const std::vector<std::string> command(args.begin() + static_cast<std::ptrdiff_t>(at), args.end());
  if (command.empty()) {
    say(io.stderrFd, "occlint-wrap: error: no compile command given");
    bool broken = false;
    writeAll(io.stderrFd, kUsage, broken);
    return {2, 0};
  }

  const std::string directory = workingDirectory();
  CompileInvocation inv = analyzeCompileCommand(command, directory);
  if (!inv.capturable) {
    if (execWhenUnchanged) {
      std::vector<char *> cargv;
      for (const std::string &a : command)
        cargv.push_back(const_cast<char *>(a.c_str()));
      cargv.push_back(nullptr);
      ::execvp(cargv[0], cargv.data());
      return cannotRun(command[0], errno, io);
    }
    return runFiltered(command, nullptr, io);
  }

  // The dependency file: the build's own, else one of ours next to the object
  // (a name that is the same on every run, so compiler caches that hash -MF
  // still hit), else in the temporary directory.
  std::string depfile = inv.writesDepfile ? absolutePathIn(inv.depfile, directory) : std::string();
  std::string added;
  if (!inv.writesDepfile) {
    if (!inv.output.empty() && inv.output != "-") {
      added = absolutePathIn(inv.output, directory) + ".occlint.d";
    } else {
      const char *tmp = std::getenv("TMPDIR");
      std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/occlint-wrap-XXXXXX.d";
      int fd = ::mkstemps(templ.data(), 2);
      if (fd >= 0) {
        ::close(fd);
        added = templ;
      }
    }
    depfile = added;
  }
  PtxasStderrFilter filter(/*strip=*/!inv.reportRequested);
  FinishedCompile finished;
  finished.command = command;
  finished.directory = directory;
  finished.startNs = nowNs();
  bool midLine = false;
  LauncherOutcome outcome = runFiltered(withCaptureFlags(command, inv, added), &filter, io, &midLine);
  finished.endNs = nowNs();
  if (outcome.exitCode == 0 && outcome.termSignal == 0) {
    finished.ptxasLog = filter.log();
    finished.depfile = depfile;
    std::string problem = recordFinishedCompile(finished, record);
    // On a line of its own, even after a last line of the compiler's without a newline.
    if (!problem.empty())
      say(io.stderrFd, (midLine ? "\n" : "") + std::string("occlint-wrap: warning: ") + problem);
  }
  if (!added.empty())
    ::unlink(added.c_str());
  return outcome;
}

int compilerLauncherMain(int argc, const char **argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i)
    args.emplace_back(argv[i]);
  return endLikeTheCompiler(runCompilerLauncher(args, {}, /*execWhenUnchanged=*/true));
}

int endLikeTheCompiler(const LauncherOutcome &outcome) {
  if (outcome.termSignal == 0)
    return outcome.exitCode;
  // End as the compiler did: the same signal, default action, no core file of ours.
  struct rlimit noCore{0, 0};
  ::setrlimit(RLIMIT_CORE, &noCore);
  std::signal(outcome.termSignal, SIG_DFL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, outcome.termSignal);
  ::sigprocmask(SIG_UNBLOCK, &unblock, nullptr);
  ::raise(outcome.termSignal);
  return 128 + outcome.termSignal;
}

} // namespace occlint
