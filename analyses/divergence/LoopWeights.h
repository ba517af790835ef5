// How often each statement of a function body runs per call, from the loops
// around it: the product of their trip counts. A loop's trip count is read
// from a counted `for` header with constant bounds and step (`for (int k = 0;
// k < 8; ++k)`); any other loop counts UnknownTripCount times. The weights
// turn the divergence findings' operation counts into the work a split
// serializes per call, and say what share of a loop iteration (or of the
// function) that is: a one-store write-out after a long loop is not worth a
// warning; the split of an interleaved reduction is most of its loop.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace clang::tidy::occlint {

/// A loop statement: `for`, range `for`, `while`, `do`.
bool isLoop(const Stmt *S);

class LoopWeights {
public:
  /// A loop whose trip count the header does not give: it runs at least
  /// twice in the cases that matter, and rarely fewer than a handful of
  /// times; 4 keeps a one-statement split inside such a loop above the
  /// default MinOperations while a write-out after it stays below.
  static constexpr double UnknownTripCount = 16;

  LoopWeights(const Stmt *Body, const ASTContext &Ctx);

  /// The innermost loop whose condition, increment or body holds S (a loop
  /// statement itself is held by the loop around it); null at function level.
  const Stmt *enclosingLoop(const Stmt *S) const;
  /// The loop around Loop; null when Loop is at function level.
  const Stmt *parentLoop(const Stmt *Loop) const;
  /// Times S runs per call: the product of the trip counts of its loops.
  double weight(const Stmt *S) const;
  /// Times one iteration of Loop's body runs per call (weight of the loop
  /// statement times its trip count).
  double iterationWeight(const Stmt *Loop) const;
  /// The constant trip count a counted `for` header gives.
  static std::optional<int64_t> constantTripCount(const Stmt *Loop, const ASTContext &Ctx);

private:
  llvm::DenseMap<const Stmt *, const Stmt *> LoopOf;    // statement -> innermost loop holding it
  llvm::DenseMap<const Stmt *, const Stmt *> ParentOf;  // loop -> loop around it
  llvm::DenseMap<const Stmt *, double> Trips;           // loop -> its trip count (or UnknownTripCount)
  mutable llvm::DenseMap<const Stmt *, double> Weights; // loop -> weight of one iteration (memo)
};

} // namespace clang::tidy::occlint
