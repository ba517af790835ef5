#include "divergence/StatedBlockShape.h"

#include "divergence/AssertionTokens.h"
#include "facts/StatedAssertions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::occlint {

namespace {

using Tokens = AssertionTokens;

std::optional<unsigned> blockDimComponent(Tokens T) {
  T = stripParens(T);
  if (T.size() != 3 || T[0] != "blockDim" || T[1] != ".")
    return std::nullopt;
  if (T[2] == "x")
    return 0u;
  if (T[2] == "y")
    return 1u;
  if (T[2] == "z")
    return 2u;
  return std::nullopt;
}

} // namespace

void readStatedBlockShape(const FunctionDecl &Kernel, ASTContext &Ctx, BlockShape &Shape) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *S : Body->body()) {
    if (!S->getBeginLoc().isMacroID())
      continue;
    const StatedAssertion *A = StatedAssertions::at(SM.getExpansionLoc(S->getBeginLoc()), SM);
    if (!A)
      continue;
    for (Tokens Conjunct : splitTopLevel(stripParens(A->Tokens), "&&")) {
      const std::vector<Tokens> Sides = splitTopLevel(stripParens(Conjunct), "==");
      if (Sides.size() != 2)
        continue;
      std::optional<unsigned> Dim = blockDimComponent(Sides[0]);
      std::optional<int64_t> Value = constantOf(Sides[1], *Body, Ctx);
      if (!Dim) {
        Dim = blockDimComponent(Sides[1]);
        Value = constantOf(Sides[0], *Body, Ctx);
      }
      if (!Dim || !Value || *Value < 1 || *Value > 1024)
        continue;
      std::optional<int64_t> &Extent = *Dim == 0 ? Shape.X : *Dim == 1 ? Shape.Y : Shape.Z;
      Extent = *Value;
      Shape.Stated[*Dim] = true;
      if (Shape.StatedAt.isInvalid())
        Shape.StatedAt = A->Loc;
    }
  }
}

} // namespace clang::tidy::occlint
