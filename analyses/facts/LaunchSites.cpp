#include "facts/LaunchSites.h"

#include "ast/AstWalker.h"
#include "ast/KernelReferences.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::tidy::occlint {

const char *launchKindName(LaunchKind Kind) {
  switch (Kind) {
  case LaunchKind::TripleChevron:
    return "<<<...>>>";
  case LaunchKind::LaunchKernel:
    return "cudaLaunchKernel";
  case LaunchKind::LaunchCooperativeKernel:
    return "cudaLaunchCooperativeKernel";
  case LaunchKind::LaunchKernelEx:
    return "cudaLaunchKernelEx";
  }
  return "launch";
}

static const Expr *writtenArg(const CallExpr &Call, unsigned Index) {
  if (Index >= Call.getNumArgs() || isa<CXXDefaultArgExpr>(Call.getArg(Index)))
    return nullptr;
  return Call.getArg(Index);
}

static llvm::StringRef calleeName(const CallExpr &Call) {
  if (const FunctionDecl *Callee = Call.getDirectCallee())
    if (const IdentifierInfo *Id = Callee->getIdentifier())
      return Id->getName();
  return "";
}

static const VarDecl *referencedVariable(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (const auto *Unary = dyn_cast<UnaryOperator>(E); Unary && Unary->getOpcode() == UO_AddrOf)
    E = Unary->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

namespace {
// The assignments of one function that configure a cudaLaunchKernelEx call:
// `config.gridDim = ...`, `attrs[0].id = cudaLaunchAttributeClusterDimension`,
// `attrs[0].val.clusterDim.x = 2`. Paths are the member names from the root
// variable, subscripts skipped: "gridDim", "val.clusterDim.x".
class LaunchConfigAssignments : public AstWalker {
public:
  struct Assignment {
    const VarDecl *root;
    std::string path;
    const Expr *value;
  };
  std::vector<Assignment> Assignments;
  /// How often each variable is passed to a call (by value, address or
  /// reference): a config that another function may fill is not readable here.
  llvm::DenseMap<const VarDecl *, unsigned> PassedToCalls;

  bool visitStmt(Stmt *S) override {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      for (const Expr *Arg : Call->arguments())
        if (const VarDecl *Var = referencedVariable(Arg))
          ++PassedToCalls[Var];
      if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
          Op && Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
        record(Op->getArg(0), Op->getArg(1));
    } else if (const auto *Op = dyn_cast<BinaryOperator>(S); Op && Op->getOpcode() == BO_Assign) {
      record(Op->getLHS(), Op->getRHS());
    }
    return true;
  }

private:
  void record(const Expr *Lhs, const Expr *Rhs) {
    std::string Path;
    const Expr *E = Lhs->IgnoreParenImpCasts();
    while (true) {
      if (const auto *Member = dyn_cast<MemberExpr>(E)) {
        Path = Member->getMemberDecl()->getNameAsString() + (Path.empty() ? "" : "." + Path);
        E = Member->getBase()->IgnoreParenImpCasts();
      } else if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(E)) {
        E = Subscript->getBase()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    if (Path.empty())
      return;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *Root = dyn_cast<VarDecl>(Ref->getDecl()))
        Assignments.push_back({Root, Path, Rhs});
  }
};
} // namespace

