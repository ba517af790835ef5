// What the conditions around a statement prove about the variables they
// test: inside `case 512:` of `switch (threads)` the variable is 512 (with
// fall-through from `case 256:`, one of {256, 512}); in the then-branch of
// `if (threads == 256)` it is 256, under `if (n < 64)` at most 63, in the
// else-branch of `if (n != 128)` exactly 128. Loops' conditions hold in their
// bodies the same way.
//
// A fact is about the value a variable has at the statement. The evaluator
// applies it only to variables with one reaching definition (constants,
// locals never modified, parameters never modified): for those the value at
// the guard and at the statement is the same.
//
// Only what is certain: a switch with a `default:` label reaching the
// statement proves nothing; a comparison whose operands the usual arithmetic
// conversions change in signedness or width proves nothing; `||` in a true
// condition proves nothing.
#pragma once

#include "ast/StatementParents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

struct GuardFact {
  const VarDecl *var = nullptr;
  std::optional<int64_t> min, max;
  /// A finite set of values (case labels), sorted and distinct, when the
  /// guard gives one; empty: only the bounds.
  std::vector<int64_t> members;
  /// Identifies the set across evaluations (the switch statement).
  const void *key = nullptr;
  SourceLocation loc;
  /// The if, loop or switch whose condition proves it.
  const Stmt *statement = nullptr;
  /// "case 512", "threads == 256" (how the guard is written).
  std::string text;
};

/// The facts the guards between `Body` (a function body) and `At` prove,
/// innermost guard first. Parents: those of Body's statements.
std::vector<GuardFact> guardsAround(const Stmt &At, const Stmt &Body, const StatementParents &Parents, ASTContext &Ctx);

} // namespace clang::tidy::occlint
