//===- AstWalker.cpp - the one RecursiveASTVisitor instantiation ----------===//
#include "ast/AstWalker.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::occlint {

// RecursiveASTVisitor with AstWalker's hooks. Only VisitStmt, VisitDecl,
// VisitTypeLoc and TraverseDecl are overridden, never a statement's
// Traverse*, so that statements keep RecursiveASTVisitor's data recursion
// (an overridden Traverse* of a statement kind is called natively).
class AstWalkerTraversal : public RecursiveASTVisitor<AstWalkerTraversal> {
  using Base = RecursiveASTVisitor<AstWalkerTraversal>;

public:
  explicit AstWalkerTraversal(AstWalker &Walker) : Walker(Walker) {}

  bool shouldVisitTemplateInstantiations() const { return Walker.VisitTemplateInstantiations; }
  bool shouldVisitImplicitCode() const { return Walker.VisitImplicitCode; }
  bool shouldVisitLambdaBody() const { return Walker.VisitLambdaBodies; }

  bool VisitStmt(Stmt *S) { return Walker.visitStmt(S); }
  bool VisitDecl(Decl *D) { return Walker.visitDecl(D); }
  bool VisitTypeLoc(TypeLoc TL) { return Walker.visitTypeLoc(TL); }

  bool dataTraverseStmtPre(Stmt *S) { return Walker.enterStmt(S); }
  bool dataTraverseStmtPost(Stmt *S) {
    Walker.leaveStmt(S);
    return true;
  }

  bool TraverseDecl(Decl *D) {
    if (!D || !Walker.enterDecl(D))
      return true;
    const bool Continue = Base::TraverseDecl(D);
    Walker.leaveDecl(D);
    return Continue;
  }

private:
  AstWalker &Walker;
};

bool AstWalker::traverseStmt(Stmt *S) { return AstWalkerTraversal(*this).TraverseStmt(S); }
bool AstWalker::traverseDecl(Decl *D) { return AstWalkerTraversal(*this).TraverseDecl(D); }
bool AstWalker::traverseAST(ASTContext &Ctx) { return AstWalkerTraversal(*this).TraverseAST(Ctx); }

} // namespace clang::tidy::occlint
