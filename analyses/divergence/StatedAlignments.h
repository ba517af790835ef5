// What an assertion states about a count's alignment: `assert(C % 256 ==
// 0)`, `assert((C & 255) == 0)`, `assert(!(C % 256))`, each conjunct of an
// `&&`. Compiled in, the assertion is a branch and its edge says the same
// (DivergenceEdgeFacts.cpp); read from the macro's argument
// (facts/StatedAssertions.h), it holds where NDEBUG compiles the assertion
// out too: a precondition the kernel states, as for its block shape
// (StatedBlockShape.h). Only power-of-two moduli: the divergence domain keeps
// a value's known low zero bits.
#pragma once

#include "divergence/AssertionTokens.h"
#include "facts/StatedAssertions.h"

namespace clang::tidy::occlint {

struct StatedAlignment {
  std::string name;  // the variable, as spelled in the assertion
  unsigned log2 = 0; // a multiple of 2^log2
};

/// The alignment that a zero `X % K` (Remainder) or `X & K` states: log2 of
/// the modulus (K, or K + 1 for a mask) when it is a power of two of at
/// least 2. Shared with the branch edges' rule (DivergenceEdgeFacts.cpp).
std::optional<unsigned> alignmentStatedByZero(bool Remainder, int64_t K);

/// The alignments A states. Body: the function's body, for named constants
/// in the modulus (`C % (WARPS * 32)`).
std::vector<StatedAlignment> statedAlignments(const StatedAssertion &A, const CompoundStmt &Body, ASTContext &Ctx);

} // namespace clang::tidy::occlint
