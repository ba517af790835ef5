#include "divergence/DivergenceCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

namespace clang::tidy::occlint {

unsigned groupSizeOfType(QualType T) {
  T = T.getNonReferenceType();
  if (const auto *P = T->getAs<PointerType>())
    T = P->getPointeeType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return 0;
  const std::string Name = RD->getNameAsString();
  if (Name == "thread_block" || Name == "grid_group" || Name == "cluster_group")
    return 64;
  if (Name == "thread_block_tile")
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (Spec->getTemplateArgs().size() > 0 && Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Integral) {
        const int64_t N = Spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
        return N > 32 ? 64 : unsigned(N); // a multi-warp tile: judged like the block
      }
  return 0;
}

CallInfo classifyCall(const CallExpr &Call) {
  CallInfo Info;
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return Info;
  const StringRef Name = FD->getName();
  Info.Name = Name.str();

  // Members of cooperative groups: the object's class says which group.
  // Static members (thread_block::sync() in the toolkit) called as b.sync()
  // are plain calls whose callee is a member expression.
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    Obj = MC->getImplicitObjectArgument();
  else if (const auto *ME = dyn_cast<MemberExpr>(Call.getCallee()->IgnoreParenImpCasts()))
    Obj = ME->getBase();
  if (Obj)
    Obj = Obj->IgnoreImpCasts(); // the toolkit's tiles inherit their members: look past derived-to-base
  if (Obj) {
    const unsigned G = Obj ? groupSizeOfType(Obj->getType()) : 0;
    if (G == 0)
      return Info;
    Info.Group = G;
    Info.Name = (G == 64 ? "block." : "tile.") + Name.str() + "()";
    if (Name == "sync")
      Info.Role = CallRole::Barrier;
    else if (Name == "thread_rank")
      Info.Role = CallRole::ThreadRank;
    else if (Name == "meta_group_rank")
      Info.Role = CallRole::MetaGroupRank;
    else if (Name == "thread_index")
      Info.Role = CallRole::ThreadIndex;
    else if (Name == "shfl")
      Info.Role = CallRole::ShuffleIdx;
    else if (Name.starts_with("shfl_"))
      Info.Role = CallRole::Shuffle;
    else if (Name == "any" || Name == "all" || Name == "ballot")
      Info.Role = CallRole::Vote;
    else if (Name.starts_with("match_"))
      Info.Role = CallRole::Match;
    else
      Info.Role = CallRole::GroupUniform;
    return Info;
  }
  // cg::sync(g), cg::thread_rank(g).
  const DeclContext *DC = FD->getDeclContext();
  bool InCg = false;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC); NS && NS->getName() == "cooperative_groups")
      InCg = true;
  if (InCg && Call.getNumArgs() == 1) {
    const unsigned G = groupSizeOfType(Call.getArg(0)->getType());
    if (G && (Name == "sync" || Name == "thread_rank")) {
      Info.Group = G;
      Info.Role = Name == "sync" ? CallRole::Barrier : CallRole::ThreadRank;
      Info.Name = "cg::" + Name.str() + "()";
    }
    return Info;
  }
  if (Name == "__syncthreads" || Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name == "__barrier_sync") {
    Info.Role = CallRole::Barrier;
    Info.Group = 64;
    Info.ReturnsUniform = Name != "__syncthreads" && Name != "__barrier_sync";
    Info.Name = Name.str() + "()";
    return Info;
  }
  Info.Group = 32;
  if (Name == "__syncwarp") {
    Info.Role = CallRole::SyncWarp;
    Info.MaskArg = 0;
  } else if (Name == "__shfl_sync") {
    Info.Role = CallRole::ShuffleIdx;
    Info.MaskArg = 0;
  } else if (Name == "__shfl_up_sync" || Name == "__shfl_down_sync" || Name == "__shfl_xor_sync") {
    Info.Role = CallRole::Shuffle;
    Info.MaskArg = 0;
  } else if (Name == "__ballot_sync" || Name == "__any_sync" || Name == "__all_sync" || Name == "__uni_sync" ||
             Name.starts_with("__reduce_")) {
    Info.Role = CallRole::Vote;
    Info.MaskArg = 0;
  } else if (Name == "__match_any_sync" || Name == "__match_all_sync") {
    Info.Role = CallRole::Match;
    Info.MaskArg = 0;
  } else if (Name == "__activemask") {
    Info.Role = CallRole::ActiveMask;
  } else if (Name.starts_with("atomic") || Name.starts_with("__nv_atomic")) {
    Info.Role = CallRole::Atomic;
    Info.Group = 0;
  } else {
    Info.Group = 0;
  }
  return Info;
}

} // namespace clang::tidy::occlint
