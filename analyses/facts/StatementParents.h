// The parent of each statement of one function body, for walking up from a
// launch to the guards around it (ValueGuards.h). Collected with
// RecursiveASTVisitor's data recursion: no native recursion as deep as an
// expression (clang::ParentMap's builder recurses over children), and only
// the function's own statements (ASTContext's parent map walks every header
// of the translation unit on its first use).
#pragma once

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang::tidy::occlint {

/// A RecursiveASTVisitor that knows the statements above the one it visits:
/// Derived::enterStatement(S, Above) is called for every statement, Above
/// innermost last. The data-recursion hooks bracket each statement's subtree
/// (a statement reached through a declaration, a VarDecl's initializer,
/// nests inside its DeclStmt's bracket), so no native recursion as deep as
/// an expression comes back, as overriding TraverseStmt would bring it.
template <typename Derived> class AncestorTrackingVisitor : public RecursiveASTVisitor<Derived> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool dataTraverseStmtPre(Stmt *S) {
    static_cast<Derived *>(this)->enterStatement(S, Stack);
    Stack.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }

private:
  std::vector<const Stmt *> Stack;
};

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
