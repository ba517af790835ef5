// Opening an untrusted checkout must not run its programs (docs/security.md).
// A scratch "checkout" holds one translation unit per attack vector, each
// naming a stub program (a shell script, or a shared library whose
// constructor runs on load) that leaves a marker file outside the checkout.
// For each vector the test first shows that the stub really runs (the same
// nvcc, g++, clang or clang-tidy command run directly), then that occlint -p,
// occlint report and the language server (untrusted and trusted) do not run
// it, and that the checkout is byte-identical afterwards.
#include "CommandRunner.h"
#include "LspClient.h"
#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;

namespace {

const std::string Toolkit = OCCLINT_CUDA_PATH;
const std::string Nvcc = Toolkit + "/bin/nvcc";
const std::string Kernel = "__global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n"
                           "void run(float *p) { k<<<8, 100>>>(p); }\n";

/// Every file under Root with its bytes.
std::map<std::string, std::string> snapshot(const fs::path &Root) {
  std::map<std::string, std::string> Files;
  for (const auto &E : fs::recursive_directory_iterator(Root))
    if (E.is_regular_file())
      Files[fs::relative(E.path(), Root).string()] = readFile(E.path());
  return Files;
}

class UntrustedCheckout : public ::testing::Test {
protected:
  void SetUp() override {
    if (!fs::exists(Nvcc))
      GTEST_SKIP() << "no CUDA toolkit at '" << Toolkit << "' (nvcc runs the host compiler these vectors abuse)";
    fs::create_directories(Repo);
    fs::create_directories(Markers);
    fs::create_directories(Home / "config");
    // The stubs, as an attacker would commit them.
    stub("tools/cc-abs");
    stub("tools/cc-rel");
    stub("tools/bindir/gcc");
    stub("tools/b/cc1plus");
    stub("fakecuda/bin/nvcc");
    stub("fakecuda/bin/ptxas");
    stub("tools/clang++");
    plugin("evil-host.so");
    plugin("evil-clang.so");
    plugin("evil-tidy.so");
    // One translation unit per vector.
    entry("ccbin-abs.cu", Nvcc + " -ccbin " + (Repo / "tools/cc-abs").string() + " -arch=sm_90 -c ccbin-abs.cu -o a.o");
    entry("ccbin-rel.cu", Nvcc + " -ccbin=./tools/cc-rel -arch=sm_90 -c ccbin-rel.cu -o a.o");
    entry("bindir.cu", Nvcc + " --compiler-bindir=tools/bindir -arch=sm_90 -c bindir.cu -o a.o");
    entry("xcompiler-b.cu",
          Nvcc + " -Xcompiler -B" + (Repo / "tools/b/").string() + " -arch=sm_90 -c xcompiler-b.cu -o a.o");
    entry("xcompiler-plugin.cu", Nvcc + " -Xcompiler -fplugin=" + (Repo / "evil-host.so").string() +
                                     " -arch=sm_90 -c xcompiler-plugin.cu -o a.o");
    entry("clang-plugin.cu", "/usr/bin/clang++-22 -x cuda --cuda-gpu-arch=sm_90 -fplugin=" +
                                 (Repo / "evil-clang.so").string() + " -c clang-plugin.cu -o a.o");
    entry("fake-nvcc.cu", "./fakecuda/bin/nvcc -arch=sm_90 -c fake-nvcc.cu -o a.o");
    entry("fake-clang.cu", "./tools/clang++ -x cuda --cuda-gpu-arch=sm_90 -c fake-clang.cu -o a.o");
    entry("tidy-extra-args.cu", Nvcc + " -arch=sm_90 -c tidy-extra-args.cu -o a.o");
    writeFile(Repo / ".clang-tidy", "Checks: '-*,cuda-*'\nExtraArgs: ['-fplugin=" + (Repo / "evil-tidy.so").string() +
                                        "', '-Xclang', '-load', '-Xclang', '" + (Repo / "evil-tidy.so").string() +
                                        "']\n");
    json Database = json::array();
    for (const auto &[File, Command] : Entries)
      Database.push_back({{"directory", Repo.string()}, {"command", Command}, {"file", (Repo / File).string()}});
    writeFile(Repo / "compile_commands.json", Database.dump(1));
  }

