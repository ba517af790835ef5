#include "pipelines/AsyncOperations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Regex.h"

namespace clang::tidy::occlint {

const char *asyncCopyFormName(AsyncCopyForm Form) {
  switch (Form) {
  case AsyncCopyForm::Primitives:
    return "__pipeline_memcpy_async";
  case AsyncCopyForm::CudaPipeline:
    return "cuda::pipeline";
  case AsyncCopyForm::CudaBarrier:
    return "cuda::barrier";
  case AsyncCopyForm::CooperativeGroups:
    return "cooperative_groups::memcpy_async";
  case AsyncCopyForm::PtxCpAsync:
    return "cp.async";
  case AsyncCopyForm::Bulk:
    return "cp.async.bulk (TMA)";
  }
  return "";
}

std::optional<int64_t> constantIntegerOf(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Ctx))
    return std::nullopt;
  return Result.Val.getInt().getExtValue();
}

const Expr *peelAddress(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *U = dyn_cast<UnaryOperator>(E);
             U && (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref))
      E = U->getSubExpr();
    else
      return E;
  }
  return E;
}

const FunctionDecl *programFunctionCalled(const CallExpr &Call, ASTContext &Ctx) {
  if (isa<CXXMemberCallExpr>(Call))
    return nullptr;
  const FunctionDecl *FD = Call.getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!FD || !FD->hasBody(Definition) || !Definition)
    return nullptr;
  const llvm::StringRef NS = outermostNamespace(FD);
  const SourceManager &SM = Ctx.getSourceManager();
  if (NS == "cuda" || NS == "cooperative_groups" || SM.isInSystemHeader(SM.getExpansionLoc(Definition->getLocation())))
    return nullptr;
  return Definition;
}

llvm::StringRef outermostNamespace(const Decl *D) {
  llvm::StringRef Name;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C); NS && !NS->isInline() && NS->getIdentifier())
      Name = NS->getName();
  return Name;
}

