// The transfer functions of calls: arguments, the CUDA built-ins and
// intrinsics by role (barriers, shuffles, votes, atomics, thread ranks),
// constexpr calls, calls into device functions with a body (analysed with
// the caller's argument values and context), and inline assembly.
#include "ast/IntegerConstants.h"
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <string>

namespace clang::tidy::occlint::detail {

/// An argument's value; `&x` of a local passes what the callee reads through it.
ThreadValue Dataflow::argValue(const Expr *A) {
  if (const auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts()); UO && UO->getOpcode() == UO_AddrOf)
    if (const VarDecl *VD = localVar(UO->getSubExpr()))
      return varValue(VD);
  return eval(A);
}

ThreadValue Dataflow::evalCall(const CallExpr *CE) {
  const CallInfo Info = classifyCall(*CE);
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  std::vector<ThreadValue> Args;
  for (const Expr *A : CE->arguments())
    Args.push_back(argValue(A));
  auto Arg = [&](unsigned I) { return I < Args.size() ? Args[I] : ThreadValue::uniform(); };
  // Member calls on tiles take (value, lane); free intrinsics (mask, value, lane).
  const bool Member = MC || isa<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts());
  const unsigned First = Member ? 0 : 1;

  if (Reporting)
    recordCollective(CE, Info);
  switch (Info.Role) {
  case CallRole::GroupUniform: {
    // A tile's size() or num_threads() is its type's (thread_block_tile<32>):
    // a warp-stride loop steps by exactly 32. (The toolkit's are constexpr;
    // the source-only mode's declarations are not: the type says it too.)
    if (const std::optional<int64_t> C = integerConstantOf(CE, Ctx))
      return ThreadValue::constant(*C);
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Info.Group <= 32 && Callee && (Callee->getName() == "size" || Callee->getName() == "num_threads"))
      return ThreadValue::constant(Info.Group);
    return ThreadValue::uniform();
  }
  case CallRole::Barrier:
  case CallRole::SyncWarp:
    return ThreadValue::uniform();
  case CallRole::ShuffleIdx: {
    const ThreadValue V = Arg(First), Src = Arg(First + 1);
    if (V.blockUniform())
      return V;
    if (Src.laneConstant() && Info.Group == 32)
      return withDataOf(opaque({ThreadValue::warpUniform(), Src}), V);
    return withDataOf(ThreadValue::top(), V); // data moved between lanes is still data
  }
  case CallRole::Shuffle:
    return Arg(First).laneConstant() ? Arg(First) : withDataOf(ThreadValue::top(), Arg(First));
  case CallRole::Vote:
    if (Info.Group != 32)
      return Arg(First).laneConstant() ? Arg(First) : ThreadValue::top();
    return Arg(First).blockUniform() ? ThreadValue::uniform() : ThreadValue::warpUniform();
  case CallRole::Match:
    return Arg(First).laneConstant() && Info.Group == 32 ? ThreadValue::warpUniform() : ThreadValue::top();
  case CallRole::ActiveMask:
    return ThreadValue::warpUniform();
  case CallRole::Atomic: {
    ThreadValue V = ThreadValue::top();
    V.FromData = true;
    return V;
  }
  case CallRole::ThreadRank:
    if (Info.Group >= 64)
      return ThreadValue::linearTid();
    return rem(ThreadValue::laneId(), ThreadValue::constant(Info.Group));
  case CallRole::MetaGroupRank:
    return div(ThreadValue::linearTid(), ThreadValue::constant(Info.Group));
  case CallRole::ThreadIndex:
    return ThreadValue::top();
  case CallRole::None:
    break;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (Callee && Callee->getIdentifier()) {
    const StringRef Name = Callee->getName();
    // __trap() aborts the kernel, though its declaration does not say so
    // (Clang's and the toolkit's headers define it as inline assembly).
    if (Name == "__trap")
      Traps = true;
    if (Name == "__nvvm_read_ptx_sreg_laneid")
      return ThreadValue::laneId();
    if (Name.starts_with("__nvvm_read_ptx_sreg_tid_"))
      return D.threadIdx(Name.back() - 'x');
    if (Name.starts_with("__nvvm_read_ptx_sreg_ntid_"))
      return D.blockDim(Name.back() - 'x');
  }
  // A constexpr function of constants (`lg2(Z_COUNT)`) is one value, the
  // compiler's: its body's loops would only say "uniform, unknown".
  if (Callee && Callee->isConstexpr())
    if (const std::optional<int64_t> C = integerConstantOf(CE, Ctx))
      return ThreadValue::constant(*C);
  if (const FunctionDecl *Def = analysableDefinition(Callee, Ctx)) {
    const ThreadValue Obj = MC ? eval(MC->getImplicitObjectArgument()) : ThreadValue::uniform();
    std::vector<ThreadValue> Params = Args;
    if (isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) && !Params.empty())
      Params.erase(Params.begin()); // the object is the first argument of a member operator
    DivergenceContext Here = contextAt(Cur);
    Here.Calls.push_back(CE->getExprLoc());
    if (Reporting)
      Here.WorkShare = calleeWorkShare(CE, *Def);
    if (Here.ExitedIgnored) {
      DivergenceContext Live = *Here.ExitedIgnored;
      Live.Calls.push_back(CE->getExprLoc());
      Here.ExitedIgnored = std::make_shared<const DivergenceContext>(std::move(Live));
    }
    FunctionSummary S = D.call(*Def, Params, Obj, Here, Reporting);
    if (Params.size() == Args.size()) // locals passed by non-const reference
      for (unsigned I = 0; I < S.OutParams.size() && I < CE->getNumArgs(); ++I)
        if (S.OutParams[I])
          if (const VarDecl *VD = localVar(CE->getArg(I)))
            setVar(VD, *S.OutParams[I]);
    return S.Ret;
  }
  // An unknown function: a function of its arguments (and of what they point to).
  if (MC)
    Args.push_back(eval(MC->getImplicitObjectArgument()));
  ThreadValue Result = opaque(Args);
  if (!Result.laneConstant()) // what the arguments (or what they point to) held from data
    Result.FromData = std::any_of(Args.begin(), Args.end(), [](const ThreadValue &V) { return V.FromData; });
  // Locals passed by address or by non-const reference may be written.
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I)->IgnoreParenImpCasts();
    const VarDecl *VD = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(A); UO && UO->getOpcode() == UO_AddrOf)
      VD = localVar(UO->getSubExpr());
    else if (Callee && I < Callee->getNumParams() && Callee->getParamDecl(I)->getType()->isReferenceType() &&
             !Callee->getParamDecl(I)->getType().getNonReferenceType().isConstQualified())
      VD = localVar(A);
    if (VD)
      setVar(VD, join(varValue(VD), Result));
  }
  return Result;
}

