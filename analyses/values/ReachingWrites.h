// Which write of a local integer variable or parameter (or of an integer
// member of a local object: `b.x` of a `dim3 b;`, `cfg.threads` of a local
// struct) a read of it sees, for the places a function only reads and
// assigns:
//
//   void launch(int n, int block_size) {
//     block_size = largestPowerOfTwoLessOrEqual(block_size); // reads the argument
//     if (block_size < 64)
//       block_size = 64;                                    // a clamp: a write under a condition
//     kernel<<<ceil_div(n, block_size), block_size>>>(...);  // reads the clamp, or the assignment before it
//   }
//
// A structural rule, not a dataflow over the CFG, that answers only when the
// answer is certain and otherwise says "not known":
// - the variable is tracked when every use of it in the function reads it
//   (or binds it to a reference to const) or is the left side of `v = e`;
//   not when its address is taken, it is bound to a modifiable reference,
//   incremented, compound-assigned, captured by a lambda, or the function
//   has a goto or a case label below a nested statement of its switch. A
//   member of a local object is tracked when every use of the object names
//   one of its integer members (`b.x`, read or assigned as above), copies it
//   or binds it to a reference to const: an object whose address is taken,
//   that is assigned or modified as a whole, bound to a modifiable
//   reference, captured, or whose methods are called, has none tracked;
// - from the read, the statements before it are looked at, in its block and
//   then in each block above, nearest first: the first that writes the
//   variable decides. An assignment statement `v = e;` is what the read sees;
//   a clamp `if (c) v = e;` (no else, the assignment its only statement) is
//   a write under a condition: the evaluator decides c, and takes e, or the
//   write that reaches the if; an if-else chain whose every arm assigns the
//   variable once (`if (c) v = 64; else if (d) v = 128; else v = 256;`, each
//   arm the assignment alone or in a block with no other write of it) is a
//   set of writes, one per arm: the evaluator decides the conditions, and
//   takes the arms that can run; a switch with a default label (or a label
//   for every enumerator of its enumeration) whose every label group assigns it once, at the group's first statement,
//   and ends with a break (the last group may end the switch instead) is the same
//   (`switch (kind) { case A: v = 128; break; default: v = 256; }`); any
//   other statement that writes the variable (a loop, an if with no final
//   else, a nested block) leaves the read not known. A case
//   label passed on the way leaves it not known when a write is found before
//   it (a jump to the label skips that write);
// - a write inside the statement that holds the read counts only when it
//   comes after the read (the read in its right side, `v = f(v);`, or later
//   in the text and not in the same expression) and no loop holds both;
// - with no write before it, the read sees the incoming value (the
//   parameter's argument, the local's initializer).
#pragma once

#include "ast/StatementParents.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <vector>

namespace clang::tidy::occlint {

struct ReachingWrite {
  enum class Kind {
    NotKnown,    ///< the rule cannot tell (or the variable is not tracked)
    Incoming,    ///< the value the variable starts with
    Assignment,  ///< `v = e;`
    Conditional, ///< `if (c) v = e;`: e when c holds, else the write that reaches the if
    Branches,    ///< an if-else chain assigning v in every arm (BodyWrites::armWrites)
    Cases,       ///< a switch assigning v in every label group (BodyWrites::caseWrites)
  };
  Kind kind = Kind::NotKnown;
  const BinaryOperator *assignment = nullptr; ///< Assignment, Conditional: `v = e`; Branches: the first arm's
  const IfStmt *condition = nullptr;          ///< Conditional; Branches: the chain's first if
  const SwitchStmt *selector = nullptr;       ///< Cases
};

/// One label group of a switch that assigns a variable in every group: its
/// labels (`case 1: case 2:`; a DefaultStmt among them for default) and the
/// assignment they lead to.
struct CaseWrite {
  std::vector<const SwitchCase *> labels;
  const BinaryOperator *assignment = nullptr;
};

/// What a write writes: a variable, or one member of a local object or a
/// parameter passed by value (`field` set).
struct WrittenPlace {
  const VarDecl *var = nullptr;
  const FieldDecl *field = nullptr;
  WrittenPlace(const VarDecl &Var, const FieldDecl *Field = nullptr) : var(&Var), field(Field) {}
};

/// An object whose integer members are followed as places of their own: a
/// local (not static) or a parameter passed by value, not a reference, not
/// volatile, of a class type that is not a union or a lambda's closure.
bool isFollowedObject(const VarDecl *VD);

/// Whether two reads see the same write.
inline bool sameWrite(const ReachingWrite &A, const ReachingWrite &B) {
  return A.kind == B.kind && A.kind != ReachingWrite::Kind::NotKnown && A.assignment == B.assignment &&
         A.condition == B.condition && A.selector == B.selector;
}

/// The writes of the variables of one function body, collected once.
class BodyWrites {
public:
  BodyWrites(const Stmt &Body, const StatementParents &Parents, const SourceManager &SM);

