// Expressions as deep as generated code makes them. A sum of 20,000 terms (a
// chemistry kernel, an unrolled stencil) is a left-leaning tree 20,000 levels
// deep, and `a && b && ...` over 5,000 terms one 5,000 deep: a walk that
// recurses once per level runs out of stack long before Clang, which parsed
// them, does. The recursive evaluators (the divergence transfer functions, the
// value evaluator) therefore
//   - count their depth with a RecursionDepth;
//   - every so many levels, evaluate the operands below iteratively, children
//     before parents (forEachOperandPostOrder), so that the recursion below
//     finds them in its cache and returns at once;
//   - past a hard bound, give up with the sound answer ("varying", "unknown").
#pragma once

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::tidy::occlint {

/// The operators whose evaluation reads their operands and nothing else (no
/// assignment, increment, call or construction): forEachOperandPostOrder walks
/// into these only, so evaluating their subexpressions ahead of time is the
/// same as evaluating them when the parent asks.
bool isPureOperator(const Expr *E);

/// Calls Visit on every subexpression below E (not E itself) that is reached
/// through pure operators only, children before parents and left to right,
/// with an explicit stack: no recursion however deep E is. The subexpressions
/// themselves may be impure (a call as an operand is visited, its arguments
/// are not).
void forEachOperandPostOrder(const Expr *E, llvm::function_ref<void(const Expr *)> Visit);

/// A depth counter for a recursive walk: `RecursionDepth::Scope S(D);` in the
/// recursive function.
class RecursionDepth {
public:
  /// Levels between two iterative pre-evaluations of the operands below.
  static constexpr unsigned PrewarmEvery = 128;
  /// Beyond this the walk answers "unknown": at a few hundred bytes a level,
  /// well within the 8 MiB stack of the thread clang-tidy runs checks on.
  static constexpr unsigned Max = 2048;

  unsigned depth() const { return Depth; }
  bool exhausted() const { return Depth >= Max; }
  /// True on the levels where the caller should pre-evaluate the operands below.
  bool prewarmHere() const { return Depth > 0 && Depth % PrewarmEvery == 0; }

  class Scope {
  public:
    explicit Scope(RecursionDepth &D) : D(D) { ++D.Depth; }
    ~Scope() { --D.Depth; }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    RecursionDepth &D;
  };

private:
  unsigned Depth = 0;
};

} // namespace clang::tidy::occlint
