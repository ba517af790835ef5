// The findings of the divergence dataflow: barriers and warp collectives
// reached under divergent control, and the branches that split warps with
// an estimate of the work on either side.
#include "divergence/BranchLoss.h"
#include "divergence/DivergenceDataflowImpl.h"
#include "divergence/LoopWeights.h"
#include "divergence/OperationCost.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <string>

namespace clang::tidy::occlint::detail {

void Dataflow::recordCollective(const CallExpr *CE, const CallInfo &Info) {
  bool Barrier = Info.Role == CallRole::Barrier;
  const bool Collective = Info.Role == CallRole::SyncWarp || Info.Role == CallRole::ShuffleIdx ||
                          Info.Role == CallRole::Shuffle || Info.Role == CallRole::Vote || Info.Role == CallRole::Match;
  if (!Barrier && !Collective)
    return;
  if (Info.Group == 0)
    return;
  if (Collective && Info.MaskArg >= 0) {
    // Only a full mask promises that all 32 lanes arrive.
    if (unsigned(Info.MaskArg) >= CE->getNumArgs())
      return; // __syncwarp() with its default argument is written without one
    auto M = eval(CE->getArg(Info.MaskArg)).exact();
    if (!M || (uint64_t(*M) & 0xffffffffu) != 0xffffffffu)
      return;
  }
  DivergenceCollective C;
  C.Call = CE;
  C.Loc = CE->getBeginLoc();
  C.Name = Info.Name;
  C.Barrier = Barrier;
  C.Needed = Info.Group;
  C.Ctx = contextAt(Cur);
  C.Kernel = D.Kernel;
  C.ExitedMatter = Info.Role == CallRole::Shuffle || Info.Role == CallRole::ShuffleIdx;
  if (C.Ctx.Group < C.Needed)
    D.Out.addCollective(std::move(C));
}

// ---- branches that split warps -------------------------------------------------

int64_t Dataflow::blockCost(const CFGBlock &B) {
  llvm::SmallPtrSet<const Stmt *, 16> Inner;
  std::vector<const Stmt *> Work;
  for (const CFGElement &El : B)
    if (auto S = El.getAs<CFGStmt>())
      for (const Stmt *C : S->getStmt()->children())
        Work.push_back(C);
  while (!Work.empty()) { // every sub-expression of an element is counted with it
    const Stmt *C = Work.back();
    Work.pop_back();
    if (!C || !Inner.insert(C).second)
      continue;
    for (const Stmt *D : C->children())
      Work.push_back(D);
  }
  int64_t Cost = 0;
  for (const CFGElement &El : B)
    if (auto S = El.getAs<CFGStmt>(); S && !Inner.count(S->getStmt()))
      Cost += stmtCost(S->getStmt());
  return Cost;
}

int64_t Dataflow::stmtCost(const Stmt *S) {
  if (!S)
    return 0;
  int64_t Cost = operationCost(S);
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Def = analysableDefinition(CE->getDirectCallee(), Ctx))
      Cost += D.cost(*Def);
  for (const Stmt *C : S->children())
    Cost += stmtCost(C);
  return Cost;
}

const Stmt *Dataflow::firstStatement(const CFGBlock &B) {
  for (const CFGElement &El : B)
    if (auto S = El.getAs<CFGStmt>())
      return S->getStmt();
  return nullptr;
}

void Dataflow::estimateWork() {
  const unsigned N = Cfg->getNumBlockIDs();
  Costs.assign(N, 0);
  for (const CFGBlock *B : *Cfg)
    Costs[B->getBlockID()] = blockCost(*B);
  // How often each block runs per call, and the work of each loop's
  // iteration (its nested loops included) and of the whole function.
  Weights = std::make_unique<LoopWeights>(FD.getBody(), Ctx);
  BlockWeight.assign(N, 1.0);
  LoopWork.clear();
  FunctionWork = 0;
  for (const CFGBlock *B : *Cfg) {
    const Stmt *Loop = nullptr;
    if (const Stmt *First = firstStatement(*B))
      Loop = Weights->enclosingLoop(First);
    else if (const Stmt *T = B->getTerminatorStmt(); isLoop(T))
      Loop = T; // an empty loop header runs every iteration
    const unsigned Id = B->getBlockID();
    BlockWeight[Id] = Weights->iterationWeight(Loop);
    const double W = double(Costs[Id]) * BlockWeight[Id];
    FunctionWork += W;
    for (const Stmt *L = Loop; L; L = Weights->parentLoop(L))
      LoopWork[L] += W;
  }
}

