#include "divergence/GlobalIndexBounds.h"

#include "ast/CudaBuiltinVariables.h"
#include "ast/IntegerConstants.h"

#include "ast/AstWalker.h"
#include "clang/AST/ASTContext.h"

#include <algorithm>

namespace clang::tidy::occlint {

namespace {

const VarDecl *localOf(const Expr *E) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl())
      return VD;
  return nullptr;
}

// Every reference to a local, and the references that are read as values.
class LocalUses : public AstWalker {
public:
  bool visitStmt(Stmt *S) override {
    if (const auto *C = dyn_cast<ImplicitCastExpr>(S); C && C->getCastKind() == CK_LValueToRValue) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens()))
        Reads.insert(DRE);
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->isLocalVarDecl())
        Refs.push_back(DRE);
    }
    return true;
  }
  llvm::DenseSet<const VarDecl *> referenced() const {
    llvm::DenseSet<const VarDecl *> Out;
    for (const DeclRefExpr *DRE : Refs)
      Out.insert(cast<VarDecl>(DRE->getDecl()));
    return Out;
  }
  llvm::DenseSet<const VarDecl *> written() const {
    llvm::DenseSet<const VarDecl *> Out;
    for (const DeclRefExpr *DRE : Refs)
      if (!Reads.contains(DRE))
        Out.insert(cast<VarDecl>(DRE->getDecl()));
    return Out;
  }

private:
  llvm::DenseSet<const DeclRefExpr *> Reads;
  std::vector<const DeclRefExpr *> Refs;
};

// An integer conversion that keeps every value of a 32-bit index.
const Expr *throughWideCasts(const Expr *E, const ASTContext &Ctx) {
  for (;;) {
    E = E->IgnoreParens();
    const auto *Cast = dyn_cast<CastExpr>(E);
    if (!Cast || (Cast->getCastKind() != CK_IntegralCast && Cast->getCastKind() != CK_NoOp &&
                  Cast->getCastKind() != CK_LValueToRValue))
      return E;
    const QualType T = Cast->getType();
    if (Cast->getCastKind() == CK_IntegralCast && (!T->isIntegerType() || Ctx.getIntWidth(T) < 32))
      return E;
    E = Cast->getSubExpr();
  }
}

std::optional<unsigned> builtinOf(const Expr *E, llvm::StringRef Variable) {
  if (const std::optional<BuiltinComponent> B = builtinMember(E); B && B->variable == Variable)
    return builtinDimension(B->component);
  return std::nullopt;
}

} // namespace

llvm::DenseSet<const VarDecl *> localsWrittenIn(const Stmt &S) {
  LocalUses Uses;
  Uses.traverseStmt(&S);
  return Uses.written();
}

UnwrittenLocals::UnwrittenLocals(const FunctionDecl &FD) {
  if (!FD.getBody())
    return;
  LocalUses Uses;
  Uses.traverseStmt(FD.getBody());
  const llvm::DenseSet<const VarDecl *> Written = Uses.written();
  for (const VarDecl *VD : Uses.referenced())
    if (!Written.contains(VD) && !VD->getType()->isReferenceType()) // a reference: its referent has other names
      Unwritten.insert(VD);
}

std::optional<GlobalIndex> globalIndexOf(const Expr *E, const ASTContext &Ctx, const UnwrittenLocals *Locals) {
  E = throughWideCasts(E, Ctx);
  if (const VarDecl *VD = localOf(E)) {
    if (!Locals || !Locals->contains(VD) || !VD->getInit() || !VD->getType()->isIntegerType() ||
        Ctx.getIntWidth(VD->getType()) < 32)
      return std::nullopt;
    return globalIndexOf(VD->getInit(), Ctx, nullptr); // one step: the initialiser itself
  }
  const auto *Add = dyn_cast<BinaryOperator>(E);
  if (!Add || Add->getOpcode() != BO_Add)
    return std::nullopt;
  for (const auto &[Tid, Product] :
       {std::pair{Add->getLHS(), Add->getRHS()}, std::pair{Add->getRHS(), Add->getLHS()}}) {
    const std::optional<unsigned> Dim = builtinOf(throughWideCasts(Tid, Ctx), "threadIdx");
    const auto *Mul = dyn_cast<BinaryOperator>(throughWideCasts(Product, Ctx));
    if (!Dim || !Mul || Mul->getOpcode() != BO_Mul)
      continue;
    for (const auto &[Block, Factor] :
         {std::pair{Mul->getLHS(), Mul->getRHS()}, std::pair{Mul->getRHS(), Mul->getLHS()}}) {
      if (builtinOf(throughWideCasts(Block, Ctx), "blockIdx") != Dim)
        continue;
      if (builtinOf(throughWideCasts(Factor, Ctx), "blockDim") == Dim)
        return GlobalIndex{*Dim, std::nullopt};
      if (const std::optional<int64_t> K = integerConstantOf(Factor, Ctx); K && *K > 0)
        return GlobalIndex{*Dim, K};
    }
  }
  return std::nullopt;
}

bool globalBoundSplitsABlock(BinaryOperatorKind Op, int64_t Bound, int64_t Block, int64_t Grid) {
  if (Block <= 0 || Grid <= 0)
    return false;
  const int64_t Extent = Block * Grid; // at most 2^31 blocks of 1024 threads: no overflow
  // The global indices on the true side: [Lo, Hi), clamped to the grid.
  int64_t Lo = 0, Hi = Extent;
  switch (Op) {
  case BO_LT:
    Hi = Bound;
    break;
  case BO_LE:
    Hi = Bound + 1;
    break;
  case BO_GT:
    Lo = Bound + 1;
    break;
  case BO_GE:
    Lo = Bound;
    break;
  default:
    return false;
  }
  Lo = std::clamp<int64_t>(Lo, 0, Extent);
  Hi = std::clamp<int64_t>(Hi, 0, Extent);
  if (Lo >= Hi)
    return false; // no thread on the true side
  // An end of the range inside a block splits it (0 and Extent are block edges).
  return Lo % Block != 0 || Hi % Block != 0;
}

} // namespace clang::tidy::occlint
