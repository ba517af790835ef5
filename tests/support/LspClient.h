// A minimal Language Server Protocol client for the end-to-end tests: starts
// `occlint lsp` as a child process with pipes for stdin and stdout (stderr
// to a file), writes framed messages and reads them back with poll and a
// deadline, so a server that hangs or dies fails the test instead of
// blocking it. Its framing is written independently of tool/lsp/LspTransport.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <optional>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace occlint::testing {

class LspClient {
public:
  /// Generous: a hang guard, not a speed requirement (a check of one file
  /// takes about a second; the machine may be busy).
  static constexpr std::chrono::seconds DefaultTimeout{120};

  LspClient(const std::vector<std::string> &Args, std::string StderrPath) : StderrPath(std::move(StderrPath)) {
    std::signal(SIGPIPE, SIG_IGN); // a dead server: write() fails instead of killing the test
    int In[2], Out[2];
    if (pipe2(In, O_CLOEXEC) != 0 || pipe2(Out, O_CLOEXEC) != 0) {
      ADD_FAILURE() << "pipe: " << std::strerror(errno);
      return;
    }
    posix_spawn_file_actions_t Actions;
    posix_spawn_file_actions_init(&Actions);
    posix_spawn_file_actions_adddup2(&Actions, In[0], 0);
    posix_spawn_file_actions_adddup2(&Actions, Out[1], 1);
    posix_spawn_file_actions_addopen(&Actions, 2, this->StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char *> Argv;
    for (const std::string &A : Args)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    const int Error = posix_spawn(&Pid, Args.front().c_str(), &Actions, nullptr, Argv.data(), environ);
    posix_spawn_file_actions_destroy(&Actions);
    close(In[0]);
    close(Out[1]);
    ToServer = In[1];
    FromServer = Out[0];
    if (Error != 0) {
      ADD_FAILURE() << "cannot start " << Args.front() << ": " << std::strerror(Error);
      Pid = -1;
    }
  }

  ~LspClient() {
    if (ToServer >= 0)
      close(ToServer);
    if (FromServer >= 0)
      close(FromServer);
    if (Pid > 0 && !ExitStatus) {
      kill(Pid, SIGKILL);
      waitpid(Pid, nullptr, 0);
    }
  }

  LspClient(const LspClient &) = delete;
  LspClient &operator=(const LspClient &) = delete;

  void sendRaw(const std::string &Bytes) {
    for (size_t Done = 0; Done < Bytes.size();) {
      const ssize_t N = write(ToServer, Bytes.data() + Done, Bytes.size() - Done);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        ADD_FAILURE() << "cannot write to the server: " << std::strerror(errno) << "\nits stderr:\n" << stderrText();
        return;
      }
      Done += size_t(N);
    }
  }