  void stub(const std::string &Name) {
    const fs::path Path = Repo / Name;
    writeFile(Path, "#!/bin/sh\ntouch '" + marker(Name).string() + "'\nexit 1\n");
    fs::permissions(Path, fs::perms::owner_all);
  }
  void plugin(const std::string &Name) {
    const fs::path Source = Scratch.path() / (Name + ".c");
    writeFile(Source, "#include <fcntl.h>\n#include <unistd.h>\n"
                      "__attribute__((constructor)) static void ran(void) {\n"
                      "  int fd = open(\"" +
                          marker(Name).string() +
                          "\", O_CREAT | O_WRONLY, 0644);\n"
                          "  if (fd >= 0) close(fd);\n}\n");
    CommandResult R =
        runCommand("cc -shared -fPIC -o " + shellQuote((Repo / Name).string()) + " " + shellQuote(Source.string()));
    ASSERT_EQ(R.exitCode, 0) << R.output;
  }
  void entry(const std::string &File, const std::string &Command) {
    writeFile(Repo / File, Kernel);
    Entries[File] = Command;
  }
  fs::path marker(const std::string &Name) const {
    std::string Flat = Name;
    std::replace(Flat.begin(), Flat.end(), '/', '_');
    return Markers / Flat;
  }
  std::vector<std::string> markersLeft() const {
    std::vector<std::string> Left;
    for (const auto &E : fs::directory_iterator(Markers))
      Left.push_back(E.path().filename().string());
    std::sort(Left.begin(), Left.end());
    return Left;
  }
  void clearMarkers() {
    fs::remove_all(Markers);
    fs::create_directories(Markers);
  }
  /// The environment of every occlint run: a user config and cache of the test's own.
  std::string env() const {
    return "XDG_CONFIG_HOME=" + shellQuote((Home / "config").string()) +
           " OCCLINT_CACHE_DIR=" + shellQuote((Home / "cache").string()) + " ";
  }
  /// Runs Command in the checkout, as a user would.
  CommandResult inRepo(const std::string &Command) {
    return runCommand("cd " + shellQuote(Repo.string()) + " && " + env() + Command);
  }