namespace {

// The name of the class of E's type ("pipeline", "barrier"), looking through
// references and pointers, and its outermost namespace.
std::pair<llvm::StringRef, llvm::StringRef> className(const Expr *E) {
  if (!E)
    return {};
  QualType T = E->getType().getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return {};
  return {RD->getName(), outermostNamespace(RD)};
}

// The first integral template argument of a called function template
// specialization: wait_prior<N>.
std::optional<int64_t> firstTemplateInteger(const FunctionDecl *FD) {
  if (const TemplateArgumentList *Args = FD ? FD->getTemplateSpecializationArgs() : nullptr)
    for (const TemplateArgument &A : Args->asArray())
      if (A.getKind() == TemplateArgument::Integral)
        return A.getAsIntegral().getExtValue();
  return std::nullopt;
}

AsyncOperation op(AsyncEventKind Kind, AsyncCopyForm Form, std::optional<int64_t> Pending = std::nullopt) {
  AsyncOperation O;
  O.kind = Kind;
  O.form = Form;
  O.pending = Pending;
  return O;
}

AsyncOperation copy(AsyncCopyForm Form, const Expr *Destination, const Expr *Size, ASTContext &Ctx) {
  AsyncOperation O = op(AsyncEventKind::Copy, Form);
  O.destination = Destination;
  O.size = Size;
  O.bytes = constantIntegerOf(Size, Ctx);
  return O;
}

// cuda::ptx::space_global: a bulk copy's destination space that is not
// shared memory.
bool isGlobalSpace(const Expr *E) {
  const auto *Record = E->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return Record && Record->getName().starts_with("space_global");
}

bool isThreadBlock(const Expr *E) {
  auto [Class, NS] = className(E);
  return NS == "cooperative_groups" && Class == "thread_block";
}

// The steps of a cuda::pipeline or cuda::barrier (Class in namespace ClassNS)
// that member Name is.
std::vector<AsyncOperation> recogniseSyncObjectCall(llvm::StringRef Class, llvm::StringRef ClassNS,
                                                    llvm::StringRef Name) {
  if (ClassNS == "cuda" && Class == "pipeline") {
    if (Name == "producer_acquire")
      return {op(AsyncEventKind::Acquire, AsyncCopyForm::CudaPipeline)};
    if (Name == "producer_commit")
      return {op(AsyncEventKind::Commit, AsyncCopyForm::CudaPipeline)};
    if (Name == "consumer_wait" || Name == "consumer_wait_for" || Name == "consumer_wait_until")
      return {op(AsyncEventKind::Wait, AsyncCopyForm::CudaPipeline, 0)};
    if (Name == "consumer_release")
      return {op(AsyncEventKind::Release, AsyncCopyForm::CudaPipeline)};
    return {};
  }
  if (ClassNS == "cuda" && Class == "barrier") {
    if (Name == "arrive" || Name == "arrive_and_drop")
      return {op(AsyncEventKind::Arrive, AsyncCopyForm::CudaBarrier)};
    if (Name == "wait" || Name == "wait_parity")
      return {op(AsyncEventKind::BarrierWait, AsyncCopyForm::CudaBarrier, 0)};
    if (Name == "arrive_and_wait")
      return {op(AsyncEventKind::Arrive, AsyncCopyForm::CudaBarrier),
              op(AsyncEventKind::BarrierWait, AsyncCopyForm::CudaBarrier, 0)};
  }
  return {};
}

std::vector<AsyncOperation> recogniseMemberCall(const CXXMemberCallExpr &Call, llvm::StringRef Name) {
  const Expr *Object = Call.getImplicitObjectArgument();
  auto [Class, ClassNS] = className(Object);
  std::vector<AsyncOperation> Out = recogniseSyncObjectCall(Class, ClassNS, Name);
  for (AsyncOperation &O : Out)
    O.sync = Object;
  if (Out.empty() && Name == "sync" && isThreadBlock(Object))
    Out.push_back(op(AsyncEventKind::BlockBarrier, AsyncCopyForm::Primitives));
  return Out;
}

std::vector<AsyncOperation> recogniseCall(const CallExpr &Call, ASTContext &Ctx) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return {};
  const llvm::StringRef Name = FD->getName();
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(&Call))
    return recogniseMemberCall(*Member, Name);
  // thread_block::sync() is static: `block.sync()` is a plain call.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(FD); Method && Method->isStatic() && Name == "sync" &&
                                                        Method->getParent()->getIdentifier() &&
                                                        Method->getParent()->getName() == "thread_block" &&
                                                        outermostNamespace(Method->getParent()) == "cooperative_groups")
    return {op(AsyncEventKind::BlockBarrier, AsyncCopyForm::Primitives)};
  const llvm::StringRef NS = outermostNamespace(FD);
  const unsigned Args = Call.getNumArgs();
  if (NS.empty()) {
    if (Name == "__pipeline_memcpy_async" && Args >= 3)
      return {copy(AsyncCopyForm::Primitives, Call.getArg(0), Call.getArg(2), Ctx)};
    if (Name == "__pipeline_commit")
      return {op(AsyncEventKind::Commit, AsyncCopyForm::Primitives)};
    if (Name == "__pipeline_wait_prior")
      return {op(AsyncEventKind::Wait, AsyncCopyForm::Primitives,
                 Args ? constantIntegerOf(Call.getArg(0), Ctx) : std::nullopt)};
    if (Name == "__syncthreads" || Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
        Name == "__syncthreads_or")
      return {op(AsyncEventKind::BlockBarrier, AsyncCopyForm::Primitives)};
    return {};
  }
  if (NS == "cuda") {
    if (Name == "memcpy_async" && Args >= 4) {
      // (dst, src, size, sync) or (group, dst, src, size, sync).
      const bool Group = Args >= 5;
      auto [Sync, SyncNS] = className(Call.getArg(Args - 1));
      const AsyncCopyForm Form = Sync == "barrier" ? AsyncCopyForm::CudaBarrier : AsyncCopyForm::CudaPipeline;
      AsyncOperation O = copy(Form, Call.getArg(Group ? 1 : 0), Call.getArg(Group ? 3 : 2), Ctx);
      O.sync = Call.getArg(Args - 1);
      return {O};
    }
    if (Name == "pipeline_consumer_wait_prior" && Args >= 1) {
      AsyncOperation O = op(AsyncEventKind::Wait, AsyncCopyForm::CudaPipeline, firstTemplateInteger(FD));
      O.sync = Call.getArg(0);
      return {O};
    }
    if (Name == "pipeline_producer_commit" && Args >= 1) {
      AsyncOperation O = op(AsyncEventKind::Commit, AsyncCopyForm::CudaPipeline);
      O.sync = Call.getArg(0);
      return {O};
    }
    // TMA through libcu++: cuda::device::memcpy_async_tx(dst, src, size, bar),
    // cuda::ptx::cp_async_bulk[_tensor](dstSpace, srcSpace, dst, src | map,
    // size | coords, mbar, ...) from global memory; a store to global
    // (dstSpace space_global) or a copy between the shared memories of a
    // cluster (srcSpace space_shared) is not a copy of a tile into the ring.
    if (Name == "memcpy_async_tx" && Args == 4) {
      AsyncOperation O = copy(AsyncCopyForm::Bulk, Call.getArg(0), Call.getArg(2), Ctx);
      O.sync = Call.getArg(3);
      return {O};
    }
    if (Name.starts_with("cp_async_bulk") && Args >= 6 && isGlobalSpace(Call.getArg(1)) &&
        !isGlobalSpace(Call.getArg(0)))
      return {copy(AsyncCopyForm::Bulk, Call.getArg(2), Name.contains("tensor") ? nullptr : Call.getArg(4), Ctx)};
    return {};
  }
  if (NS == "cooperative_groups") {
    if (Name == "memcpy_async" && Args >= 3)
      // (group, dst, src, size) or (group, dst, dstCount, src, srcCount).
      return {copy(AsyncCopyForm::CooperativeGroups, Call.getArg(1), Args == 4 ? Call.getArg(3) : nullptr, Ctx)};
    if (Name == "wait")
      return {op(AsyncEventKind::Wait, AsyncCopyForm::CooperativeGroups, 0)};
    if (Name == "wait_prior")
      return {op(AsyncEventKind::Wait, AsyncCopyForm::CooperativeGroups, firstTemplateInteger(FD))};
    if (Name == "sync" && Args == 1 && isThreadBlock(Call.getArg(0)))
      return {op(AsyncEventKind::BlockBarrier, AsyncCopyForm::Primitives)};
    return {};
  }
  return {};
}

