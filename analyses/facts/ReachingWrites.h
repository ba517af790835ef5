// Which write of a local integer variable or parameter a read of it sees,
// for the variables a function only reads and assigns:
//
//   void launch(int n, int block_size) {
//     block_size = largestPowerOfTwoLessOrEqual(block_size); // reads the argument
//     kernel<<<ceil_div(n, block_size), block_size>>>(...);  // reads that assignment
//   }
//
// A structural rule, not a dataflow over the CFG, that answers only when the
// answer is certain and otherwise says "not known":
// - the variable is tracked when every use of it in the function reads it
//   (or binds it to a reference to const) or is the left side of `v = e`;
//   not when its address is taken, it is bound to a modifiable reference,
//   incremented, compound-assigned, captured by a lambda, or the function
//   has a goto or a case label below a nested statement of its switch;
// - a read sees the assignment A when A is a statement of a block that
//   holds the read further down, and nothing between A and the read (the
//   statements of that block from A on, up to the one holding the read)
//   writes the variable or is a case label: every path to the read runs A
//   last. A write inside the read's own statement counts only when the read
//   is in that write's right side outside any loop (`v = f(v);`);
// - a read sees the incoming value (the parameter's argument, the local's
//   initializer) when every write comes after it and no loop holds both.
#pragma once

#include "facts/StatementParents.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang::tidy::occlint {

struct ReachingWrite {
  enum class Kind {
    NotKnown, ///< the rule cannot tell (or the variable is not tracked)
    Incoming, ///< the value the variable starts with
    Assignment,
  };
  Kind kind = Kind::NotKnown;
  const BinaryOperator *assignment = nullptr; ///< Kind::Assignment: `v = e`
};

/// The writes of the variables of one function body, collected once.
class BodyWrites {
public:
  BodyWrites(const Stmt &Body, const StatementParents &Parents, const SourceManager &SM);

  /// Whether the body assigns V (`v = e`) anywhere.
  bool assigned(const VarDecl &V) const;
  /// Which write Read (a DeclRefExpr to V inside the body) sees.
  ReachingWrite reachingWrite(const VarDecl &V, const DeclRefExpr &Read) const;

private:
  struct VarWrites {
    bool tracked = true;
    std::vector<const BinaryOperator *> assignments;
  };
  friend class BodyWritesCollector;

  const Stmt &Body;
  const StatementParents &Parents;
  const SourceManager &SM;
  bool Untrackable = false; // a goto, or a case label below a nested statement
  llvm::DenseMap<const VarDecl *, VarWrites> Vars;

  const VarWrites *writesOf(const VarDecl &V) const;
  /// The child of C that holds S (S itself when it is one), or null.
  const Stmt *childHolding(const Stmt *C, const Stmt *S) const;
  bool insideLoopBelow(const Stmt *S, const Stmt *Stop) const;
  static bool isWithin(const Stmt *Inner, const Stmt *Outer, const StatementParents &Parents);
};

} // namespace clang::tidy::occlint
