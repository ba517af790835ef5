// compilerIdentity: a compiler's --version is asked once and remembered by
// its path, size and mtime, across processes through the result cache. Each
// "process" below is a fork of the test made before this binary asked about
// the fake compiler, so the in-process memo cannot answer for it.
#include "toolchain/CompilerIdentity.h"
#include "toolchain/ProgramAllowlist.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace occlint;
namespace fs = std::filesystem;

namespace {

/// A scratch directory whose programs the process allowlist allows while it lives.
struct Scratch {
  fs::path path;
  ProgramAllowlist saved = processAllowlist();
  Scratch() {
    std::string t = (fs::temp_directory_path() / "occlint-identity-test-XXXXXX").string();
    path = fs::canonical(::mkdtemp(t.data()));
    ProgramAllowlist widened = saved;
    widened.allow(path.string() + "/*");
    setProcessAllowlist(widened);
  }
  ~Scratch() {
    setProcessAllowlist(saved);
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// A "compiler" that counts its runs in `counter` and prints its version.
std::string writeFakeCompiler(const fs::path &dir, const std::string &version) {
  const fs::path bin = dir / "fakecc";
  std::ofstream(bin) << "#!/bin/sh\necho run >> '" << (dir / "runs").string() << "'\necho '" << version << "'\n";
  fs::permissions(bin, fs::perms::owner_all);
  return bin.string();
}

size_t runsOf(const fs::path &dir) {
  std::ifstream in(dir / "runs");
  size_t n = 0;
  for (std::string line; std::getline(in, line);)
    ++n;
  return n;
}

/// The identity as a fresh process sees it: 0 when it matched `expected`.
int identityInChild(const std::string &bin, const std::string &cacheDir, const std::string &expected) {
  pid_t pid = ::fork();
  if (pid == 0) {
    auto id = compilerIdentity(bin, std::chrono::seconds(10), cacheDir, /*useCache=*/true);
    ::_exit(id && *id == expected ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

} // namespace

TEST(CompilerIdentity, AskedOnceThenReadFromTheCacheByLaterProcesses) {
  Scratch d;
  const std::string cache = (d.path / "cache").string();
  const std::string bin = writeFakeCompiler(d.path, "fakecc 1.0");
  EXPECT_EQ(identityInChild(bin, cache, "fakecc 1.0"), 0);
  EXPECT_EQ(runsOf(d.path), 1u);
  EXPECT_EQ(identityInChild(bin, cache, "fakecc 1.0"), 0); // a later run: from the cache
  EXPECT_EQ(runsOf(d.path), 1u);

  // Replaced in place (another size): asked again.
  writeFakeCompiler(d.path, "fakecc 2.0-longer");
  EXPECT_EQ(identityInChild(bin, cache, "fakecc 2.0-longer"), 0);
  EXPECT_EQ(runsOf(d.path), 2u);
}

TEST(CompilerIdentity, WithoutTheCacheOnlyTheProcessRemembers) {
  Scratch d;
  const std::string cache = (d.path / "cache").string();
  const std::string bin = writeFakeCompiler(d.path, "fakecc 3.0");
  std::string error;
  auto first = compilerIdentity(bin, std::chrono::seconds(10), cache, /*useCache=*/false, &error);
  ASSERT_TRUE(first) << error;
  EXPECT_EQ(*first, "fakecc 3.0");
  EXPECT_EQ(*compilerIdentity(bin, std::chrono::seconds(10), cache, false), "fakecc 3.0");
  EXPECT_EQ(runsOf(d.path), 1u);
  EXPECT_FALSE(fs::exists(cache)); // nothing written
}

TEST(CompilerIdentity, AMissingBinaryIsAnErrorNamingIt) {
  std::string error;
  EXPECT_FALSE(compilerIdentity("/nonexistent/occlint-no-such-cc", std::chrono::seconds(5), "", false, &error));
  EXPECT_NE(error.find("/nonexistent/occlint-no-such-cc"), std::string::npos) << error;
  EXPECT_EQ(compilerIdentityKey("/nonexistent/occlint-no-such-cc"), "");
}
