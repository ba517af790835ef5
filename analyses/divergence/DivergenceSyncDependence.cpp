// Sync dependence (LLVM's UniformityAnalysis, GenericUniformityImpl.h, calls
// it so): a variable assigned under a thread-dependent branch X holds one
// value per path; the threads disagree on it where X's paths join again, at
// X's immediate post-dominator, and not before. Inside the region the threads
// still running took the same path: a loop counter reused in both arms of a
// divergent `if`, or the index of a loop whose own exit is thread-dependent
// (`for (c = lane; c < C; c += 32)`: the lanes still in the loop are at the
// same iteration), keeps its value. Where the region is a loop with a
// thread-dependent exit, the join is the code after the loop, where the
// lanes arrive from different iterations (temporal divergence).
#include "divergence/DivergenceDataflowImpl.h"

#include <algorithm>

namespace clang::tidy::occlint::detail {

std::vector<std::vector<JoinTaint>> Dataflow::computeJoinTaints() {
  const unsigned N = Cfg->getNumBlockIDs();
  // RegionVars[X]: the variables assigned in the blocks transitively control
  // dependent on X; grown along the reversed control dependence graph
  // (cycles included) until nothing changes, each set growing at most once
  // per variable.
  std::vector<std::vector<unsigned>> Controllers(N);
  for (unsigned X = 0; X < N; ++X)
    for (unsigned Y : DependsDirectly[X])
      Controllers[Y].push_back(X);
  std::vector<llvm::DenseSet<const VarDecl *>> RegionVars(N);
  std::vector<unsigned> Work;
  std::vector<bool> Queued(N, false);
  auto Grow = [&](unsigned X, const llvm::DenseSet<const VarDecl *> &From) {
    bool Grew = false;
    for (const VarDecl *VD : From)
      Grew |= RegionVars[X].insert(VD).second;
    if (Grew && !Queued[X]) {
      Queued[X] = true;
      Work.push_back(X);
    }
  };
  for (unsigned X = 0; X < N; ++X)
    for (unsigned Y : DependsDirectly[X])
      Grow(X, AssignedIn[Y]);
  while (!Work.empty()) {
    const unsigned Y = Work.back();
    Work.pop_back();
    Queued[Y] = false;
    for (unsigned X : Controllers[Y])
      if (X != Y)
        Grow(X, RegionVars[Y]);
  }
  std::vector<std::vector<JoinTaint>> Joins(N);
  for (const CFGBlock *X : *Cfg) {
    const unsigned Id = X->getBlockID();
    if (X->succ_size() < 2 || !Conds[Id] || RegionVars[Id].empty())
      continue;
    const unsigned G = Conds[Id]->uniformGroup();
    const CFGBlock *J = ipdom(X);
    if (G >= 64 || !J)
      continue; // a uniform branch, or paths that never join (the function does not end)
    // Under a boundary guard (a grid-stride loop's own condition) an index
    // stays monotone: the guard splits one warp only.
    const bool Boundary = toBool(*Conds[Id]).Split == SplitKind::Boundary;
    std::vector<JoinTaint> &At = Joins[J->getBlockID()];
    for (const VarDecl *VD : RegionVars[Id]) {
      auto It = std::find_if(At.begin(), At.end(), [&](const JoinTaint &T) { return T.Var == VD; });
      const bool Data = Conds[Id]->FromData;
      if (It == At.end()) {
        At.push_back({VD, G, Boundary, Data});
      } else {
        It->Group = std::min(It->Group, G);
        It->KeepMono = It->KeepMono && Boundary;
        It->FromData = It->FromData || Data;
      }
    }
  }
  for (std::vector<JoinTaint> &At : Joins) // an order that does not depend on the pointers' values
    std::sort(At.begin(), At.end(), [](const JoinTaint &A, const JoinTaint &B) {
      return A.Var->getBeginLoc() < B.Var->getBeginLoc() ||
             (A.Var->getBeginLoc() == B.Var->getBeginLoc() && A.Var < B.Var);
    });
  return Joins;
}

} // namespace clang::tidy::occlint::detail
