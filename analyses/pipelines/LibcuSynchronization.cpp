#include "pipelines/LibcuSynchronization.h"
#include "pipelines/AsyncOperations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

#include <functional>

namespace clang::tidy::occlint {

std::optional<std::string> threadScopeOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || Spec->getTemplateArgs().size() == 0)
    return std::nullopt;
  const TemplateArgument &A = Spec->getTemplateArgs()[0];
  if (A.getKind() != TemplateArgument::Integral)
    return std::nullopt;
  const auto *Enum = dyn_cast_or_null<EnumDecl>(A.getIntegralType()->getAsTagDecl());
  if (!Enum)
    return std::nullopt;
  for (const EnumConstantDecl *C : Enum->enumerators())
    if (llvm::APSInt::isSameValue(C->getInitVal(), A.getAsIntegral()))
      return C->getNameAsString();
  return std::nullopt;
}

std::optional<int64_t> pipelineSharedStateStages(const Stmt *Init) {
  if (!Init)
    return std::nullopt;
  if (const auto *Call = dyn_cast<CallExpr>(Init))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == "make_pipeline" && Call->getNumArgs() >= 2) {
      QualType T = Call->getArg(1)->getType();
      if (T->isPointerType())
        T = T->getPointeeType();
      const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
      if (Spec && Spec->getTemplateArgs().size() >= 2 &&
          Spec->getTemplateArgs()[1].getKind() == TemplateArgument::Integral)
        return Spec->getTemplateArgs()[1].getAsIntegral().getExtValue();
      return std::nullopt;
    }
  for (const Stmt *Child : Init->children())
    if (std::optional<int64_t> N = pipelineSharedStateStages(Child))
      return N;
  return std::nullopt;
}

bool isCudaBarrierType(QualType T) {
  T = T.getNonReferenceType();
  while (T->isPointerType() || T->isArrayType())
    T = T->isPointerType() ? T->getPointeeType() : QualType(T->getPointeeOrArrayElementType(), 0);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() && RD->getName() == "barrier" && outermostNamespace(RD) == "cuda";
}

namespace {

// The variable an address names: `&bar`, `&bars[i]`, `bars + i`.
const VarDecl *baseVariable(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = peelAddress(E);
    if (const auto *Sub = dyn_cast_or_null<ArraySubscriptExpr>(E))
      E = Sub->getBase();
    else if (const auto *B = dyn_cast_or_null<BinaryOperator>(E); B && B->isAdditiveOp())
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    else if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(Ref->getDecl());
    else
      return nullptr;
  }
  return nullptr;
}

bool countsTheBlock(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl()->getName() == "blockDim")
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && (FD->getName() == "size" || FD->getName() == "num_threads"))
      if (const auto *Method = dyn_cast<CXXMethodDecl>(FD);
          Method && Method->getParent()->getIdentifier() && Method->getParent()->getName() == "thread_block")
        return true;
  for (const Stmt *Child : S->children())
    if (countsTheBlock(Child))
      return true;
  return false;
}

} // namespace

bool barrierCountsTheBlock(const Stmt *Body, const VarDecl &Bar) {
  bool Seen = false, Whole = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && Call->getNumArgs() >= 2)
      if (const FunctionDecl *FD = Call->getDirectCallee(); FD && FD->getIdentifier() && FD->getName() == "init")
        if (baseVariable(Call->getArg(0)) == &Bar) {
          Seen = true;
          Whole &= countsTheBlock(Call->getArg(1));
        }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
  return Seen && Whole;
}

bool usesBlockScopePipeline(const Stmt *Body) {
  bool Found = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S))
      if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(peelAddress(Call->getImplicitObjectArgument())))
        if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl())) {
          const QualType T = VD->getType().getNonReferenceType();
          const std::optional<std::string> Scope = threadScopeOf(T);
          const auto *RD = T->getAsCXXRecordDecl();
          Found = Scope && *Scope == "thread_scope_block" && RD && RD->getIdentifier() && RD->getName() == "pipeline" &&
                  outermostNamespace(RD) == "cuda";
        }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(Body);
  return Found;
}

} // namespace clang::tidy::occlint
