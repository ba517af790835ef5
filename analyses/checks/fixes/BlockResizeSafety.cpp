// Condition (c) of the block-resize safety rule (BlockResizeSafety.h): the
// launch's grid and the argument the kernel's guard bounds by.
#include "checks/fixes/BlockResizeSafety.h"
#include "ast/CudaIndexPatterns.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace clang::tidy::occlint {
using namespace resize;

namespace {

std::string quotedName(const FunctionDecl &FD, ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD.getNameForDiagnostic(OS, PrintingPolicy(Ctx.getLangOpts()), /*Qualified=*/true);
  return "'" + OS.str() + "'";
}

// The 1-D grid a launch's grid argument spells: `g` in `g`, `dim3(g)`, an
// implicit conversion to dim3; null for dim3(x, y[, z]).
const Expr *gridValue(const Expr *E) {
  E = E->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() == 0)
      return nullptr;
    for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        return nullptr;
    E = Construct->getArg(0)->IgnoreImplicit();
  }
  return E->IgnoreParens();
}

bool isLiteral(const Expr *E, uint64_t Value) {
  const auto *L = dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts());
  return L && !L->getBeginLoc().isMacroID() && L->getValue() == Value;
}

const DeclRefExpr *integerVariable(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return Ref && isa<VarDecl>(Ref->getDecl()) && Ref->getType()->isIntegerType() && !Ref->getType()->isBooleanType()
             ? Ref
             : nullptr;
}

struct GridForm {
  const Expr *whole = nullptr;           // the division
  const DeclRefExpr *dividend = nullptr; // m
  bool divide = false;                   // m / L (not a ceil-div)
};

// (m + L-1) / L, (m + L - 1) / L or m / L, L the block's literal value and m
// a variable, each literal written as such (not a macro).
std::optional<GridForm> matchGrid(const Expr *E, uint64_t Block) {
  const auto *Div = dyn_cast_or_null<BinaryOperator>(E);
  if (!Div || Div->getOpcode() != BO_Div || !isLiteral(Div->getRHS(), Block))
    return std::nullopt;
  const Expr *Num = Div->getLHS()->IgnoreParenImpCasts();
  if (const DeclRefExpr *M = integerVariable(Num))
    return GridForm{Div, M, true};
  const auto *Sum = dyn_cast<BinaryOperator>(Num);
  if (!Sum)
    return std::nullopt;
  if (Sum->getOpcode() == BO_Add) {
    if (const DeclRefExpr *M = integerVariable(Sum->getLHS()); M && isLiteral(Sum->getRHS(), Block - 1))
      return GridForm{Div, M, false};
    if (const DeclRefExpr *M = integerVariable(Sum->getRHS()); M && isLiteral(Sum->getLHS(), Block - 1))
      return GridForm{Div, M, false};
  }
  if (Sum->getOpcode() == BO_Sub && isLiteral(Sum->getRHS(), 1))
    if (const auto *Inner = dyn_cast<BinaryOperator>(Sum->getLHS()->IgnoreParenImpCasts());
        Inner && Inner->getOpcode() == BO_Add) {
      if (const DeclRefExpr *M = integerVariable(Inner->getLHS()); M && isLiteral(Inner->getRHS(), Block))
        return GridForm{Div, M, false};
      if (const DeclRefExpr *M = integerVariable(Inner->getRHS()); M && isLiteral(Inner->getLHS(), Block))
        return GridForm{Div, M, false};
    }
  return std::nullopt;
}

// The variable a kernel argument passes, through conversions that keep every
// value (no narrowing, no change of sign at the same width); null otherwise.
const VarDecl *passedVariable(const Expr *Arg, ASTContext &Ctx) {
  const Expr *E = Arg->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    const CastKind Kind = Cast->getCastKind();
    if (Kind == CK_IntegralCast) {
      const QualType From = Cast->getSubExpr()->getType(), To = Cast->getType();
      const unsigned FromWidth = Ctx.getIntWidth(From), ToWidth = Ctx.getIntWidth(To);
      if (ToWidth < FromWidth || (ToWidth == FromWidth && From->isSignedIntegerType() != To->isSignedIntegerType()))
        return nullptr;
    } else if (Kind != CK_LValueToRValue && Kind != CK_NoOp) {
      return nullptr;
    }
    E = Cast->getSubExpr()->IgnoreParens();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

std::string names(const FunctionDecl &Kernel, const std::vector<unsigned> &Params) {
  std::string Out;
  for (unsigned P : Params)
    if (P < Kernel.getNumParams())
      Out += (Out.empty() ? "'" : " or '") + Kernel.getParamDecl(P)->getNameAsString() + "'";
  return Out;
}

} // namespace

