// The one RecursiveASTVisitor of occlint. Every walk of the AST (a function
// body, a translation unit) derives from AstWalker and overrides the hooks it
// needs; the traversal itself is compiled once, in AstWalker.cpp.
//
// Why not one RecursiveASTVisitor<Derived> per walk: each instantiation
// compiles the whole traversal again (18.9 s of 19 for the smallest walk of
// facts/ with -O2, and twice that under the sanitizers; seventeen walks were
// a third of the build). Why not Clang's DynamicRecursiveASTVisitor, which
// compiles it once too: it recurses natively once per level of an
// expression (about 300 bytes of stack a level, 6 MB for the 20,000-term
// sums generated code holds), where RecursiveASTVisitor's data recursion
// walks statements with a queue of its own. AstWalker keeps that data
// recursion: enterStmt/leaveStmt are its hooks.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"

namespace clang::tidy::occlint {

class AstWalker {
public:
  virtual ~AstWalker() = default;

  /// Walks S and everything below it (declarations inside it, lambda bodies
  /// as set below). False when a hook stopped the walk.
  bool traverseStmt(Stmt *S);
  bool traverseStmt(const Stmt *S) { return traverseStmt(const_cast<Stmt *>(S)); }
  /// Walks D and everything below it.
  bool traverseDecl(Decl *D);
  /// Walks the whole translation unit.
  bool traverseAST(ASTContext &Ctx);

protected:
  /// What the walk goes into (RecursiveASTVisitor's shouldVisit* answers).
  bool VisitTemplateInstantiations = false;
  bool VisitImplicitCode = false;
  bool VisitLambdaBodies = true;

  /// Called once per node, parents before children (RecursiveASTVisitor's
  /// VisitStmt, VisitDecl, VisitTypeLoc: a hook tells the kind with
  /// dyn_cast). Returning false stops the whole walk.
  virtual bool visitStmt(Stmt *) { return true; }
  virtual bool visitDecl(Decl *) { return true; }
  virtual bool visitTypeLoc(TypeLoc) { return true; }

  /// Bracket a statement's subtree: enterStmt before the statement is
  /// visited (false skips the statement and everything below it; neither
  /// visitStmt nor leaveStmt is called for it), leaveStmt after its subtree.
  /// A statement below a declaration (a variable's initializer) is bracketed
  /// inside its DeclStmt's bracket.
  virtual bool enterStmt(Stmt *) { return true; }
  virtual void leaveStmt(Stmt *) {}
  /// Bracket a declaration's subtree, the same way.
  virtual bool enterDecl(Decl *) { return true; }
  virtual void leaveDecl(Decl *) {}

private:
  friend class AstWalkerTraversal;
};

} // namespace clang::tidy::occlint
