// Expected diagnostics written inline in test-inputs/*.cu, in the spirit of
// clang's -verify:
//   k<<<2, 100>>>(p); // expect-warning {{not a multiple of the warp size}} [cuda-launch-block-not-warp-multiple]
//   // expect-error@+1 {{cannot launch}}
//   __global__ void k(); // expect-note 2 {{uses 130 registers}}   (seen twice on this line)
// Matching is by file line, level, message substring and (when given) check name.
#pragma once

#include <string>
#include <vector>

namespace occlint::testing {

struct Diagnostic {
  int line = 0;
  std::string level; // warning, error, note, remark
  std::string message;
  std::string check; // empty when not written
  std::string str() const;
};

/// The expectations written in a source text.
std::vector<Diagnostic> parseExpectations(const std::string &Source);
/// The diagnostics clang's text format printed for File (other files ignored).
std::vector<Diagnostic> parseClangOutput(const std::string &Output, const std::string &File);
/// The "// RUN-ARGS: ..." line's arguments, if any.
std::string parseRunArgs(const std::string &Source);

/// Compares both ways; returns one line per problem (empty: all matched).
std::vector<std::string> compareDiagnostics(const std::vector<Diagnostic> &Expected,
                                            const std::vector<Diagnostic> &Actual);

} // namespace occlint::testing
