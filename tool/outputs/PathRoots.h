// One root for the paths every output shows (HTML and Markdown report, JSON,
// SARIF): the project's root, chosen once per run, and the directories whose
// files are shown by a name instead of a long absolute path
// (docs/output-formats.md, "Paths"):
//   src/a.cu                    under the project root
//   <cuda>/include/x.h          under the CUDA toolkit
//   <system>/stdio.h            under a system or compiler include directory,
//                               named as #include names it
//   /elsewhere/b.cuh            anything else, absolute
#pragma once

#include <string>
#include <vector>

namespace occlint {

struct PathRoots {
  std::string project;             // absolute, without a trailing '/'; "" when none
  std::string projectFrom;         // why: "--root", "git" (the top level of the sources' repository), "sources"
  std::string cuda;                // the CUDA toolkit's directory; "" when none
  std::string cudaResolved;        // the same with its links resolved, when different
  std::vector<std::string> system; // absolute include directories shown as <system>/...

  /// How File (absolute) is shown: relative to the project root, else
  /// <cuda>/..., <system>/..., else absolute. Lexically normalised.
  std::string display(const std::string &File) const;
};

/// The nearest directory from `Directory` up that holds a `.git` (a
/// repository or a worktree's file), or "". No git process is run: the
/// sources come from a database that may not be trusted (docs/security.md).
std::string gitTopLevel(const std::string &Directory);

/// The common directory of absolute paths (their files' directories); "" for none.
std::string commonDirectory(const std::vector<std::string> &Files);

/// The roots of a run: `ExplicitRoot` (--root) when given; else the git top
/// level of the sources' common directory; else that common directory. Only
/// the run's own translation units count as sources, never the headers they
/// include (the toolkit's and the system's would move the root to "/").
PathRoots choosePathRoots(const std::string &ExplicitRoot, const std::vector<std::string> &Sources,
                          const std::string &CudaPath, std::vector<std::string> SystemDirectories);

} // namespace occlint
