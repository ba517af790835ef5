// The `assert(...)` expansions of a translation unit, recorded while it is
// preprocessed: where each one is, and its argument's tokens with
// object-like macros expanded. Where NDEBUG compiles the assertion out, its
// argument is gone from the AST; the divergence analysis still reads
// `assert(blockDim.x == 32)` as the kernel's own statement of its block
// shape (divergence/StatedBlockShape.cpp).
#pragma once

#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace clang::tidy::occlint {

struct StatedAssertion {
  SourceLocation Loc;              // the expansion location of `assert`
  std::vector<std::string> Tokens; // the argument, object-like macros expanded
};

class StatedAssertions {
public:
  /// Records the assertions PP expands from now on, for this translation
  /// unit (a check's registerPPCallbacks calls it; several checks may, each
  /// assertion is kept once). A new preprocessor starts a new list.
  static void recordFrom(Preprocessor &PP);
  /// The assertion expanded at Loc (an expansion location) in the
  /// translation unit of SM, if one was recorded.
  static const StatedAssertion *at(SourceLocation Loc, const SourceManager &SM);
};

} // namespace clang::tidy::occlint
