#include "toolchain/Subprocess.h"

#include "toolchain/ProgramAllowlist.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace occlint {

namespace {
std::atomic<uint64_t> gSpawnCount{0};

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
};
} // namespace

uint64_t subprocessSpawnCount() { return gSpawnCount.load(); }

std::string SubprocessResult::describe() const {
  if (refused)
    return "refused: " + error;
  if (!started)
    return "could not start: " + error;
  if (timedOut)
    return "timed out" + (error.empty() ? std::string() : " (" + error + ")");
  if (termSignal != 0)
    return "killed by signal " + std::to_string(termSignal) + " (" + std::string(strsignal(termSignal)) + ")";
  return "exit status " + std::to_string(exitCode);
}

SubprocessResult runSubprocess(const std::vector<std::string> &argv, const SubprocessOptions &options) {
  SubprocessResult result;
  if (argv.empty() || argv[0].empty()) {
    result.error = "empty command";
    return result;
  }
  const std::string located = locateProgram(argv[0]);
  if (located.empty() || ::access(located.c_str(), F_OK) != 0) {
    result.error = "'" + argv[0] + "': " + std::strerror(ENOENT);
    return result;
  }
  std::string why;
  std::optional<std::string> program = processAllowlist().resolve(located, &why);
  if (!program) {
    result.refused = true;
    result.error = why;
    return result;
  }
  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd outRead(outPipe[0]), outWrite(outPipe[1]);
  if (::pipe2(errPipe, O_CLOEXEC) != 0) {
    result.error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  Fd errRead(errPipe[0]), errWrite(errPipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, outWrite.fd, 1);
  posix_spawn_file_actions_adddup2(&actions, errWrite.fd, 2);
  if (!options.workingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&actions, options.workingDirectory.c_str());
  // Its own process group, so a timeout can kill the compiler's children too;
  // default signal handling and mask, whatever ours are.
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<char *> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto &a : argv)
    cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);

  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, program->c_str(), &actions, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    result.error = "'" + argv[0] + "': " + std::strerror(rc);
    return result;
  }
  ++gSpawnCount;
  result.started = true;
  outWrite.reset();
  errWrite.reset();

  using Clock = std::chrono::steady_clock;
  const bool hasDeadline = options.timeout.count() > 0;
  const auto deadline = Clock::now() + options.timeout;
  char buf[65536];
  bool killed = false;
  while (outRead.fd >= 0 || errRead.fd >= 0) {
    int waitMs = -1;
    if (hasDeadline && !killed) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        ::kill(-pid, SIGKILL);
        killed = true;
        result.timedOut = true;
        result.error = "after " + std::to_string(options.timeout.count()) + " ms";
        continue;
      }
      waitMs = static_cast<int>(std::min<long long>(left.count(), 1000 * 60 * 60));
    }
    pollfd fds[2];
    int n = 0;
    if (outRead.fd >= 0)
      fds[n++] = {outRead.fd, POLLIN, 0};
    if (errRead.fd >= 0)
      fds[n++] = {errRead.fd, POLLIN, 0};
    int pr = ::poll(fds, static_cast<nfds_t>(n), waitMs);
    if (pr < 0) {
      if (errno == EINTR)
        continue;
      ::kill(-pid, SIGKILL);
      killed = true;
      result.error = std::string("poll: ") + std::strerror(errno);
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      bool isOut = outRead.fd >= 0 && fds[i].fd == outRead.fd;
      std::string &sink = isOut ? result.out : result.err;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        size_t room = options.maxOutputBytes > sink.size() ? options.maxOutputBytes - sink.size() : 0;
        sink.append(buf, std::min(room, static_cast<size_t>(got)));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        (isOut ? outRead : errRead).reset();
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = std::string("waitpid: ") + std::strerror(errno);
      return result;
    }
  }
  // Whatever the leader left behind in its group goes as well.
  if (killed)
    ::kill(-pid, SIGKILL);
  if (WIFEXITED(status))
    result.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    result.termSignal = WTERMSIG(status);
  return result;
}

} // namespace occlint