  void sendBody(const std::string &Body) {
    sendRaw("Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body);
  }

  void notify(const std::string &Method, nlohmann::json Params) {
    sendBody(nlohmann::json{{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}}.dump());
  }

  /// Sends a request with a fresh id and returns the response (the messages
  /// that came before it go to `Others`). Null on timeout (a test failure).
  nlohmann::json request(const std::string &Method, nlohmann::json Params,
                         std::vector<nlohmann::json> *Others = nullptr) {
    const int Id = NextId++;
    sendBody(nlohmann::json{{"jsonrpc", "2.0"}, {"id", Id}, {"method", Method}, {"params", std::move(Params)}}.dump());
    return waitFor([Id](const nlohmann::json &M) { return !M.contains("method") && M.contains("id") && M["id"] == Id; },
                   "the response to " + Method, Others);
  }

  /// The next message that satisfies `Wanted`; those before it go to
  /// `Others`. Null (and a test failure) when none comes in time.
  nlohmann::json waitFor(const std::function<bool(const nlohmann::json &)> &Wanted, const std::string &What,
                         std::vector<nlohmann::json> *Others = nullptr, std::chrono::seconds Timeout = DefaultTimeout) {
    const auto Deadline = std::chrono::steady_clock::now() + Timeout;
    while (std::optional<nlohmann::json> M = receive(Deadline)) {
      if (Wanted(*M))
        return *M;
      if (Others)
        Others->push_back(*M);
    }
    ADD_FAILURE() << "no " << What << " from the server\nits stderr:\n" << stderrText();
    return nullptr;
  }

  /// The publishDiagnostics notification for `Uri`.
  nlohmann::json waitForDiagnostics(const std::string &Uri, std::vector<nlohmann::json> *Others = nullptr) {
    return waitFor(
        [&Uri](const nlohmann::json &M) {
          return M.value("method", "") == "textDocument/publishDiagnostics" && M.contains("params") &&
                 M["params"].value("uri", "") == Uri;
        },
        "publishDiagnostics for " + Uri, Others);
  }

  /// Closes the server's stdin (when `CloseInput`) and waits for it to exit:
  /// its exit code, or none when it did not exit in time (then it is killed).
  std::optional<int> waitForExit(bool CloseInput = false, std::chrono::seconds Timeout = DefaultTimeout) {
    if (CloseInput && ToServer >= 0) {
      close(ToServer);
      ToServer = -1;
    }
    const auto Deadline = std::chrono::steady_clock::now() + Timeout;
    while (Pid > 0) {
      int Status = 0;
      const pid_t Done = waitpid(Pid, &Status, WNOHANG);
      if (Done == Pid) {
        ExitStatus = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
        return ExitStatus;
      }
      if (std::chrono::steady_clock::now() > Deadline)
        break;
      poll(nullptr, 0, 20);
    }
    ADD_FAILURE() << "the server did not exit\nits stderr:\n" << stderrText();
    return std::nullopt;
  }

  std::string stderrText() const {
    std::ifstream In(StderrPath);
    std::stringstream S;
    S << In.rdbuf();
    return S.str();
  }

private:
  /// The next message, or none at the deadline, at the end of the server's
  /// output, or when the output is not a well-formed frame (a failure).
  std::optional<nlohmann::json> receive(std::chrono::steady_clock::time_point Deadline) {
    for (;;) {
      if (std::optional<std::string> Body = takeFrame())
        return nlohmann::json::parse(*Body);
      if (Broken)
        return std::nullopt;
      const auto Left =
          std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - std::chrono::steady_clock::now());
      if (Left.count() <= 0)
        return std::nullopt;
      pollfd P{FromServer, POLLIN, 0};
      const int Ready = poll(&P, 1, int(std::min<long long>(Left.count(), 1000)));
      if (Ready < 0 && errno != EINTR)
        return std::nullopt;
      if (Ready <= 0)
        continue;
      char Chunk[65536];
      const ssize_t N = read(FromServer, Chunk, sizeof Chunk);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return std::nullopt; // the server closed its stdout
      Buffer.append(Chunk, size_t(N));
    }
  }

  // One complete frame from the front of Buffer. The server's stdout must
  // hold nothing but frames: anything else fails the test.
  std::optional<std::string> takeFrame() {
    const std::string Prefix = "Content-Length: ";
    if (Buffer.size() >= Prefix.size() && Buffer.compare(0, Prefix.size(), Prefix) != 0) {
      ADD_FAILURE() << "the server's stdout has something that is not a frame: '" << Buffer.substr(0, 200) << "'";
      Broken = true;
      return std::nullopt;
    }
    const size_t HeaderEnd = Buffer.find("\r\n\r\n");
    if (HeaderEnd == std::string::npos)
      return std::nullopt;
    const size_t Length = std::stoul(Buffer.substr(Prefix.size(), HeaderEnd - Prefix.size()));
    if (Buffer.size() < HeaderEnd + 4 + Length)
      return std::nullopt;
    std::string Body = Buffer.substr(HeaderEnd + 4, Length);
    Buffer.erase(0, HeaderEnd + 4 + Length);
    if (!nlohmann::json::accept(Body)) {
      ADD_FAILURE() << "the server sent a body that is not JSON: '" << Body.substr(0, 200) << "'";
      Broken = true;
      return std::nullopt;
    }
    return Body;
  }

  std::string StderrPath;
  pid_t Pid = -1;
  int ToServer = -1, FromServer = -1;
  std::optional<int> ExitStatus;
  std::string Buffer;
  bool Broken = false;
  int NextId = 1;
};

} // namespace occlint::testing