  ScratchDir Scratch;
  const fs::path Repo = Scratch.path() / "checkout";
  const fs::path Markers = Scratch.path() / "markers";
  const fs::path Home = Scratch.path() / "home";
  std::map<std::string, std::string> Entries;
};

TEST_F(UntrustedCheckout, EveryStubReallyRunsWhenItsCommandRunsDirectly) {
  const std::string Out = " --cubin -arch=sm_90 -o " + shellQuote((Scratch.path() / "x.cubin").string()) + " ";
  struct Proof {
    std::string command, marker;
  };
  const std::vector<Proof> Proofs = {
      {Nvcc + " -ccbin " + shellQuote((Repo / "tools/cc-abs").string()) + Out + "ccbin-abs.cu", "tools_cc-abs"},
      {Nvcc + " -ccbin=./tools/cc-rel" + Out + "ccbin-rel.cu", "tools_cc-rel"},
      {Nvcc + " --compiler-bindir=tools/bindir" + Out + "bindir.cu", "tools_bindir_gcc"},
      {Nvcc + " -Xcompiler -B" + shellQuote((Repo / "tools/b/").string()) + Out + "xcompiler-b.cu", "tools_b_cc1plus"},
      {Nvcc + " -Xcompiler -fplugin=" + shellQuote((Repo / "evil-host.so").string()) + Out + "xcompiler-plugin.cu",
       "evil-host.so"},
      {"/usr/bin/clang++-22 -fsyntax-only -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 "
       "-fplugin=" +
           shellQuote((Repo / "evil-clang.so").string()) + " clang-plugin.cu",
       "evil-clang.so"},
      {"./fakecuda/bin/nvcc --version", "fakecuda_bin_nvcc"},
      {"./tools/clang++ --version", "tools_clang++"},
      // The flags of the .clang-tidy's ExtraArgs load the library into a
      // Clang that runs them. (clang-tidy 22 applies ExtraArgs to its parse,
      // but LibTooling does not load -fplugin= or -Xclang -load: checked by
      // hand; occlint drops them all the same, docs/security.md.)
      {"/usr/bin/clang++-22 -fsyntax-only -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 "
       "-fplugin=" +
           shellQuote((Repo / "evil-tidy.so").string()) + " tidy-extra-args.cu",
       "evil-tidy.so"},
  };
  for (const Proof &P : Proofs) {
    clearMarkers();
    CommandResult R = inRepo(P.command);
    EXPECT_EQ(markersLeft(), std::vector<std::string>{P.marker}) << P.command << "\n" << R.output;
  }
}

TEST_F(UntrustedCheckout, LintAndReportRunNoneOfTheCheckoutsPrograms) {
  const auto Before = snapshot(Repo);
  CommandResult Lint = inRepo(shellQuote(OCCLINT_BINARY) + " -p . --gpu H100");
  EXPECT_EQ(markersLeft(), std::vector<std::string>{}) << Lint.output;
  // Every kernel is still analysed: nvcc ran with /usr/bin/g++ as its host compiler.
  EXPECT_NE(Lint.output.find("ccbin-abs.cu:2:29: warning: block of 100 threads"), std::string::npos) << Lint.output;
  // One note per refused program, with the line that would allow it. (The
  // fake nvcc is not even considered: occlint compiles with the toolkit it
  // found, whatever nvcc a command names; its marker above shows it never ran.)
  for (const std::string Program : {"tools/cc-abs", "tools/cc-rel", "tools/bindir/gcc", "tools/clang++"}) {
    const std::string Real = fs::canonical(Repo / Program).string();
    const std::string Line = "--allow-compiler '" + Real + "'";
    const size_t First = Lint.output.find(Line);
    EXPECT_NE(First, std::string::npos) << Program << "\n" << Lint.output;
    EXPECT_EQ(Lint.output.find(Line, First + 1), std::string::npos) << "noted twice: " << Program << "\n"
                                                                    << Lint.output;
  }
  for (const std::string Dropped : {"-fplugin=" + (Repo / "evil-clang.so").string(),
                                    "-fplugin=" + (Repo / "evil-tidy.so").string(), std::string("-Xclang -load")})
    EXPECT_NE(Lint.output.find("dropped '" + Dropped), std::string::npos) << Dropped << "\n" << Lint.output;
  EXPECT_EQ(snapshot(Repo), Before) << "occlint -p wrote into the checkout";

  CommandResult Report = inRepo(shellQuote(OCCLINT_BINARY) + " report -p . --gpu H100 --markdown");
  EXPECT_EQ(Report.exitCode, 0) << Report.output;
  EXPECT_EQ(markersLeft(), std::vector<std::string>{}) << Report.output;
  EXPECT_EQ(snapshot(Repo), Before) << "occlint report wrote into the checkout";
}

TEST_F(UntrustedCheckout, TheUserCanAllowAProgramOnTheCommandLineOnly) {
  // The checkout cannot: an ExtraArgs or a database entry never widens the list.
  CommandResult R = inRepo(shellQuote(OCCLINT_BINARY) + " -p . --gpu H100 ccbin-rel.cu --allow-compiler " +
                           shellQuote((Repo / "tools/cc-rel").string()));
  EXPECT_EQ(markersLeft(), std::vector<std::string>{"tools_cc-rel"}) << R.output;
}

TEST_F(UntrustedCheckout, TheLanguageServerStartsNoProcessForAnUntrustedWorkspace) {
  const auto Before = snapshot(Repo);
  for (bool Trusted : {false, true}) {
    clearMarkers();
    std::vector<std::string> Args = {"/usr/bin/env",
                                     "XDG_CONFIG_HOME=" + (Home / "config").string(),
                                     "OCCLINT_CACHE_DIR=" + (Home / "cache").string(),
                                     OCCLINT_BINARY,
                                     "lsp",
                                     "-p",
                                     Repo.string(),
                                     "--gpu",
                                     "H100"};
    if (Trusted)
      Args.push_back("--trust-workspace");
    LspClient Server(Args, (Scratch.path() / "lsp-stderr.log").string());
    const json Init = Server.request(
        "initialize",
        {{"processId", getpid()}, {"rootUri", "file://" + Repo.string()}, {"capabilities", json::object()}});
    ASSERT_TRUE(Init.contains("result")) << Init.dump(2);
    Server.notify("initialized", json::object());
    bool SaidUntrusted = false;
    for (const auto &[File, Command] : Entries) {
      const std::string Uri = "file://" + (Repo / File).string();
      Server.notify("textDocument/didOpen",
                    {{"textDocument", {{"uri", Uri}, {"languageId", "cuda-cpp"}, {"version", 1}, {"text", Kernel}}}});
      std::vector<json> Others;
      const json Published = Server.waitForDiagnostics(Uri, &Others);
      ASSERT_FALSE(Published.is_null()) << File << "\n" << Server.stderrText();
      for (const json &M : Others)
        if (M.value("method", "") == "window/showMessage" &&
            M["params"]["message"].get<std::string>().find("not trusted") != std::string::npos)
          SaidUntrusted = true;
    }
    EXPECT_EQ(SaidUntrusted, !Trusted) << Server.stderrText();
    EXPECT_EQ(markersLeft(), std::vector<std::string>{}) << (Trusted ? "trusted" : "untrusted") << "\n"
                                                         << Server.stderrText();
    (void)Server.request("shutdown", nullptr);
    Server.notify("exit", nullptr);
    EXPECT_EQ(Server.waitForExit(), 0) << Server.stderrText();
  }
  EXPECT_EQ(snapshot(Repo), Before) << "occlint lsp wrote into the checkout";
}

TEST_F(UntrustedCheckout, AUserConfigFileTrustsAWorkspaceAndABadOneIsAnError) {
  writeFile(Home / "config/occlint/config.yaml", "allow-compilers: [oops\n");
  CommandResult Bad = inRepo(shellQuote(OCCLINT_BINARY) + " -p . --gpu H100 ccbin-rel.cu");
  EXPECT_EQ(Bad.exitCode, 2) << Bad.output;
  EXPECT_NE(Bad.output.find("invalid user config file " + (Home / "config/occlint/config.yaml").string()),
            std::string::npos)
      << Bad.output;

  writeFile(Home / "config/occlint/config.yaml", "allow-compilers:\n  - " + (Repo / "tools/cc-rel").string() +
                                                     "\ntrusted-workspaces:\n  - " + Repo.string() + "\n");
  CommandResult Good = inRepo(shellQuote(OCCLINT_BINARY) + " -p . --gpu H100 ccbin-rel.cu");
  EXPECT_EQ(markersLeft(), std::vector<std::string>{"tools_cc-rel"}) << Good.output;
}

} // namespace
