#include "lint/IsolatedAnalysis.h"

#include "lint/ParseGaps.h"

#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <fstream>
#include <list>
#include <poll.h>
#include <regex>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace occlint {

namespace {
std::string withoutLinesStarting(const std::string &Text, const std::string &Prefix) {
  std::string Out;
  size_t Begin = 0;
  while (Begin < Text.size()) {
    size_t End = Text.find('\n', Begin);
    End = End == std::string::npos ? Text.size() : End + 1;
    if (Text.compare(Begin, Prefix.size(), Prefix) != 0)
      Out.append(Text, Begin, End - Begin);
    Begin = End;
  }
  return Out;
}
} // namespace

namespace {

void writeAll(int Fd, const std::string &Text) {
  size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return;
    Done += size_t(N);
  }
}

// In the child, right after fork: stderr into the pipe, stdout nowhere (it
// is the findings' stream, or the language server's channel), a stack dump
// on a crash (with the check that was running: clang's AST matchers name it
// in the pretty stack trace), then the analysis.
[[noreturn]] void runChild(const std::string &File, int ResultFd, int ErrFd,
                           const std::function<WorkerResult(const std::string &)> &Analyse) {
  ::dup2(ErrFd, STDERR_FILENO);
  ::close(ErrFd);
  if (int Null = ::open("/dev/null", O_WRONLY); Null >= 0) {
    ::dup2(Null, STDOUT_FILENO);
    ::close(Null);
  }
  ::setenv("LLVM_DISABLE_SYMBOLIZATION", "1", 1); // a crash must not start llvm-symbolizer
  llvm::setBugReportMsg(nullptr);                 // the parent says how to report it
  llvm::sys::PrintStackTraceOnErrorSignal("occlint");
  llvm::EnablePrettyStackTrace();
  int Code = 0;
  try {
    writeAll(ResultFd, workerResultToJson(Analyse(File)).dump());
  } catch (const std::exception &E) {
    writeAll(STDERR_FILENO, std::string("occlint: internal error: ") + E.what() + "\n");
    Code = 3;
  } catch (...) {
    writeAll(STDERR_FILENO, "occlint: internal error: an unknown exception\n");
    Code = 3;
  }
  ::_exit(Code); // no destructors, no atexit, no flushing the parent's buffered output twice
}

struct Child {
  std::string file;
  pid_t pid = -1;
  int resultFd = -1, errFd = -1;
  std::string result, err;
  bool overMemory = false;
};

// Resident memory of a process, in bytes (0 when unknown).
uint64_t residentBytes(pid_t Pid) {
  std::ifstream Statm("/proc/" + std::to_string(Pid) + "/statm");
  uint64_t Size = 0, Resident = 0;
  if (!(Statm >> Size >> Resident))
    return 0;
  return Resident * uint64_t(::sysconf(_SC_PAGESIZE));
}