const Expr *asmOperand(const GCCAsmStmt &Asm, unsigned I) {
  if (I < Asm.getNumOutputs())
    return Asm.getOutputExpr(I);
  I -= Asm.getNumOutputs();
  return I < Asm.getNumInputs() ? Asm.getInputExpr(I) : nullptr;
}

// "16" or "%2": a literal, or the operand's exact value.
std::optional<int64_t> asmInteger(const GCCAsmStmt &Asm, llvm::StringRef Text, ASTContext &Ctx) {
  int64_t Literal = 0;
  unsigned Operand = 0;
  if (Text.consume_front("%"))
    return Text.getAsInteger(10, Operand) ? std::nullopt : constantIntegerOf(asmOperand(Asm, Operand), Ctx);
  if (Text.getAsInteger(10, Literal))
    return std::nullopt;
  return Literal;
}

// A TMA copy into shared memory, `cp.async.bulk[.tensor.Nd].shared::cluster.global...
// [dst], [src | map, {coords}], size?, [mbar]`: its destination and, for the
// non-tensor form, its size (a tensor copy's bytes are its tensor map's box,
// not in the source). A bulk store (`cp.async.bulk.global.shared::cta`), a
// prefetch and the bulk group's commit and wait are not copies into shared
// memory: nothing.
std::vector<AsyncOperation> recogniseBulkAsm(const GCCAsmStmt &Asm, llvm::StringRef Text, ASTContext &Ctx) {
  static const llvm::Regex Load("cp\\.async\\.bulk(\\.tensor\\.[1-5]d)?\\.shared(::cta|::cluster)?\\.global[^[]*"
                                "\\[[ \t]*%([0-9]+)[ \t]*\\][ \t]*,[ \t]*\\[[^]]*\\][ \t]*(,[ \t]*(%?[0-9]+))?");
  llvm::SmallVector<llvm::StringRef, 6> Match;
  if (!Load.match(Text, &Match))
    return {};
  unsigned Operand = 0;
  Match[3].getAsInteger(10, Operand);
  AsyncOperation O = op(AsyncEventKind::Copy, AsyncCopyForm::Bulk);
  O.destination = asmOperand(Asm, Operand);
  if (Match[1].empty() && !Match[5].empty())
    O.bytes = asmInteger(Asm, Match[5], Ctx);
  return {O};
}

