// Issue 44, item 9: `occlint wrap --lint` (findings in the build) and
// `occlint-wrap` (resource sidecars) behind sccache and behind distcc with a
// local distccd, end to end. A small build (two CUDA units sharing a header
// through `wrap --lint`, one of them again through `occlint-wrap` alone, one
// C++ unit) is run three ways in the same directory: with no launcher,
// behind sccache (a miss, then a hit), behind distcc; the sidecars, the
// findings `occlint merge` combines and its report page must be those of
// the build without a launcher. distccd's own log shows which units it
// compiled: distcc keeps a .cu compile on this machine (it finds no source
// file it knows in nvcc's command line) and sends the C++ unit.
// sccache and distcc are Debian packages (scripts/test-tools.sh installs
// them); the test fails, saying so, where one is missing.
#include "CommandRunner.h"
#include "TestFiles.h"
#include "WrappedBuildSources.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <regex>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace occlint::testing;
namespace fs = std::filesystem;

namespace {

std::string nvcc() { return (fs::path(OCCLINT_CUDA_PATH) / "bin" / "nvcc").string(); }

// The program's path on PATH, or "".
std::string onPath(const std::string &Program) {
  CommandResult R = runCommand("command -v " + shellQuote(Program), /*MergeStderr=*/false);
  std::string Path = R.output.substr(0, R.output.find('\n'));
  return R.exitCode == 0 ? Path : "";
}

// A TCP port nothing on this machine listens on now (the kernel's pick for
// port 0); 0 when none could be had.
int freePort() {
  const int Socket = ::socket(AF_INET, SOCK_STREAM, 0);
  if (Socket < 0)
    return 0;
  sockaddr_in Address{};
  Address.sin_family = AF_INET;
  Address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t Length = sizeof Address;
  int Port = 0;
  if (::bind(Socket, reinterpret_cast<sockaddr *>(&Address), sizeof Address) == 0 &&
      ::getsockname(Socket, reinterpret_cast<sockaddr *>(&Address), &Length) == 0)
    Port = ntohs(Address.sin_port);
  ::close(Socket);
  return Port;
}

#define REQUIRE_PROGRAM(Path, Name)                                                                                    \
  if ((Path).empty())                                                                                                  \
  GTEST_FAIL() << "no " << (Name) << " here: this test needs it (scripts/test-tools.sh installs it)"

// Two units that include one header with a launch of 48 threads per block;
// a.cu has its own launch of 100 threads (WrappedBuildSources.h).
using wrapped_build::Header;
using wrapped_build::UnitA;
using wrapped_build::UnitB;
const char *const HostUnit = "int twice(int x) { return 2 * x; }\n";

// What a build leaves that the comparison reads: each CUDA unit's sidecar
// (without what is expected to differ: the launchers it went through, and
// ptxas's "Compile time" line, which a cache hit replays from the first
// compile), the merged findings (JSON) and the merged report page.
struct BuildResult {
  bool compiled = true;
  std::string log;
  std::map<std::string, nlohmann::json> sidecars;
  std::string mergedJson, mergedHtml;
};

class CompilerCaches : public ::testing::Test {
protected:
  ScratchDir Dir;
  std::string Nvcc = nvcc(), Gxx = onPath("g++");

  void SetUp() override {
    Dir.write("common.cuh", Header);
    Dir.write("a.cu", UnitA);
    Dir.write("b.cu", UnitB);
    Dir.write("host.cpp", HostUnit);
    nlohmann::json Database = nlohmann::json::array();
    for (const char *Unit : {"a", "b"})
      Database.push_back(
          {{"directory", Dir.path().string()},
           {"arguments", {Nvcc, "-arch=sm_90", "-c", std::string(Unit) + ".cu", "-o", std::string(Unit) + ".o"}},
           {"file", std::string(Unit) + ".cu"}});
    Database.push_back({{"directory", Dir.path().string()},
                        {"arguments", {Gxx, "-c", "host.cpp", "-o", "host.o"}},
                        {"file", "host.cpp"}});
    Dir.write("compile_commands.json", Database.dump(1));
  }