  /// Whether the body assigns V (`v = e`) anywhere.
  bool assigned(WrittenPlace V) const;
  /// Whether every use of V is one the rule follows (see above).
  bool tracked(WrittenPlace V) const;
  /// Which write a read of V sees at Position: a DeclRefExpr to V inside
  /// the body, or a statement of the body (the value V has just before it
  /// runs: the if of a Conditional write).
  ReachingWrite reachingWrite(WrittenPlace V, const Stmt &Position) const;
  /// The assignment of V in each arm of the if-else chain that starts at
  /// If, in order (the final else's last); empty when the chain is not one
  /// whose every arm assigns V once and whose conditions do not.
  std::vector<const BinaryOperator *> armWrites(WrittenPlace V, const IfStmt &If) const;
  /// The label groups of Switch and the assignment of V each leads to; empty
  /// when the switch is not one that assigns V once in every group and has
  /// a default label or one for every enumerator of its enumeration.
  std::vector<CaseWrite> caseWrites(WrittenPlace V, const SwitchStmt &Switch) const;

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
  using PlaceKey = std::pair<const VarDecl *, const FieldDecl *>;
  llvm::DenseMap<PlaceKey, VarWrites> Vars;
  // Local objects used other than through their integer members.
  llvm::DenseSet<const VarDecl *> WholeObjectsUsed;

  // Per block: each statement's place (built on first use).
  struct BlockIndex {
    llvm::DenseMap<const Stmt *, unsigned> position;
  };
  mutable llvm::DenseMap<const CompoundStmt *, std::unique_ptr<BlockIndex>> Blocks;

  const VarWrites *writesOf(WrittenPlace V) const;
  const BlockIndex &indexOf(const CompoundStmt &Block) const;
  /// The child of C that holds S (S itself when it is one), or null.
  const Stmt *childHolding(const Stmt *C, const Stmt *S) const;
  /// Whether Write runs after Position on every path that reaches Position
  /// before leaving Stop (no loop below Stop holds both).
  bool comesAfter(const BinaryOperator &Write, const Stmt &Position, const Stmt *Stop) const;
  /// The assignment when S is the statement `v = e;` of V, else null.
  static const BinaryOperator *assignmentStatement(const Stmt *S, const VarWrites &Writes);
  /// The assignment when S is `if (c) v = e;` (or `if (c) { v = e; }`) and c
  /// does not write V.
  const BinaryOperator *clampOf(const Stmt *S, const VarWrites &Writes) const;
  std::vector<const BinaryOperator *> chainWrites(const IfStmt &If, const VarWrites &Writes) const;
  std::vector<CaseWrite> switchWrites(const SwitchStmt &Switch, const VarWrites &Writes) const;
  /// Whether the labels of Groups name every enumerator of Switch's
  /// enumeration (the selector's type).
  static bool namesEveryEnumerator(const SwitchStmt &Switch, const std::vector<CaseWrite> &Groups);
  /// The one assignment statement of an arm: the arm itself, or a statement
  /// of its block; null when there is none or more than one.
  static const BinaryOperator *armWrite(const Stmt *Arm, const VarWrites &Writes);
  static bool isWithin(const Stmt *Inner, const Stmt *Outer, const StatementParents &Parents);
};

} // namespace clang::tidy::occlint