void Dataflow::processAsm(const GCCAsmStmt *Asm) {
  const std::string Text = Asm->getAsmString();
  if (Text.find("trap;") != std::string::npos)
    Traps = true;
  ThreadValue V;
  if (Text.find("%laneid") != std::string::npos)
    V = ThreadValue::laneId();
  else if (Text.find("%tid.x") != std::string::npos)
    V = D.threadIdx(0);
  else if (Text.find("%tid.y") != std::string::npos)
    V = D.threadIdx(1);
  else if (Text.find("%warpid") != std::string::npos)
    V = ThreadValue::warpUniform();
  else {
    std::vector<ThreadValue> Ins;
    for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
      Ins.push_back(eval(Asm->getInputExpr(I)));
    V = opaque(Ins);
  }
  for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
    assign(Asm->getOutputExpr(I), V);
  if (Reporting && (Text.find("bar.sync") != std::string::npos || Text.find("barrier.sync") != std::string::npos ||
                    Text.find("bar.red") != std::string::npos)) {
    DivergenceCollective C;
    C.AsmStmt = Asm;
    C.Loc = Asm->getBeginLoc();
    C.Name = "'bar.sync' (inline assembly)";
    C.Barrier = true;
    // `bar.sync id, count` waits for `count` threads only (warp-specialised
    // code): it needs whole warps, not the whole block.
    const size_t At = Text.find("bar");
    const size_t End = Text.find_first_of(";\n", At);
    C.Needed = Text.substr(At, End == std::string::npos ? std::string::npos : End - At).find(',') != std::string::npos
                   ? 32
                   : 64;
    C.Ctx = contextAt(Cur);
    C.Kernel = D.Kernel;
    if (C.Ctx.Group < C.Needed)
      D.Out.addCollective(std::move(C));
  }
}

} // namespace clang::tidy::occlint::detail
