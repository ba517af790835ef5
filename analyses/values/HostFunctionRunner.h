// Runs a small host function on exact integer arguments, statement by
// statement, the way the program would: the helpers that pick a block size
// or round it (`nextPow2(n)`, `largestPowerOfTwoLessOrEqual(n)`, an if-chain
// or a switch on the problem size) are loops and branches over integer
// locals, which the value evaluator's one-return-statement rule cannot read.
//
// Only what is certain is run: integer, enum and bool locals and parameters
// (by value or by reference to const); if, switch, for, while, do, break,
// continue and return; C++'s integer operators with its conversions; calls
// of functions with a body, run the same way (depth-bounded); constants the
// compiler can fold (constexpr and const globals, sizeof, enumerators).
// Anything else (a pointer, a float, a non-const global, a call without a
// body, signed overflow, a division by zero, more than a bounded number of
// steps) stops the run, and the value stays unknown with the reason.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace clang::tidy::occlint {

struct HostRunOutcome {
  /// The value returned, converted to the function's return type.
  std::optional<__int128> value;
  /// Why there is no value ("it reads the global 'g'"), when there is none.
  std::string whyNot;
};

/// The value Def returns when called with Arguments (one per parameter, each
/// already converted to its parameter's type). Def must be a definition.
HostRunOutcome runHostFunction(ASTContext &Ctx, const FunctionDecl &Def, llvm::ArrayRef<__int128> Arguments);

} // namespace clang::tidy::occlint
