// The allowlist of programs occlint may start (toolchain/ProgramAllowlist.h) and
// runSubprocess's refusal of everything else (docs/security.md).
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/Subprocess.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

using namespace occlint;
namespace fs = std::filesystem;

namespace {

struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string T = (fs::temp_directory_path() / "occlint-allowlist-XXXXXX").string();
    path = ::mkdtemp(T.data());
  }
  ~ScratchDir() {
    std::error_code Ec;
    fs::remove_all(path, Ec);
  }
  /// An executable shell script that leaves `marker` behind when it runs.
  std::string stub(const std::string &name, const fs::path &marker) const {
    fs::path p = path / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "#!/bin/sh\ntouch '" << marker.string() << "'\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
};

// The tests set the process's list: each puts back the one it found, so that
// the tests after it in the same process (occlint_toolchain_tests run as one
// process, not one test per process as ctest runs them) still run the
// toolkit's nvcc.
class ProgramAllowlistTest : public ::testing::Test {
protected:
  void SetUp() override { Saved = processAllowlist(); }
  void TearDown() override {
    if (Saved)
      setProcessAllowlist(*Saved);
  }
  std::optional<ProgramAllowlist> Saved;
};

} // namespace

TEST_F(ProgramAllowlistTest, DefaultsAllowTheSystemHostCompilersByRealpath) {
  ProgramAllowlist List = ProgramAllowlist::defaults("");
  for (const char *Name : {"/usr/bin/g++", "/usr/bin/gcc", "/usr/bin/cc", "/usr/bin/c++"}) {
    if (!fs::exists(Name))
      continue;
    std::string Why;
    auto Real = List.resolve(Name, &Why);
    ASSERT_TRUE(Real.has_value()) << Name << ": " << Why;
    EXPECT_EQ(*Real, fs::canonical(Name).string());
  }
  EXPECT_FALSE(List.resolve("/bin/sh").has_value());
  EXPECT_FALSE(List.resolve("/usr/bin/env").has_value());
}

TEST_F(ProgramAllowlistTest, ToolkitProgramsAreAllowedWhenAToolkitIsGiven) {
  ScratchDir D;
  std::string Nvcc = D.stub("cuda/bin/nvcc", D.path / "ran");
  EXPECT_FALSE(ProgramAllowlist::defaults("").resolve(Nvcc).has_value());
  auto Real = ProgramAllowlist::defaults((D.path / "cuda").string()).resolve(Nvcc);
  ASSERT_TRUE(Real.has_value());
  EXPECT_EQ(*Real, fs::canonical(Nvcc).string());
}

TEST_F(ProgramAllowlistTest, GlobsMatchTheRealpathAndSymlinksResolve) {
  ScratchDir D;
  std::string Tool = D.stub("opt/bin/cc-wrapper", D.path / "ran");
  fs::create_symlink(Tool, D.path / "link-to-wrapper");
  ProgramAllowlist List = ProgramAllowlist::defaults("");
  std::string Why;
  EXPECT_FALSE(List.resolve((D.path / "link-to-wrapper").string(), &Why).has_value());
  EXPECT_NE(Why.find(fs::canonical(Tool).string()), std::string::npos) << Why;
  EXPECT_EQ(ProgramAllowlist::allowLineFor("/x/y"), "--allow-compiler '/x/y'");

  List.allow(fs::canonical(D.path).string() + "/opt/bin/*");
  EXPECT_TRUE(List.resolve((D.path / "link-to-wrapper").string()).has_value());
  // '*' does not cross '/'.
  ProgramAllowlist Shallow = ProgramAllowlist::defaults("");
  Shallow.allow(fs::canonical(D.path).string() + "/opt/*");
  EXPECT_FALSE(Shallow.resolve(Tool).has_value());
  // A literal path allows the file its symlink chain ends at.
  ProgramAllowlist ByLink = ProgramAllowlist::defaults("");
  ByLink.allow((D.path / "link-to-wrapper").string());
  EXPECT_TRUE(ByLink.resolve(Tool).has_value());
}

TEST_F(ProgramAllowlistTest, RelativePathEntriesAreNotSearched) {
  ScratchDir D;
  D.stub("gcc-stub", D.path / "ran");
  const char *OldPath = std::getenv("PATH");
  std::string Saved = OldPath ? OldPath : "";
  const fs::path OldCwd = fs::current_path();
  fs::current_path(D.path);
  ::setenv("PATH", (".:" + Saved).c_str(), 1);
  EXPECT_EQ(locateProgram("gcc-stub"), "");
  ::setenv("PATH", Saved.c_str(), 1);
  fs::current_path(OldCwd);
  EXPECT_EQ(locateProgram("tools/cc", "/src/proj"), "/src/proj/tools/cc");
}

TEST_F(ProgramAllowlistTest, RunSubprocessRefusesAProgramNotAllowedAndRunsItOnceAllowed) {
  ScratchDir D;
  const fs::path Marker = D.path / "ran";
  std::string Stub = D.stub("tools/cc", Marker);
  setProcessAllowlist(ProgramAllowlist::defaults(""));
  const uint64_t Before = subprocessSpawnCount();
  SubprocessResult R = runSubprocess({Stub, "--version"});
  EXPECT_FALSE(R.started);
  EXPECT_TRUE(R.refused);
  EXPECT_NE(R.describe().find("refused: " + fs::canonical(Stub).string()), std::string::npos) << R.describe();
  EXPECT_EQ(subprocessSpawnCount(), Before);
  EXPECT_FALSE(fs::exists(Marker));

  // The same program, allowed by the user: it runs (the stub is real).
  ProgramAllowlist Allowed = ProgramAllowlist::defaults("");
  Allowed.allow(Stub);
  Allowed.allow("/usr/bin/*"); // the stub's #!/bin/sh runs through the kernel, not through us
  setProcessAllowlist(Allowed);
  R = runSubprocess({Stub});
  EXPECT_TRUE(R.ok()) << R.describe();
  EXPECT_TRUE(fs::exists(Marker));
}