BlockResizeVerdict checkBlockResize(const LaunchSite &Site, uint64_t Block, uint64_t NewBlock, ASTContext &Ctx) {
  BlockResizeVerdict V;
  const FunctionDecl *Definition = nullptr;
  if (!Site.kernel || !Site.kernel->hasBody(Definition) || !Definition) {
    V.why = "the kernel's body is not in this translation unit";
    return V;
  }
  if (Site.caller && (Site.caller->isTemplateInstantiation() || Site.caller->isDependentContext())) {
    V.why = "the launch is in a template: one edit would serve every instantiation";
    return V;
  }
  const FunctionDecl &Kernel = *Definition;
  const std::string Name = quotedName(Kernel, Ctx);
  const KernelResizeFacts Facts = analyzeKernelForBlockResize(Kernel, Ctx);
  switch (Facts.form) {
  case KernelResizeFacts::Form::Unsafe:
    V.why = Name + " " + Facts.whyNot;
    return V;
  case KernelResizeFacts::Form::NoAccess:
    V.safe = true;
    V.why = Name + " accesses no global memory and does not communicate across threads: the block can change alone";
    return V;
  case KernelResizeFacts::Form::GridStride:
    V.safe = true;
    V.why = Name + " is a grid-stride loop (bound " + names(Kernel, Facts.boundParams) +
            ") that does not communicate across threads: the block can change alone, the grid stay";
    return V;
  case KernelResizeFacts::Form::Guarded:
    break;
  }

  const std::string Guard = "'" + Facts.indexName + " < n' (n: " + names(Kernel, Facts.boundParams) + ")";
  const auto *Call = dyn_cast_or_null<CallExpr>(Site.call);
  if (Site.kind != LaunchKind::TripleChevron || !Call || !Site.gridExpr) {
    V.why = "the launch passes the arguments of " + Name + " through an array: occlint cannot check what it " +
            "passes for the bound of its guard " + Guard;
    return V;
  }
  const Expr *Grid = gridValue(Site.gridExpr);
  const std::optional<GridForm> Form = Grid ? matchGrid(Grid, Block) : std::nullopt;
  const std::string B = std::to_string(Block);
  if (!Form) {
    V.why = "the grid '" + spellingOf(Site.gridExpr, Ctx) + "' is not written (n + " + std::to_string(Block - 1) +
            ") / " + B + " or n / " + B + " with the block's " + B;
    return V;
  }
  if (Form->whole->getBeginLoc().isMacroID() || Form->whole->getEndLoc().isMacroID()) {
    V.why = "the grid is written in a macro";
    return V;
  }
  const VarDecl *Dividend = dyn_cast<VarDecl>(Form->dividend->getDecl());
  const ParmVarDecl *Bound = nullptr;
  for (unsigned P : Facts.boundParams)
    if (P < Call->getNumArgs() && P < Kernel.getNumParams() && passedVariable(Call->getArg(P), Ctx) == Dividend) {
      Bound = Kernel.getParamDecl(P);
      break;
    }
  const std::string M = spellingOf(Form->dividend, Ctx);
  if (!Bound) {
    V.why = Name + " guards its accesses with " + Guard + ", but the launch does not pass for it the '" + M +
            "' its grid divides";
    return V;
  }
  V.safe = true;
  V.grid = Form->whole;
  V.newGrid = "(" + M + " + " + std::to_string(NewBlock - 1) + ") / " + std::to_string(NewBlock);
  V.why = "every global memory access of " + Name + " is guarded by '" + Facts.indexName + " < " +
          Bound->getNameAsString() + "', and the launch passes '" + M + "' for '" + Bound->getNameAsString() +
          "': the fix-it also rewrites the grid as " + V.newGrid;
  if (Form->divide)
    V.why += " (" + spellingOf(Form->whole, Ctx) + " launched only " + M + " rounded down to a multiple of " + B +
             ": the same threads pass the guard when " + M + " is a multiple of " + B + ")";
  return V;
}

} // namespace clang::tidy::occlint
