// The parent of each statement of one function body, for walking up from a
// launch to the guards around it (ValueGuards.h). Collected with
// RecursiveASTVisitor's data recursion: no native recursion as deep as an
// expression (clang::ParentMap's builder recurses over children), and only
// the function's own statements (ASTContext's parent map walks every header
// of the translation unit on its first use).
#pragma once

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::occlint {

class StatementParents {
public:
  explicit StatementParents(const Stmt &Root);
  /// The statement directly above S (through a declaration: a VarDecl's
  /// initializer's parent is its DeclStmt); null for the root or a
  /// statement outside it.
  const Stmt *parentOf(const Stmt *S) const { return Parents.lookup(S); }

private:
  llvm::DenseMap<const Stmt *, const Stmt *> Parents;
};

} // namespace clang::tidy::occlint
