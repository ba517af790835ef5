// The parent of each statement of one function body, for walking up from a
// launch to the guards around it (ValueGuards.h). Collected with
// AstWalker's data recursion: no native recursion as deep as an
// expression (clang::ParentMap's builder recurses over children), and only
// the function's own statements (ASTContext's parent map walks every header
// of the translation unit on its first use).
#pragma once

#include "ast/AstWalker.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang::tidy::occlint {

/// A walk that knows the statements above the one it visits: enterStatement
/// (S, Above) is called for every statement, Above innermost last. The
/// brackets are AstWalker's enterStmt/leaveStmt (a statement reached through
/// a declaration, a VarDecl's initializer, nests inside its DeclStmt's
/// bracket), so no native recursion as deep as an expression comes back.
class AncestorTrackingVisitor : public AstWalker {
public:
  AncestorTrackingVisitor() { VisitTemplateInstantiations = true; }

protected:
  virtual void enterStatement(const Stmt *S, const std::vector<const Stmt *> &Above) = 0;

  bool enterStmt(Stmt *S) override {
    enterStatement(S, Stack);
    Stack.push_back(S);
    return true;
  }
  void leaveStmt(Stmt *) override { Stack.pop_back(); }

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