  static nlohmann::json comparable(nlohmann::json Sidecar) {
    Sidecar.erase("launchers");
    if (Sidecar.contains("ptxas"))
      for (auto &[Arch, Text] : Sidecar["ptxas"].items())
        Text = std::regex_replace(Text.get<std::string>(), std::regex("Compile time = [0-9.]+ ms"), "Compile time");
    return Sidecar;
  }

  // The build, each compile behind `Launcher` ("" for none), with `Environment`
  // (assignments for the shell) and its own occlint cache.
  BuildResult build(const std::string &Launcher, const std::string &Environment, const std::string &Name) {
    BuildResult Out;
    for (const char *Stale : {"a.o", "b.o", "a-plain.o", "host.o", "a.o.occlint.json", "b.o.occlint.json",
                              "a-plain.o.occlint.json", "host.o.occlint.json"})
      fs::remove(Dir.path() / Stale);
    const std::string Env =
        Environment + " OCCLINT_CACHE_DIR=" + shellQuote((Dir.path() / ("occlint-cache-" + Name)).string()) + " ";
    const std::string In = "cd " + shellQuote(Dir.path().string()) + " && " + Env;
    const std::string Wrapped = Launcher.empty() ? "" : Launcher + " ";
    for (const std::string Unit : {"a", "b"}) {
      CommandResult R = runCommand(In + shellQuote(OCCLINT_BINARY) + " wrap --lint --gpu H100 " + Wrapped +
                                   shellQuote(Nvcc) + " -arch=sm_90 -c " + Unit + ".cu -o " + Unit + ".o");
      Out.log += R.output;
      Out.compiled = Out.compiled && R.exitCode == 0;
      Out.sidecars[Unit] =
          comparable(nlohmann::json::parse(readFile(Dir.path() / (Unit + ".o.occlint.json")), nullptr, false));
    }
    // The launcher alone (resource reports, no lint) on the same unit.
    CommandResult Plain = runCommand(In + shellQuote(OCCLINT_WRAP_BINARY) + " " + Wrapped + shellQuote(Nvcc) +
                                     " -arch=sm_90 -c a.cu -o a-plain.o");
    Out.log += Plain.output;
    Out.compiled = Out.compiled && Plain.exitCode == 0;
    Out.sidecars["a-plain"] =
        comparable(nlohmann::json::parse(readFile(Dir.path() / "a-plain.o.occlint.json"), nullptr, false));
    CommandResult Host =
        runCommand(In + shellQuote(OCCLINT_WRAP_BINARY) + " " + Wrapped + shellQuote(Gxx) + " -c host.cpp -o host.o");
    Out.log += Host.output;
    Out.compiled = Out.compiled && Host.exitCode == 0 && fs::exists(Dir.path() / "host.o");
    const fs::path Html = Dir.path() / ("merged-" + Name + ".html");
    CommandResult Merged = runCommand(Env + shellQuote(OCCLINT_BINARY) + " merge " + shellQuote(Dir.path().string()) +
                                          " --quiet --format json --html " + shellQuote(Html.string()),
                                      /*MergeStderr=*/false);
    Out.mergedJson = Merged.output;
    Out.mergedHtml = readFile(Html);
    return Out;
  }

