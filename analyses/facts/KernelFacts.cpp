#include "facts/KernelFacts.h"
#include "ast/SharedMemoryVariables.h"

#include "facts/GridStrideLoops.h"

#include "ast/AstWalker.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Mangle.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::occlint {

static std::optional<int64_t> exactOf(const Expr *E, ValueEvaluator &Values) {
  if (!E)
    return std::nullopt;
  EvaluatedValue V = Values.evaluateInteger(*E);
  if (!V.isExact())
    return std::nullopt;
  return V.exactValue();
}

static std::string mangledNameOf(const FunctionDecl &FD, ASTContext &Ctx) {
  std::unique_ptr<MangleContext> Mangler(Ctx.createMangleContext());
  if (!Mangler->shouldMangleDeclName(&FD))
    return FD.getNameAsString(); // extern "C" kernels keep their plain name
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  Mangler->mangleName(GlobalDecl(&FD), OS);
  return Name;
}

static std::string displayNameOf(const FunctionDecl &FD, ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressScope = false;
  FD.getNameForDiagnostic(OS, Policy, /*Qualified=*/true);
  return Name;
}

// `__maxnreg__(64)` between the start of the declaration and its name.
static void readMaxNReg(const FunctionDecl &FD, ASTContext &Ctx, KernelInfo &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *Redecl : FD.redecls()) {
    SourceLocation Begin = SM.getExpansionLoc(Redecl->getBeginLoc());
    SourceLocation Name = SM.getExpansionLoc(Redecl->getLocation());
    if (Begin.isInvalid() || Name.isInvalid() || SM.getFileID(Begin) != SM.getFileID(Name))
      continue;
    const unsigned BeginOffset = SM.getFileOffset(Begin), NameOffset = SM.getFileOffset(Name);
    if (NameOffset < BeginOffset)
      continue;
    bool Invalid = false;
    llvm::StringRef Buffer = SM.getBufferData(SM.getFileID(Begin), &Invalid);
    if (Invalid)
      continue;
    llvm::StringRef Text = Buffer.substr(BeginOffset, NameOffset - BeginOffset);
    static const llvm::Regex MaxNReg("__maxnreg__[ \t]*\\([ \t]*([0-9]+)[ \t]*\\)");
    llvm::SmallVector<llvm::StringRef, 2> Match;
    if (!MaxNReg.match(Text, &Match))
      continue;
    int64_t N = 0;
    if (Match[1].getAsInteger(10, N))
      continue;
    Out.maxRegisters = N;
    Out.maxRegistersLoc = Begin.getLocWithOffset(Text.find("__maxnreg__"));
    return;
  }
}

namespace {
// Sums the sizes of the constant-size __shared__ variables declared in a body.
class SharedVariableSizes : public AstWalker {
public:
  explicit SharedVariableSizes(ASTContext &Ctx) : Ctx(Ctx) {}
  bool visitDecl(Decl *D) override {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || !isSharedMemoryVariable(*VD) || VD->hasExternalStorage())
      return true;
    QualType T = VD->getType();
    if (T->isIncompleteType() || T->isDependentType() || !T->isConstantSizeType())
      return true;
    Bytes += Ctx.getTypeSizeInChars(T).getQuantity();
    return true;
  }
  int64_t Bytes = 0;

private:
  ASTContext &Ctx;
};
} // namespace

KernelInfo describeKernel(const FunctionDecl &FD, ASTContext &Ctx, ValueEvaluator &Values) {
  KernelInfo Out;
  Out.decl = &FD;
  Out.mangledName = mangledNameOf(FD, Ctx);
  Out.displayName = displayNameOf(FD, Ctx);
  if (const auto *Bounds = FD.getAttr<CUDALaunchBoundsAttr>()) {
    Out.launchBoundsMaxThreads = exactOf(Bounds->getMaxThreads(), Values);
    Out.launchBoundsMinBlocks = exactOf(Bounds->getMinBlocks(), Values);
    Out.launchBoundsMaxBlocksPerCluster = exactOf(Bounds->getMaxBlocks(), Values);
    Out.launchBoundsLoc = Ctx.getSourceManager().getExpansionLoc(Bounds->getLocation());
  }
  if (const auto *Cluster = FD.getAttr<CUDAClusterDimsAttr>()) {
    std::optional<int64_t> X = exactOf(Cluster->getX(), Values);
    std::optional<int64_t> Y = Cluster->getY() ? exactOf(Cluster->getY(), Values) : 1;
    std::optional<int64_t> Z = Cluster->getZ() ? exactOf(Cluster->getZ(), Values) : 1;
    if (X && Y && Z)
      Out.clusterDims = std::array<int64_t, 3>{*X, *Y, *Z};
  }
  readMaxNReg(FD, Ctx, Out);
  if (FD.hasBody()) {
    SharedVariableSizes Sizes(Ctx);
    Sizes.traverseStmt(FD.getBody());
    Out.staticSharedMemEstimate = Sizes.Bytes;
    Out.gridStrideLoop = findGridStrideLoop(FD.getBody(), Ctx);
    Out.runtimeExtentLoop = findRuntimeExtentLoop(FD.getBody());
    Out.blockDependentTripLoop = findBlockDependentTripLoop(FD.getBody(), Ctx);
    Out.pipeline = describeAsyncPipeline(FD, Ctx);
    if (Out.pipeline)
      Out.pipelineHazards = findPipelineHazards(FD, *Out.pipeline, Ctx);
  }
  return Out;
}

} // namespace clang::tidy::occlint
