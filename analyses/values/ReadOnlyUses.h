//===- ReadOnlyUses.h - variables a body only reads ------------*- C++ -*-===//
//
// The variables of a function body every use of which is a plain read: the
// name under an lvalue-to-rvalue conversion (`n` in `n + 1`, `p` in `p[i]`).
// Such a variable cannot be modified in that body, and Clang's
// ExprMutationAnalyzer would say so too, at a cost: it matches over the whole
// body once per use, quadratic in a function that names a variable thousands
// of times. One walk answers every variable; a variable with any other use
// (assigned, incremented, bound to a reference, its address taken, captured
// by reference, named in sizeof) is left to ExprMutationAnalyzer.
//
//===----------------------------------------------------------------------===//
#ifndef OCCLINT_FACTS_READONLYUSES_H
#define OCCLINT_FACTS_READONLYUSES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::occlint {

class ReadOnlyUses {
public:
  explicit ReadOnlyUses(const Stmt &Body);
  /// True when every use of VD in the body is a plain read (or there is none).
  bool onlyRead(const VarDecl &VD) const { return !UsedOtherwise.contains(VD.getCanonicalDecl()); }

private:
  llvm::DenseSet<const VarDecl *> UsedOtherwise;
};

} // namespace clang::tidy::occlint

#endif