// The single value assigned to Root.Path in the function, or (for the config
// struct) given by its initializer; null when none or more than one.
static const Expr *singleAssignment(const LaunchConfigAssignments &All, const VarDecl *Root, llvm::StringRef Path) {
  const Expr *Found = nullptr;
  for (const auto &A : All.Assignments)
    if (A.root == Root && A.path == Path) {
      if (Found)
        return nullptr;
      Found = A.value;
    }
  if (Found || !Root->getInit())
    return Found;
  // cudaLaunchConfig_t config = {grid, block, smem, ...} / {.gridDim = ...}
  const auto *Init = dyn_cast<InitListExpr>(Root->getInit()->IgnoreImplicit());
  const auto *Record = Root->getType()->getAsRecordDecl();
  if (!Init || !Record)
    return nullptr;
  if (Init->isSyntacticForm() && Init->getSemanticForm())
    Init = Init->getSemanticForm();
  for (const FieldDecl *Field : Record->fields())
    if (Field->getName() == Path && Field->getFieldIndex() < Init->getNumInits()) {
      const Expr *Value = Init->getInit(Field->getFieldIndex());
      return Value; // ImplicitValueInitExpr: zero, as the initializer says
    }
  return nullptr;
}

static bool isEnumerator(const Expr *E, llvm::StringRef Name) {
  if (!E)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return Ref->getDecl()->getName() == Name;
  return false;
}

static void readLaunchConfig(LaunchSite &Site, const VarDecl *Config, ValueEvaluator &Values) {
  if (!Site.caller || !Site.caller->hasBody())
    return;
  LaunchConfigAssignments All;
  All.traverseStmt(Site.caller->getBody());
  if (All.PassedToCalls.lookup(Config) > 1 || !Config->isLocalVarDecl()) {
    // Filled elsewhere (a helper, a global): not readable here.
    Site.grid.xyz[0] = EvaluatedValue::unknown("gridDim");
    Site.block.xyz[0] = EvaluatedValue::unknown("blockDim");
    Site.dynamicSharedMem = EvaluatedValue::unknown("dynamicSmemBytes");
    return;
  }
  Site.gridExpr = singleAssignment(All, Config, "gridDim");
  Site.blockExpr = singleAssignment(All, Config, "blockDim");
  Site.dynamicSharedMemExpr = singleAssignment(All, Config, "dynamicSmemBytes");
  // The written values are evaluated with the launch's variants
  // (launchVariants); a field never assigned here stays unknown.
  if (!Site.gridExpr)
    Site.grid.xyz[0] = EvaluatedValue::unknown("gridDim");
  if (!Site.blockExpr)
    Site.block.xyz[0] = EvaluatedValue::unknown("blockDim");
  if (!Site.dynamicSharedMemExpr)
    Site.dynamicSharedMem = EvaluatedValue::unknown("dynamicSmemBytes");
  // Attributes: the array assigned to config.attrs, or given in its initializer.
  const Expr *AttrsExpr = singleAssignment(All, Config, "attrs");
  const VarDecl *Attrs = AttrsExpr ? referencedVariable(AttrsExpr) : nullptr;
  if (!Attrs)
    return;
  for (const auto &A : All.Assignments) {
    if (A.root != Attrs)
      continue;
    if (A.path == "id" && isEnumerator(A.value, "cudaLaunchAttributeCooperative"))
      Site.cooperative = true;
    if (A.path == "val.cooperative") {
      EvaluatedValue V = Values.evaluateInteger(*A.value);
      if (V.isExact() && V.exactValue() != 0)
        Site.cooperative = true;
    }
  }
  std::array<std::optional<int64_t>, 3> Cluster;
  const char *Axes[] = {"val.clusterDim.x", "val.clusterDim.y", "val.clusterDim.z"};
  for (int I = 0; I < 3; ++I)
    if (const Expr *Value = singleAssignment(All, Attrs, Axes[I])) {
      EvaluatedValue V = Values.evaluateInteger(*Value);
      if (V.isExact())
        Cluster[I] = V.exactValue();
    }
  if (Cluster[0] && Cluster[1] && Cluster[2])
    Site.clusterDims = std::array<int64_t, 3>{*Cluster[0], *Cluster[1], *Cluster[2]};
}

static bool isDeviceFunction(const FunctionDecl *FD) {
  return FD && (FD->hasAttr<CUDAGlobalAttr>() || (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>()));
}