std::vector<AsyncOperation> recogniseAsm(const GCCAsmStmt &Asm, ASTContext &Ctx) {
  const std::string Text = Asm.getAsmString();
  if (Text.find("cp.async") == std::string::npos && Text.find("bar.sync") == std::string::npos &&
      Text.find("barrier.sync") == std::string::npos)
    return {};
  if (Text.find("cp.async.bulk") != std::string::npos)
    return recogniseBulkAsm(Asm, Text, Ctx);
  std::vector<AsyncOperation> Out;
  static const llvm::Regex Copy("cp\\.async\\.c[ag]\\.shared(::cta)?\\.global[^[]*\\[[ \t]*%([0-9]+)[ \t]*\\]"
                                "[ \t]*,[ \t]*\\[[^]]*\\][ \t]*,[ \t]*(%?[0-9]+)");
  llvm::SmallVector<llvm::StringRef, 4> Match;
  if (Copy.match(Text, &Match)) {
    unsigned Operand = 0;
    Match[2].getAsInteger(10, Operand);
    AsyncOperation O = op(AsyncEventKind::Copy, AsyncCopyForm::PtxCpAsync);
    O.destination = asmOperand(Asm, Operand);
    O.bytes = asmInteger(Asm, Match[3], Ctx);
    Out.push_back(O);
  }
  if (Text.find("cp.async.commit_group") != std::string::npos)
    Out.push_back(op(AsyncEventKind::Commit, AsyncCopyForm::PtxCpAsync));
  if (Text.find("cp.async.wait_all") != std::string::npos)
    Out.push_back(op(AsyncEventKind::Wait, AsyncCopyForm::PtxCpAsync, 0));
  static const llvm::Regex Wait("cp\\.async\\.wait_group[ \t]+(%?[0-9]+)");
  if (Wait.match(Text, &Match))
    Out.push_back(op(AsyncEventKind::Wait, AsyncCopyForm::PtxCpAsync, asmInteger(Asm, Match[1], Ctx)));
  // bar.sync 0 / barrier.sync 0 (all threads of the block) as __syncthreads.
  static const llvm::Regex Barrier("(^|[^.a-z])(bar|barrier)\\.sync(\\.aligned)?[ \t]+0[ \t]*;");
  if (Barrier.match(Text))
    Out.push_back(op(AsyncEventKind::BlockBarrier, AsyncCopyForm::PtxCpAsync));
  return Out;
}

} // namespace

std::vector<AsyncOperation> recogniseAsyncOperations(const Stmt &S, ASTContext &Ctx) {
  if (const auto *Call = dyn_cast<CallExpr>(&S))
    return recogniseCall(*Call, Ctx);
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(&S))
    return recogniseAsm(*Asm, Ctx);
  return {};
}

} // namespace clang::tidy::occlint
