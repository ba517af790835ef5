#include "ast/CudaIndexPatterns.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::occlint::resize {

const Expr *stripIntegerCasts(const Expr *E, ASTContext &Ctx) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
    if (!Cast)
      return E;
    const QualType T = Cast->getType();
    if (!T->isIntegerType() || T->isBooleanType() || Ctx.getIntWidth(T) < 32)
      return E;
    E = Cast->getSubExpr();
  }
  return E;
}

std::optional<BuiltinComponent> builtinComponent(const Expr *E, ASTContext &Ctx) {
  return builtinMember(stripIntegerCasts(E, Ctx));
}

static bool isX(const Expr *E, llvm::StringRef Variable, ASTContext &Ctx) {
  std::optional<BuiltinComponent> B = builtinComponent(E, Ctx);
  return B && B->variable == Variable && B->component == "x";
}

static bool isProduct(const Expr *E, llvm::StringRef A, llvm::StringRef B, ASTContext &Ctx) {
  const auto *Mul = dyn_cast_or_null<BinaryOperator>(stripIntegerCasts(E, Ctx));
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return false;
  return (isX(Mul->getLHS(), A, Ctx) && isX(Mul->getRHS(), B, Ctx)) ||
         (isX(Mul->getLHS(), B, Ctx) && isX(Mul->getRHS(), A, Ctx));
}

bool isGlobalIndexFormula(const Expr *E, ASTContext &Ctx) {
  const auto *Add = dyn_cast_or_null<BinaryOperator>(stripIntegerCasts(E, Ctx));
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  return (isProduct(Add->getLHS(), "blockIdx", "blockDim", Ctx) && isX(Add->getRHS(), "threadIdx", Ctx)) ||
         (isX(Add->getLHS(), "threadIdx", Ctx) && isProduct(Add->getRHS(), "blockIdx", "blockDim", Ctx));
}

bool isGridStrideFormula(const Expr *E, ASTContext &Ctx) { return isProduct(E, "gridDim", "blockDim", Ctx); }

std::optional<llvm::StringRef> builtinReadHere(const Stmt *S, ASTContext &Ctx) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(S))
    return builtinVariableName(Ref->getDecl());
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    if (std::optional<BuiltinComponent> B = builtinComponent(E, Ctx))
      return B->variable;
  return std::nullopt;
}

bool mentionsBuiltin(const Stmt *S, llvm::StringRef Variable, ASTContext &Ctx) {
  if (!S)
    return false;
  if (std::optional<llvm::StringRef> Read = builtinReadHere(S, Ctx))
    return *Read == Variable;
  for (const Stmt *Child : S->children())
    if (mentionsBuiltin(Child, Variable, Ctx))
      return true;
  return false;
}

std::string spellingOf(const Stmt *S, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  CharSourceRange Range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(S->getSourceRange()), SM, LO);
  if (Range.isInvalid())
    Range = SM.getExpansionRange(S->getSourceRange());
  bool Invalid = false;
  const llvm::StringRef Text = Lexer::getSourceText(Range, SM, LO, &Invalid);
  std::string Out;
  if (!Invalid)
    for (char C : Text) {
      const bool Space = C == ' ' || C == '\t' || C == '\n' || C == '\r';
      if (Space && (Out.empty() || Out.back() == ' '))
        continue;
      Out += Space ? ' ' : C;
    }
  while (!Out.empty() && Out.back() == ' ')
    Out.pop_back();
  if (Out.size() > 40)
    Out = Out.substr(0, 37) + "...";
  return Out;
}

const ParmVarDecl *integerParameter(const Expr *E, ASTContext &Ctx) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(stripIntegerCasts(E, Ctx));
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Param && Param->getType()->isIntegerType() && !Param->getType()->isBooleanType() ? Param : nullptr;
}

} // namespace clang::tidy::occlint::resize