  void expectSameAsLocal(const BuildResult &Local, const BuildResult &Other, const std::string &What) {
    ASSERT_TRUE(Other.compiled) << What << ":\n" << Other.log;
    for (const auto &[Unit, Sidecar] : Local.sidecars) {
      ASSERT_TRUE(Sidecar.is_object()) << Unit;
      EXPECT_EQ(Sidecar.contains("lint"), Unit != "a-plain") << Unit << ": " << Sidecar.dump();
      EXPECT_TRUE(Sidecar.contains("ptxas")) << Unit << ": " << Sidecar.dump();
      EXPECT_EQ(Other.sidecars.at(Unit), Sidecar) << What << ", sidecar of " << Unit;
    }
    EXPECT_EQ(Other.mergedJson, Local.mergedJson) << What << ": merged findings";
    EXPECT_EQ(Other.mergedHtml, Local.mergedHtml) << What << ": merged report page";
  }
};

TEST_F(CompilerCaches, BehindSccacheAMissAndAHitGiveTheLocalBuildsSidecarsFindingsAndReport) {
  const std::string Sccache = onPath("sccache");
  REQUIRE_PROGRAM(Sccache, "sccache");
  REQUIRE_PROGRAM(Gxx, "g++");
  ASSERT_TRUE(fs::exists(Nvcc)) << "no nvcc at " << Nvcc;
  const BuildResult Local = build("", "", "local");
  ASSERT_TRUE(Local.compiled) << Local.log;
  ASSERT_NE(Local.mergedJson.find("block of 100 threads"), std::string::npos) << Local.mergedJson;
  ASSERT_NE(Local.mergedJson.find("block of 48 threads"), std::string::npos) << Local.mergedJson;

  // A server of this test's own (port and cache directory), stopped at the end.
  const int SccachePort = freePort();
  ASSERT_GT(SccachePort, 0) << "no free TCP port for sccache's server";
  const std::string Env = "SCCACHE_DIR=" + shellQuote((Dir.path() / "sccache").string()) +
                          " SCCACHE_SERVER_PORT=" + std::to_string(SccachePort) + " SCCACHE_IDLE_TIMEOUT=300";
  struct StopServer {
    std::string Command;
    ~StopServer() { runCommand(Command); }
  } Stop{Env + " " + shellQuote(Sccache) + " --stop-server"};
  const BuildResult Miss = build(shellQuote(Sccache), Env, "sccache-miss");
  expectSameAsLocal(Local, Miss, "behind sccache, a miss");
  runCommand(Env + " " + shellQuote(Sccache) + " --zero-stats");
  const BuildResult Hit = build(shellQuote(Sccache), Env, "sccache-hit");
  expectSameAsLocal(Local, Hit, "behind sccache, a hit");
  // The second build came from sccache's cache: the three CUDA compiles and
  // the C++ one, none compiled again.
  const nlohmann::json Stats = nlohmann::json::parse(
      runCommand(Env + " " + shellQuote(Sccache) + " --show-stats --stats-format json", false).output, nullptr, false);
  ASSERT_TRUE(Stats.is_object()) << Stats.dump();
  EXPECT_EQ(Stats["stats"]["cache_hits"]["counts"], nlohmann::json({{"CUDA", 3}, {"C/C++", 1}})) << Stats.dump();
  EXPECT_EQ(Stats["stats"]["cache_misses"]["counts"], nlohmann::json::object()) << Stats.dump();
}

TEST_F(CompilerCaches, BehindDistccTheCudaUnitsStayLocalTheCppUnitGoesToTheDaemonAndTheResultsAreTheLocalOnes) {
  const std::string Distcc = onPath("distcc"), Distccd = onPath("distccd");
  REQUIRE_PROGRAM(Distcc, "distcc");
  REQUIRE_PROGRAM(Distccd, "distccd");
  REQUIRE_PROGRAM(Gxx, "g++");
  ASSERT_TRUE(fs::exists(Nvcc)) << "no nvcc at " << Nvcc;
  const BuildResult Local = build("", "", "local");
  ASSERT_TRUE(Local.compiled) << Local.log;

  // distccd on this machine, serving two jobs; as root it runs as nobody,
  // so its log is in a directory anyone can write (and reach: the scratch
  // directory is made by mkdtemp, 0700).
  const fs::path Logs = Dir.path() / "distccd";
  fs::create_directories(Logs);
  fs::permissions(Dir.path(), fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add);
  fs::permissions(Logs, fs::perms::all);
  // Stopped at the end however the test ends: its process group (the daemon
  // and its preforked children) from the pid file, and by its command line.
  struct StopDaemon {
    fs::path PidFile;
    std::vector<int> Ports;
    ~StopDaemon() {
      std::error_code Ignored;
      const long Pid = fs::exists(PidFile, Ignored) ? std::strtol(readFile(PidFile).c_str(), nullptr, 10) : 0;
      if (Pid > 1) // never 0: kill(-0) would be this test's own group
        ::kill(-static_cast<pid_t>(Pid), SIGTERM);
      for (int Port : Ports)
        runCommand("pkill -f -- " + shellQuote("distccd .*--port " + std::to_string(Port) + " "));
    }
  } Stop{Logs / "distccd.pid", {}};
  // A port nothing listens on; another when something took it meanwhile.
  int Port = 0;
  fs::path DaemonLog;
  bool Listening = false;
  for (int Attempt = 0; Attempt < 5 && !Listening; ++Attempt) {
    Port = freePort(); // free now; another process may still take it first, hence the attempts
    ASSERT_GT(Port, 0) << "no free TCP port for distccd";
    Stop.Ports.push_back(Port);
    const fs::path Log = Logs / ("distccd-" + std::to_string(Port) + ".log");
    const std::string Start = shellQuote(Distccd) + " --daemon --allow 127.0.0.1 --listen 127.0.0.1 --port " +
                              std::to_string(Port) + " --jobs 2 --log-level info --enable-tcp-insecure --log-file " +
                              shellQuote(Log.string()) + " --pid-file " + shellQuote((Logs / "distccd.pid").string()) +
                              (::geteuid() == 0 ? " --user nobody" : "");
    CommandResult Started = runCommand(Start);
    const auto BindFailedIn = [&](const std::string &Text) {
      return Text.find("bind of 127.0.0.1:" + std::to_string(Port) + " failed") != std::string::npos;
    };
    if (Started.exitCode != 0 && fs::exists(Log) && BindFailedIn(readFile(Log)))
      continue; // it binds before it detaches: the port is taken
    ASSERT_EQ(Started.exitCode, 0) << Start << "\n" << Started.output << (fs::exists(Log) ? readFile(Log) : "");
    bool BindFailed = false;
    for (int Try = 0; Try < 200 && !Listening && !BindFailed; ++Try) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const std::string Text = fs::exists(Log) ? readFile(Log) : "";
      Listening = fs::exists(Logs / "distccd.pid") &&
                  Text.find("listening on 127.0.0.1:" + std::to_string(Port)) != std::string::npos;
      BindFailed = BindFailedIn(Text);
    }
    if (Listening)
      DaemonLog = Log;
  }
  ASSERT_TRUE(Listening) << "distccd did not start on any of the ports tried (see " << Logs << ")";

