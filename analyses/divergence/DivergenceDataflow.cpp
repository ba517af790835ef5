// The fixpoint driver of the divergence dataflow: builds the CFG and its
// post-dominator tree, runs the forward dataflow over the blocks (widening
// loops) and iterates it with the control dependence until neither changes,
// then summarises the function for its callers.
#include "divergence/DivergenceDataflow.h"
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"

namespace clang::tidy::occlint {

namespace detail {

Dataflow::Dataflow(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params,
                   const ThreadValue &This, const DivergenceContext &Entry, bool Report)
    : FD(FD), D(D), Ctx(D.Ctx), This(This), Entry(Entry), Report(Report) {
  for (unsigned I = 0; I < FD.getNumParams(); ++I)
    EntryEnv[FD.getParamDecl(I)] = I < Params.size() ? Params[I] : ThreadValue::uniform();
}

// The expressions of S (each a value the dataflow may cache), counted once
// without recursion (an expression may nest thousands deep: ast/DeepExpressions.h).
static size_t expressionCount(const Stmt *S) {
  size_t N = 0;
  llvm::SmallVector<const Stmt *, 64> Pending{S};
  while (!Pending.empty()) {
    const Stmt *Next = Pending.pop_back_val();
    if (!Next)
      continue;
    N += isa<Expr>(Next);
    for (const Stmt *Child : Next->children())
      Pending.push_back(Child);
  }
  return N;
}

FunctionSummary Dataflow::run() {
  CFG::BuildOptions Opts;
  Opts.AddImplicitDtors = false;
  Opts.AddTemporaryDtors = false;
  Opts.AddInitializers = false;
  // LifetimeEnds elements: a local leaves the state when its scope ends, so
  // the state carries the variables in scope, not every variable the
  // function has declared so far (thousands of loops, each with its own
  // counter, would make every block's copy of the state grow with the file).
  Opts.AddLifetime = true;
  Cfg = CFG::buildCFG(&FD, FD.getBody(), &Ctx, Opts);
  if (!Cfg)
    return FunctionSummary{opaqueParams(), {}};
  PDT.buildDominatorTree(Cfg.get());
  Order = std::make_unique<PostOrderCFGView>(Cfg.get());
  Cache.reserve(expressionCount(FD.getBody()));
  computeControlDependence();
  for (const CFGBlock *B : *Cfg)
    if (const Stmt *T = B->getTerminatorCondition(false))
      if (const auto *CE = dyn_cast<Expr>(T))
        CondBlock[CE->IgnoreParens()] = B->getBlockID();
  const unsigned N = Cfg->getNumBlockIDs();
  EdgeFacts.assign(N, std::nullopt);
  for (const CFGBlock *B : *Cfg)
    EdgeFacts[B->getBlockID()] = edgeFactOf(*B);
  Taints.assign(N, Taint{});
  JoinTaints.assign(N, {});
  Conds.assign(N, std::nullopt);
  BoundaryConds.assign(N, 0);
  DecidedConds.assign(N, std::nullopt);
  Primary.assign(N, false);
  // Values and control dependence feed each other: iterate both.
  for (int Round = 0; Round < 8; ++Round) {
    flow();
    if (Round == 0) // branches that differ between threads before any control dependence: the causes
      for (unsigned I = 0; I < N; ++I)
        Primary[I] = Conds[I] && Conds[I]->uniformGroup() < 64;
    std::vector<Taint> New = computeTaints();
    std::vector<std::vector<JoinTaint>> NewJoins = computeJoinTaints();
    if (New == Taints && NewJoins == JoinTaints)
      break;
    Taints = std::move(New);
    JoinTaints = std::move(NewJoins);
  }
  LiveTaints = computeTaints(/*IgnoreExits=*/true);
  if (Report) {
    estimateWork();
    Reporting = true;
    flow();
    reportBranches();
  }
  FunctionSummary S;
  S.Ret = HasReturn ? Ret : ThreadValue::uniform();
  // Out-parameters: their values where the paths meet at the exit (after
  // the join's taints).
  const std::optional<Env> &AtExit = Out[Cfg->getExit().getBlockID()];
  for (unsigned I = 0; I < FD.getNumParams(); ++I) {
    const ParmVarDecl *P = FD.getParamDecl(I);
    std::optional<ThreadValue> V;
    if (P->getType()->isLValueReferenceType() && !P->getType().getNonReferenceType().isConstQualified() && AtExit)
      if (auto It = AtExit->find(P); It != AtExit->end())
        V = It->second;
    S.OutParams.push_back(V);
  }
  return S;
}

ThreadValue Dataflow::opaqueParams() {
  std::vector<ThreadValue> Vs;
  for (auto &[K, V] : EntryEnv)
    Vs.push_back(V);
  return opaque(Vs);
}

// ---- the fixpoint ------------------------------------------------------

bool Dataflow::mergeInto(std::optional<Env> &Dst, const Env &Src) {
  if (!Dst) {
    Dst = Src;
    return true;
  }
  bool Changed = false;
  for (const auto &[K, V] : Src) {
    auto It = Dst->find(K);
    if (It == Dst->end()) {
      Dst->insert({K, V});
      Changed = true;
    } else if (ThreadValue J = join(It->second, V); J != It->second) {
      It->second = J;
      Changed = true;
    }
  }
  return Changed;
}

void Dataflow::flow() {
  const unsigned N = Cfg->getNumBlockIDs();
  In.assign(N, std::nullopt);
  Out.assign(N, std::nullopt);
  Ret = ThreadValue::uniform();
  HasReturn = false;
  std::vector<unsigned> Visits(N, 0);
  CondFresh.assign(N, false);
  AssignedIn.assign(N, {});
  // Blocks in reverse post-order: a loop settles before the code after it
  // runs, so a chain of thousands of loops costs a few visits per block, not
  // one more round of the whole chain per loop (a FIFO would).
  ForwardDataflowWorklist Work(*Cfg, Order.get());
  const CFGBlock &EntryBlock = Cfg->getEntry();
  In[EntryBlock.getBlockID()] = EntryEnv;
  Work.enqueueBlock(&EntryBlock);
  while (const CFGBlock *B = Work.dequeue()) {
    const unsigned Id = B->getBlockID();
    Env Local = *In[Id];
    if (++Visits[Id] > 40) // widening: give up precision rather than loop
      for (auto &[K, V] : Local)
        V = ThreadValue::top();
    for (const JoinTaint &T : JoinTaints[Id]) // the paths of a thread-dependent branch join here
      if (auto It = Local.find(T.Var); It != Local.end()) {
        It->second = T.KeepMono ? taintAtBoundaryJoin(It->second, T.Group) : taintAtJoin(It->second, T.Group);
        if (T.FromData && !It->second.laneConstant())
          It->second.FromData = true;
      }
    Traps = false;
    process(*B, Local);
    Out[Id] = Local;
    if (Traps) // the kernel stops here: the code after it is reached only by the other paths
      continue;
    unsigned Index = 0;
    for (const CFGBlock *S : B->succs()) {
      const unsigned I = Index++;
      if (!S)
        continue;
      bool Changed;
      if (EdgeFacts[Id] && EdgeFacts[Id]->AlignedSucc == I) { // what the condition says on this edge
        Env Edge = Local;
        applyEdgeFact(*EdgeFacts[Id], Edge);
        Changed = mergeInto(In[S->getBlockID()], Edge);
      } else {
        Changed = mergeInto(In[S->getBlockID()], Local);
      }
      if (Changed)
        Work.enqueueBlock(S);
    }
  }
}

void Dataflow::process(const CFGBlock &B, Env &Local) {
  E = &Local;
  Cur = B.getBlockID();
  Cache.clear();
  for (const CFGElement &El : B)
    if (auto S = El.getAs<CFGStmt>()) {
      processStmt(S->getStmt());
      applyStatedAlignments(S->getStmt(), Local);
    } else if (auto Ends = El.getAs<CFGLifetimeEnds>())
      Local.erase(Ends->getVarDecl());
  if (const Stmt *T = B.getTerminatorCondition(false))
    if (const auto *CE = dyn_cast<Expr>(T)) {
      Conds[Cur] = eval(CE);
      if (!Conds[Cur]->laneConstant())
        if (std::optional<ThreadValue> SameTrips = shiftedLoopTrips(CE))
          Conds[Cur] = *SameTrips;
      BoundaryConds[Cur] = boundaryCondition(CE, *Conds[Cur]);
      CondFresh[Cur] = true;
    }
  if (const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(B.getTerminatorStmt()))
    processAsm(Asm);
}

} // namespace detail

FunctionSummary analyzeFunctionBody(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params,
                                    const ThreadValue &This, const DivergenceContext &Entry, bool Report) {
  if (!FD.hasBody())
    return FunctionSummary{opaque(Params), {}};
  return detail::Dataflow(FD, D, Params, This, Entry, Report).run();
}

} // namespace clang::tidy::occlint