double Dataflow::calleeWorkShare(const CallExpr *Call, const FunctionDecl &Callee) {
  if (!Weights || FunctionWork <= 0)
    return Entry.WorkShare;
  const double Calls = double(D.cost(Callee)) * Weights->weight(Call);
  return Entry.WorkShare * std::min(1.0, Calls / FunctionWork);
}

void Dataflow::reportBranches() {
  for (const CFGBlock *X : *Cfg) {
    const Stmt *S = X->getTerminatorStmt();
    if (!S || X->succ_size() < 2 || !isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, ConditionalOperator>(S))
      continue;
    const Expr *CondExpr = branchCondition(S);
    if (!CondExpr)
      continue;
    // A rule read the condition as the same in every lane (the launches'
    // block shape decides it, a loop shifted by its start's lane value).
    if (const std::optional<ThreadValue> &Known = Conds[X->getBlockID()]; Known && Known->laneConstant())
      continue;
    // The whole condition (`a && b` spans several blocks), in the values of this block.
    Env Copy = Out[X->getBlockID()] ? *Out[X->getBlockID()] : Env();
    Env *Saved = E;
    E = &Copy;
    Cache.clear();
    const bool WasReporting = Reporting;
    Reporting = false;
    ThreadValue Cond = eval(CondExpr);
    Reporting = WasReporting;
    E = Saved;
    if (isa<SwitchStmt>(S) ? Cond.laneConstant() : toBool(Cond).uniformGroup() >= 32)
      continue;
    DivergenceBranch Br;
    Br.S = S;
    Br.Loc = S->getBeginLoc();
    Br.Loop = isa<ForStmt, WhileStmt, DoStmt>(S);
    Br.What = Br.Loop                       ? "loop"
              : isa<SwitchStmt>(S)          ? "switch"
              : isa<ConditionalOperator>(S) ? "conditional operator"
                                            : "branch";
    Br.Cond = Cond;
    Br.CondText = sourceText(CondExpr, Ctx);
    Br.Kernel = D.Kernel;
    Br.WarpLanes = D.Shape.warpLanes();
    // Work relative to one run of the branch: a side's blocks weighted by
    // the loops they are in, over the weight of the loops around the branch.
    const Stmt *Level = Weights->enclosingLoop(S);
    Br.Repeat = Weights->iterationWeight(Level);
    Br.LevelWork = (Level ? LoopWork.lookup(Level) : FunctionWork) / Br.Repeat;
    unsigned Side = 0;
    for (const CFGBlock *Succ : X->succs()) {
      if (!Succ) {
        ++Side;
        continue;
      }
      std::vector<unsigned> Members;
      region(X, Succ, Members);
      double W = 0;
      for (unsigned I : Members)
        if (I != X->getBlockID())
          W += double(Costs[I]) * BlockWeight[I];
      (Side == 0 ? Br.WorkTaken : Br.WorkOther) += int64_t(std::min(W / Br.Repeat, 1e15) + 0.5);
      ++Side;
    }
    if (Br.Loop)
      Br.Trips = std::max(1.0, Weights->iterationWeight(S) / Br.Repeat);
    Br.FunctionWork = FunctionWork;
    Br.WorkShare = Entry.WorkShare;
    if (const std::optional<int64_t> T = D.Shape.threads())
      Br.WarpsPerBlock = unsigned((*T + 31) / 32);
    Br.Loss = estimatedLoss(Br);
    D.Out.addBranch(std::move(Br));
  }
}

} // namespace clang::tidy::occlint::detail