  // DISTCC_FALLBACK=0: a unit distcc means to send but cannot is an error,
  // not a silent local compile.
  const fs::path ClientLog = Dir.path() / "distcc-client.log";
  fs::create_directories(Dir.path() / "distcc-state"); // the client's locks, instead of ~/.distcc
  const std::string Env = "DISTCC_HOSTS=127.0.0.1:" + std::to_string(Port) + "/2 DISTCC_FALLBACK=0 DISTCC_VERBOSE=1" +
                          " DISTCC_LOG=" + shellQuote(ClientLog.string()) +
                          " DISTCC_DIR=" + shellQuote((Dir.path() / "distcc-state").string());
  const BuildResult Distributed = build(shellQuote(Distcc), Env, "distcc");
  expectSameAsLocal(Local, Distributed, "behind distcc");

  // What distccd compiled: the C++ unit, and no CUDA unit.
  const std::string Daemon = readFile(DaemonLog);
  EXPECT_NE(Daemon.find("compile from host.cpp to host.o"), std::string::npos) << Daemon;
  EXPECT_EQ(Daemon.find(".cu "), std::string::npos) << Daemon;
  // Why: distcc sees no source file it knows in nvcc's command and runs it here.
  const std::string Client = readFile(ClientLog);
  EXPECT_NE(Client.find("exec on localhost: " + Nvcc), std::string::npos) << Client;
  EXPECT_NE(Client.find("compile host.cpp on 127.0.0.1:" + std::to_string(Port) + "/2 completed ok"), std::string::npos)
      << Client;
}

} // namespace