std::optional<LaunchSite> recognizeLaunch(const CallExpr &Call, const FunctionDecl *Caller, ASTContext &Ctx,
                                          ValueEvaluator &Values) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The runtime's own wrappers (templates in cuda_runtime.h calling the C API)
  // are not the user's launches.
  if (SM.isInSystemHeader(SM.getExpansionLoc(Call.getBeginLoc())))
    return std::nullopt;
  LaunchSite Site;
  Site.call = &Call;
  Site.caller = Caller;
  Site.fromDeviceCode = isDeviceFunction(Caller);
  if (const auto *Chevron = dyn_cast<CUDAKernelCallExpr>(&Call)) {
    Site.kind = LaunchKind::TripleChevron;
    Site.kernel = referencedKernel(Chevron->getCallee());
    if (const CallExpr *Config = Chevron->getConfig()) {
      Site.gridExpr = writtenArg(*Config, 0);
      Site.blockExpr = writtenArg(*Config, 1);
      Site.dynamicSharedMemExpr = writtenArg(*Config, 2);
    }
    Site.argumentExprs.assign(Chevron->arg_begin(), Chevron->arg_end());
  } else {
    const llvm::StringRef Name = calleeName(Call);
    if (Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") {
      Site.kind = Name == "cudaLaunchKernel" ? LaunchKind::LaunchKernel : LaunchKind::LaunchCooperativeKernel;
      Site.cooperative = Site.kind == LaunchKind::LaunchCooperativeKernel;
      Site.kernel = Call.getNumArgs() > 0 ? referencedKernel(Call.getArg(0)) : nullptr;
      Site.gridExpr = writtenArg(Call, 1);
      Site.blockExpr = writtenArg(Call, 2);
      Site.dynamicSharedMemExpr = writtenArg(Call, 4);
    } else if (Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC") {
      Site.kind = LaunchKind::LaunchKernelEx;
      Site.kernel = Call.getNumArgs() > 1 ? referencedKernel(Call.getArg(1)) : nullptr;
      // The runtime's variadic template forwards the kernel's arguments.
      if (Name == "cudaLaunchKernelEx" && Site.kernel && Call.getNumArgs() == 2 + Site.kernel->getNumParams())
        Site.argumentExprs.assign(Call.arg_begin() + 2, Call.arg_end());
    } else {
      return std::nullopt;
    }
  }
  if (Site.kind == LaunchKind::LaunchKernelEx) {
    const VarDecl *Config = Call.getNumArgs() > 0 ? referencedVariable(Call.getArg(0)) : nullptr;
    if (Config)
      readLaunchConfig(Site, Config, Values);
    else {
      Site.grid.xyz[0] = EvaluatedValue::unknown("gridDim");
      Site.block.xyz[0] = EvaluatedValue::unknown("blockDim");
      Site.dynamicSharedMem = EvaluatedValue::unknown("dynamicSmemBytes");
    }
  }
  Site.loc = SM.getExpansionLoc(Call.getBeginLoc());
  Site.range = SM.getExpansionRange(Call.getSourceRange()).getAsRange();
  return Site;
}

std::optional<DynamicSharedMemOptin> recognizeOptin(const CallExpr &Call, ASTContext &Ctx, ValueEvaluator &Values) {
  if (calleeName(Call) != "cudaFuncSetAttribute" || Call.getNumArgs() < 3)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getExpansionLoc(Call.getBeginLoc())))
    return std::nullopt;
  if (!isEnumerator(Call.getArg(1), "cudaFuncAttributeMaxDynamicSharedMemorySize"))
    return std::nullopt;
  DynamicSharedMemOptin Out;
  Out.kernel = referencedKernel(Call.getArg(0)); // null for a function pointer: any kernel may be the one
  Out.bytes = Values.evaluateInteger(*Call.getArg(2));
  Out.loc = SM.getExpansionLoc(Call.getBeginLoc());
  return Out;
}

} // namespace clang::tidy::occlint