// Reads what is there; false at end of file or on an error.
bool drain(int Fd, std::string &Into) {
  char Buffer[65536];
  for (;;) {
    ssize_t N = ::read(Fd, Buffer, sizeof Buffer);
    if (N > 0) {
      Into.append(Buffer, size_t(N));
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    return N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

// Where LLVM's crash report begins in what a child wrote ("Stack dump:", or
// "Stack dump without symbol names ..." before the frames); npos if none.
size_t stackDumpStart(const std::string &Err) {
  size_t At = Err.find("Stack dump");
  while (At != std::string::npos && At > 0 && Err[At - 1] != '\n')
    At = Err.find("Stack dump", At + 1);
  return At;
}

ChildFailure describeFailure(const Child &C, int Status) {
  ChildFailure F;
  static const std::regex MatcherLine(R"(ASTMatcher: Processing '([^']+)')");
  if (std::smatch M; std::regex_search(C.err, M, MatcherLine))
    F.check = M[1];
  if (size_t Dump = stackDumpStart(C.err); Dump != std::string::npos)
    F.crashLog = C.err.substr(Dump);
  if (C.overMemory) {
    F.outOfMemory = true;
    F.what = "used more memory than --max-memory allows";
  } else if (WIFSIGNALED(Status))
    F.what = std::string("crashed (") + ::strsignal(WTERMSIG(Status)) + ")";
  else if (WIFEXITED(Status) && WEXITSTATUS(Status) != 0) {
    F.what = "failed (exit status " + std::to_string(WEXITSTATUS(Status)) + ")";
    if (size_t At = C.err.rfind("occlint: internal error: "); At != std::string::npos)
      F.what += ": " + C.err.substr(At + 25, C.err.find('\n', At) - At - 25);
  } else
    F.what = "sent back no result";
  return F;
}

} // namespace

void analyseInChildren(const std::vector<std::string> &Files, const IsolationLimits &Limits,
                       const std::function<WorkerResult(const std::string &File)> &Analyse,
                       const std::function<void(IsolatedFile)> &Done, ProgressLine *Progress, llvm::raw_ostream &Errs) {
  const uint64_t MaxBytes = Limits.maxMemoryMB << 20;
  std::list<Child> Running;
  size_t Next = 0;

  auto Start = [&](const std::string &File) {
    int ResultPipe[2], ErrPipe[2];
    if (::pipe2(ResultPipe, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    if (::pipe2(ErrPipe, O_CLOEXEC) != 0) {
      ::close(ResultPipe[0]);
      ::close(ResultPipe[1]);
      throw std::runtime_error(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    Errs.flush();
    const pid_t Pid = ::fork();
    if (Pid < 0)
      throw std::runtime_error(std::string("cannot start a process to analyse ") + File + ": " + std::strerror(errno));
    if (Pid == 0) {
      ::close(ResultPipe[0]);
      ::close(ErrPipe[0]);
      runChild(File, ResultPipe[1], ErrPipe[1], Analyse);
    }
    ::close(ResultPipe[1]);
    ::close(ErrPipe[1]);
    ::fcntl(ResultPipe[0], F_SETFL, O_NONBLOCK);
    ::fcntl(ErrPipe[0], F_SETFL, O_NONBLOCK);
    Child C;
    C.file = File;
    C.pid = Pid;
    C.resultFd = ResultPipe[0];
    C.errFd = ErrPipe[0];
    Running.push_back(std::move(C));
    if (Progress)
      Progress->fileStarted(File);
  };

  auto Finish = [&](Child &C) {
    int Status = 0;
    struct rusage Usage{};
    while (::wait4(C.pid, &Status, 0, &Usage) < 0 && errno == EINTR) {
    }
    // The child's peak resident memory, as the kernel accounted it: a child
    // that finished between two polls above the limit is over it all the
    // same (the limit no longer depends on when the polls fall).
    if (MaxBytes && uint64_t(Usage.ru_maxrss) * 1024 > MaxBytes)
      C.overMemory = true;
    IsolatedFile Out;
    Out.file = C.file;
    const bool Exited = WIFEXITED(Status) && WEXITSTATUS(Status) == 0 && !C.overMemory;
    if (Exited) {
      try {
        Out.result = workerResultFromJson(nlohmann::json::parse(C.result));
      } catch (const std::exception &E) {
        Out.failure.what = std::string("sent back an unreadable result (") + E.what() + ")";
      }
    } else {
      Out.failure = describeFailure(C, Status);
    }
    // The child's own messages (notes, Clang's "Error while processing"), without a stack dump.
    std::string Said = C.err.substr(0, stackDumpStart(C.err));
    Out.said = Said;
    // Every Clang error of the file was occlint's gap (lint/ParseGaps.h: nvcc
    // compiled it, a warning says so): ClangTool's "Error while processing
    // FILE." would contradict that warning.
    if (Out.result && !Out.result->parseGaps.empty() &&
        std::none_of(Out.result->errors.begin(), Out.result->errors.end(), isCompilerError))
      Said = withoutLinesStarting(Said, "Error while processing ");
    Errs << Said;
    Errs.flush();
    if (Progress)
      Progress->fileFinished(C.file);
    Done(std::move(Out));
  };

  while (Next < Files.size() || !Running.empty()) {
    while (Running.size() < std::max(1u, Limits.jobs) && Next < Files.size())
      Start(Files[Next++]);
    std::vector<pollfd> Fds;
    for (const Child &C : Running) {
      if (C.resultFd >= 0)
        Fds.push_back({C.resultFd, POLLIN, 0});
      if (C.errFd >= 0)
        Fds.push_back({C.errFd, POLLIN, 0});
    }
    if (!Fds.empty() && ::poll(Fds.data(), Fds.size(), 100) < 0 && errno != EINTR)
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (auto It = Running.begin(); It != Running.end();) {
      Child &C = *It;
      for (int *Fd : {&C.resultFd, &C.errFd})
        if (*Fd >= 0 && !drain(*Fd, Fd == &C.resultFd ? C.result : C.err)) {
          ::close(*Fd);
          *Fd = -1;
        }
      if (MaxBytes && !C.overMemory && residentBytes(C.pid) > MaxBytes) {
        C.overMemory = true;
        ::kill(C.pid, SIGKILL);
      }
      if (C.resultFd < 0 && C.errFd < 0) {
        Finish(C);
        It = Running.erase(It);
      } else {
        ++It;
      }
    }
  }
}

} // namespace occlint
