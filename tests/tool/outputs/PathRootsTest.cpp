// PathRoots (tool/outputs/PathRoots.h): the one root every output shows
// paths from, and the <cuda>/<system> names of files outside it.
#include "outputs/PathRoots.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using occlint::choosePathRoots;
using occlint::commonDirectory;
using occlint::gitTopLevel;
using occlint::PathRoots;
using occlint::testing::ScratchDir;

namespace {

TEST(PathRoots, ShowsFilesUnderTheProjectTheToolkitAndTheSystemByTheirNames) {
  PathRoots Roots;
  Roots.project = "/home/me/proj";
  Roots.cuda = "/usr/local/cuda";
  Roots.cudaResolved = "/usr/local/cuda-13.0";
  Roots.system = {"/usr/include", "/usr/include/c++/12", "/usr/lib/llvm-22/lib/clang/22/include"};
  EXPECT_EQ(Roots.display("/home/me/proj/src/a.cu"), "src/a.cu");
  EXPECT_EQ(Roots.display("/home/me/proj/src/../include/b.cuh"), "include/b.cuh");
  EXPECT_EQ(Roots.display("/home/me/project2/a.cu"), "/home/me/project2/a.cu"); // a prefix is not a parent
  EXPECT_EQ(Roots.display("/usr/local/cuda/include/cuda_runtime.h"), "<cuda>/include/cuda_runtime.h");
  EXPECT_EQ(Roots.display("/usr/local/cuda-13.0/targets/x86_64-linux/include/cuda.h"),
            "<cuda>/targets/x86_64-linux/include/cuda.h");
  // The deepest directory: as the #include names it.
  EXPECT_EQ(Roots.display("/usr/include/c++/12/vector"), "<system>/vector");
  EXPECT_EQ(Roots.display("/usr/include/stdio.h"), "<system>/stdio.h");
  EXPECT_EQ(Roots.display("/usr/lib/llvm-22/lib/clang/22/include/__clang_cuda_runtime_wrapper.h"),
            "<system>/__clang_cuda_runtime_wrapper.h");
  EXPECT_EQ(Roots.display("/opt/other/x.h"), "/opt/other/x.h");
  EXPECT_EQ(Roots.display(""), "");
  EXPECT_EQ(Roots.display("<stdin>"), "<stdin>");
}

TEST(PathRoots, CommonDirectoryOfTheSourcesOnly) {
  EXPECT_EQ(commonDirectory({"/p/src/a.cu", "/p/src/k/b.cu", "/p/tools/c.cu"}), "/p");
  EXPECT_EQ(commonDirectory({"/p/src/a.cu"}), "/p/src");
  EXPECT_EQ(commonDirectory({}), "");
}

TEST(PathRoots, TheRootIsTheOptionElseTheGitTopLevelElseTheSourcesCommonDirectory) {
  ScratchDir D;
  const fs::path Repo = D.path() / "repo", Loose = D.path() / "loose";
  fs::create_directories(Repo / ".git");
  fs::create_directories(Repo / "src" / "kernels");
  fs::create_directories(Loose / "a");
  fs::create_directories(Loose / "b");
  const std::string RepoTop = Repo.lexically_normal().string();

  EXPECT_EQ(gitTopLevel((Repo / "src" / "kernels").string()), RepoTop);
  // A worktree's .git is a file.
  fs::remove_all(Repo / ".git");
  std::ofstream(Repo / ".git") << "gitdir: /elsewhere\n";
  EXPECT_EQ(gitTopLevel((Repo / "src").string()), RepoTop);

  const std::vector<std::string> InRepo = {(Repo / "src" / "kernels" / "a.cu").string(),
                                           (Repo / "src" / "b.cu").string()};
  PathRoots Git = choosePathRoots("", InRepo, "/usr/local/cuda", {"/usr/include"});
  EXPECT_EQ(Git.project, RepoTop);
  EXPECT_EQ(Git.projectFrom, "git");
  EXPECT_EQ(Git.cuda, "/usr/local/cuda");
  EXPECT_EQ(Git.display(InRepo[0]), "src/kernels/a.cu");

  // No repository above the sources (the scratch directory is not in one,
  // unless TMPDIR is): their common directory.
  if (gitTopLevel(Loose.string()).empty()) {
    const std::vector<std::string> Sources = {(Loose / "a" / "x.cu").string(), (Loose / "b" / "y.cu").string()};
    PathRoots Common = choosePathRoots("", Sources, "", {});
    EXPECT_EQ(Common.project, Loose.lexically_normal().string());
    EXPECT_EQ(Common.projectFrom, "sources");
    EXPECT_EQ(Common.display((Loose / "b" / "y.cu").string()), "b/y.cu");
  }

  PathRoots Given = choosePathRoots((Repo / "src" / "").string(), InRepo, "", {});
  EXPECT_EQ(Given.project, (Repo / "src").lexically_normal().string()); // no trailing '/'
  EXPECT_EQ(Given.projectFrom, "--root");
  EXPECT_EQ(Given.display(InRepo[1]), "b.cu");
}

TEST(PathRoots, SourcesWhoseOnlyCommonDirectoryIsTheFilesystemRootGiveNoRoot) {
  PathRoots Roots = choosePathRoots("", {"/nonexistent-a/x.cu", "/nonexistent-b/y.cu"}, "", {});
  EXPECT_EQ(Roots.project, "");
  EXPECT_EQ(Roots.display("/nonexistent-a/x.cu"), "/nonexistent-a/x.cu");
}

} // namespace
