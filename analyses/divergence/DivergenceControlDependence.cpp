// Divergent control in the divergence dataflow: from the post-dominator tree,
// the blocks that only some threads reach under a thread-dependent branch
// (control dependence), how uniformly they are reached, and the context
// (branch, condition, early exit) that findings and callees are given.
#include "ast/CudaBuiltinVariables.h"
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace clang::tidy::occlint::detail {

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(S->getSourceRange()).getAsRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : Text) // one line, single spaces
    if (!(C == '\n' || C == '\r' || C == '\t') && !(C == ' ' && !Out.empty() && Out.back() == ' '))
      Out += C;
    else if (!Out.empty() && Out.back() != ' ')
      Out += ' ';
  return Out.size() > 60 ? Out.substr(0, 57) + "..." : Out;
}

namespace {

const Stmt *stripCompound(const Stmt *S) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      break;
    S = CS->body_front();
  }
  return S;
}

} // namespace

/// The condition of a branch statement as written (the whole of `a && b`).
const Expr *branchCondition(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *C = dyn_cast<ConditionalOperator>(S))
    return C->getCond();
  return nullptr;
}

// ---- control dependence ------------------------------------------------------

const CFGBlock *Dataflow::ipdom(const CFGBlock *B) {
  auto *Node = PDT.getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

/// The blocks directly control dependent on each branch block X: those on the
/// post-dominator tree path from each successor up to (not including) X's
/// immediate post-dominator. Computed once per function; the CFG is fixed.
void Dataflow::computeControlDependence() {
  const unsigned N = Cfg->getNumBlockIDs();
  DependsDirectly.assign(N, {});
  for (const CFGBlock *X : *Cfg) {
    if (X->succ_size() < 2)
      continue;
    const CFGBlock *Stop = ipdom(X);
    std::vector<unsigned> &Children = DependsDirectly[X->getBlockID()];
    for (const CFGBlock *S : X->succs())
      for (const CFGBlock *Y = S; Y && Y != Stop; Y = ipdom(Y)) {
        if (std::find(Children.begin(), Children.end(), Y->getBlockID()) != Children.end())
          break; // the rest of the path is there already
        Children.push_back(Y->getBlockID());
      }
  }
}

/// The blocks that run only when X's branch goes to S, transitively (through
/// the branches inside), without recursion: appended to `Members`.
void Dataflow::region(const CFGBlock *X, const CFGBlock *S, std::vector<unsigned> &Members) {
  if (++Generation == 0) { // wrapped: clear the marks
    std::fill(Mark.begin(), Mark.end(), 0u);
    Generation = 1;
  }
  Mark.resize(Cfg->getNumBlockIDs(), 0u);
  std::vector<unsigned> Work;
  const CFGBlock *Stop = ipdom(X);
  for (const CFGBlock *Y = S; Y && Y != Stop; Y = ipdom(Y)) {
    if (Mark[Y->getBlockID()] == Generation)
      break;
    Mark[Y->getBlockID()] = Generation;
    Members.push_back(Y->getBlockID());
    Work.push_back(Y->getBlockID());
  }
  while (!Work.empty()) {
    const unsigned Y = Work.back();
    Work.pop_back();
    for (unsigned Z : DependsDirectly[Y])
      if (Mark[Z] != Generation) {
        Mark[Z] = Generation;
        Members.push_back(Z);
        Work.push_back(Z);
      }
  }
}

/// For each block, the thread-dependent branch it is (transitively) control
/// dependent on that splits the threads finest: the smallest group; among
/// equals, a primary cause before a branch that only inherited its split,
/// then the first in the CFG's order. A min-propagation over the control
/// dependence graph, linear in its size (a per-branch region walk costs the
/// square of a chain of thousands of `&&` terms).
std::vector<Taint> Dataflow::computeTaints(bool IgnoreExits) {
  const unsigned N = Cfg->getNumBlockIDs();
  using Key = std::tuple<unsigned, int, unsigned>; // (group, not primary, order)
  const Key None{64, 1, ~0u};
  std::vector<Key> Own(N, None), Best(N, None);
  std::vector<int> From(N, -1);
  std::vector<bool> ExitOnly;
  if (IgnoreExits)
    ExitOnly = exitOnlyBlocks();
  unsigned Order = 0;
  for (const CFGBlock *X : *Cfg) {
    const unsigned Id = X->getBlockID();
    ++Order;
    if (X->succ_size() < 2 || !Conds[Id])
      continue;
    if (IgnoreExits && earlyExit(*X, ExitOnly))
      continue;
    const unsigned G = Conds[Id]->uniformGroup();
    if (G < 64)
      Own[Id] = Key{G, Primary[Id] ? 0 : 1, Order};
  }
  // Best[Y] = min over the branches X that Y depends on of min(Own[X], Best[X]).
  std::vector<unsigned> Work;
  for (unsigned X = 0; X < N; ++X)
    if (Own[X] != None)
      Work.push_back(X);
  std::vector<int> BestFrom(N, -1);
  while (!Work.empty()) {
    const unsigned X = Work.back();
    Work.pop_back();
    Key Offer = Own[X];
    int OfferFrom = int(X);
    if (Best[X] < Offer) {
      Offer = Best[X];
      OfferFrom = BestFrom[X];
    }
    if (Offer == None)
      continue;
    for (unsigned Y : DependsDirectly[X])
      if (Offer < Best[Y]) {
        Best[Y] = Offer;
        BestFrom[Y] = OfferFrom;
        Work.push_back(Y);
      }
  }
  std::vector<Taint> New(N);
  for (unsigned I = 0; I < N; ++I)
    if (Best[I] != None)
      New[I] = Taint{std::get<0>(Best[I]), BestFrom[I]};
  return New;
}

const CFGBlock *Dataflow::blockById(int Id) {
  for (const CFGBlock *B : *Cfg)
    if (int(B->getBlockID()) == Id)
      return B;
  return nullptr;
}

/// The statement a branch block belongs to (the if, the loop, ...).
const Stmt *Dataflow::branchStmt(const CFGBlock *X) {
  const Stmt *T = X->getTerminatorStmt();
  return T;
}

/// The blocks from which every path leads to the kernel's end with no
/// collective and no call that could hold one on the way: the threads there
/// are leaving (a greatest fixpoint, so a loop with no collective leaves
/// too). Only in a kernel: a device function's `return` goes back to its
/// caller.
std::vector<bool> Dataflow::exitOnlyBlocks() {
  const unsigned N = Cfg->getNumBlockIDs();
  std::vector<bool> Leaves(N, false);
  if (!FD.hasAttr<CUDAGlobalAttr>())
    return Leaves;
  // The CFG lists every sub-expression as an element of its own, so each
  // element is looked at by itself (walking each one's children too would
  // cost a deep expression's depth times its size).
  auto HoldsCollective = [&](const CFGBlock &B) {
    for (const CFGElement &El : B) {
      auto S = El.getAs<CFGStmt>();
      if (!S)
        continue;
      if (isa<GCCAsmStmt>(S->getStmt()))
        return true;
      if (const auto *CE = dyn_cast<CallExpr>(S->getStmt()))
        if (classifyCall(*CE).Role != CallRole::None || analysableDefinition(CE->getDirectCallee(), Ctx))
          return true;
    }
    return false;
  };
  for (const CFGBlock *B : *Cfg)
    Leaves[B->getBlockID()] = !HoldsCollective(*B);
  // Remove blocks with a successor that does not leave, until none changes.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (const CFGBlock *B : *Cfg) {
      const unsigned Id = B->getBlockID();
      if (!Leaves[Id] || B == &Cfg->getExit())
        continue;
      bool AllLeave = B->succ_size() > 0;
      for (const CFGBlock::AdjacentBlock &S : B->succs())
        if (S && !Leaves[S->getBlockID()])
          AllLeave = false;
      if (!AllLeave) {
        Leaves[Id] = false;
        Changed = true;
      }
    }
  }
  return Leaves;
}

/// A branch one side of which leaves the kernel early: an early `return`,
/// a `break`, or the exit of a loop, from where only the kernel's end
/// follows. (A thread-dependent `if` around a barrier at the kernel's end is
/// not one: the threads that skip it were never told to leave; the check
/// follows the guide there.)
bool Dataflow::earlyExit(const CFGBlock &X, const std::vector<bool> &ExitOnly) {
  const bool Loop = isa_and_nonnull<ForStmt, WhileStmt, DoStmt>(X.getTerminatorStmt());
  unsigned Index = 0;
  for (const CFGBlock::AdjacentBlock &S : X.succs()) {
    const unsigned I = Index++;
    if (!S || !ExitOnly[S->getBlockID()])
      continue;
    if (Loop && I == 1)
      return true; // the loop's exit
    if (isa_and_nonnull<BreakStmt>(S->getTerminatorStmt()))
      return true;
    for (const CFGElement &El : *S)
      if (auto St = El.getAs<CFGStmt>(); St && isa<ReturnStmt>(St->getStmt()))
        return true;
  }
  return false;
}

DivergenceContext Dataflow::contextAt(unsigned Block) {
  DivergenceContext C = contextFrom(Taints[Block], Entry);
  C.ExitedIgnored = Entry.ExitedIgnored;
  const Taint &Live = LiveTaints.empty() ? Taints[Block] : LiveTaints[Block];
  DivergenceContext L = contextFrom(Live, Entry.ignoringExited());
  L.ExitedIgnored = nullptr;
  if (L.Group != C.Group || L.Branch != C.Branch)
    C.ExitedIgnored = std::make_shared<const DivergenceContext>(std::move(L));
  else if (C.ExitedIgnored && C.Group < Entry.Group)
    C.ExitedIgnored = nullptr; // this function's own branch decides, exits or not
  return C;
}

std::optional<unsigned> Dataflow::threadIndexDimension(const Expr *E, bool ThroughVariable) {
  if (const std::optional<BuiltinComponent> B = builtinMember(E))
    return B->variable == "threadIdx" ? builtinDimension(B->component) : std::nullopt;
  // `int tid = threadIdx.x;`, never written again. (Not "its abstract value
  // is threadIdx's": with a known block shape, `c = threadIdx.x; c += 256`
  // has the same abstract value, and a block-stride loop's bound is no bound
  // on the thread index.)
  if (const VarDecl *VD = ThroughVariable ? localVar(E) : nullptr; VD && VD->getInit()) {
    if (!Unwritten)
      Unwritten.emplace(FD);
    if (Unwritten->contains(VD))
      return threadIndexDimension(VD->getInit(), false);
  }
  return std::nullopt;
}

std::optional<Dataflow::BlockShapeDecision> Dataflow::decidedByBlockShape(const BinaryOperator *BO,
                                                                          const ThreadValue &L, const ThreadValue &R) {
  // threadIdx.d against a constant, with the block's extent along d known
  // from every launch (or stated by the kernel): the split is decided (`threadIdx.x < 64` with blocks
  // of 256 threads splits every block).
  BinaryOperatorKind Op = BO->getOpcode();
  std::optional<unsigned> Dim = threadIndexDimension(BO->getLHS(), true);
  std::optional<int64_t> Bound = R.exact();
  if (!Dim) {
    Dim = threadIndexDimension(BO->getRHS(), true);
    Bound = L.exact();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Dim) {
    if (std::optional<BlockShapeDecision> ByGrid = decidedByGrid(BO->getOpcode(), BO->getLHS(), R.exact()))
      return ByGrid;
    if (std::optional<BlockShapeDecision> ByGrid =
            decidedByGrid(BinaryOperator::reverseComparisonOp(BO->getOpcode()), BO->getRHS(), L.exact()))
      return ByGrid;
    return decidedByTrips(BO, L, R);
  }
  if (!Bound || *Bound > (int64_t(1) << 40) || *Bound < -(int64_t(1) << 40))
    return std::nullopt; // (far beyond any block: and Bound + 1 below must not overflow)
  const std::optional<int64_t> &Extent = *Dim == 0 ? D.Shape.X : *Dim == 1 ? D.Shape.Y : D.Shape.Z;
  if (!Extent || *Extent <= 0)
    return std::nullopt;
  // The thread indices 0 .. Extent-1 on the true side.
  int64_t Lo = 0, Hi = *Extent; // [Lo, Hi)
  switch (Op) {
  case BO_LT:
    Hi = std::min(Hi, *Bound);
    break;
  case BO_LE:
    Hi = std::min(Hi, *Bound + 1);
    break;
  case BO_GT:
    Lo = std::max(Lo, *Bound + 1);
    break;
  case BO_GE:
    Lo = std::max(Lo, *Bound);
    break;
  default:
    return std::nullopt;
  }
  const int64_t True = std::max<int64_t>(0, Hi - Lo);
  return BlockShapeDecision{*Dim, True > 0 && True < *Extent};
}

std::optional<Dataflow::BlockShapeDecision> Dataflow::decidedByGrid(BinaryOperatorKind Op, const Expr *Index,
                                                                    std::optional<int64_t> Bound) {
  if (!Bound || *Bound > (int64_t(1) << 40) || *Bound < -(int64_t(1) << 40))
    return std::nullopt;
  if (!Unwritten)
    Unwritten.emplace(FD);
  const std::optional<GlobalIndex> G = globalIndexOf(Index, Ctx, &*Unwritten);
  if (!G)
    return std::nullopt;
  const std::optional<int64_t> &Block = G->dim == 0 ? D.Shape.X : G->dim == 1 ? D.Shape.Y : D.Shape.Z;
  const std::optional<int64_t> &Grid = G->dim == 0 ? D.Shape.GridX : G->dim == 1 ? D.Shape.GridY : D.Shape.GridZ;
  if (!Block || !Grid || *Block <= 0 || *Grid <= 0 || (G->blockFactor && *G->blockFactor != *Block))
    return std::nullopt;
  return BlockShapeDecision{G->dim, globalBoundSplitsABlock(Op, *Bound, *Block, *Grid),
                            BlockShapeDecision::Kind::GlobalIndex};
}

std::optional<Dataflow::BlockShapeDecision> Dataflow::decidedByTrips(const BinaryOperator *BO, const ThreadValue &L,
                                                                     const ThreadValue &R) {
  const CFGBlock *X = blockById(Cur);
  const auto *Loop = X ? dyn_cast_or_null<ForStmt>(X->getTerminatorStmt()) : nullptr;
  if (!Loop || !Loop->getCond() || Loop->getCond()->IgnoreParenImpCasts() != BO || !D.Shape.X)
    return std::nullopt;
  // The bound is the side that is not the loop's variable.
  const std::optional<int64_t> Bound = localVar(BO->getLHS()) ? R.exact() : L.exact();
  if (!Bound)
    return std::nullopt;
  if (!Unwritten)
    Unwritten.emplace(FD);
  auto Cached = TripsDecided.find(Loop);
  if (Cached == TripsDecided.end() || Cached->second.first != *Bound)
    Cached =
        TripsDecided
            .insert_or_assign(Loop, std::pair{*Bound, stridedLoopTrips(*Loop, *Bound, *D.Shape.X, Ctx, *Unwritten)})
            .first;
  const std::optional<LoopTrips> &Trips = Cached->second.second;
  if (!Trips)
    return std::nullopt;
  return BlockShapeDecision{0, Trips->differ, BlockShapeDecision::Kind::TripCounts};
}

bool Dataflow::boundaryCondition(const Expr *Cond, const ThreadValue &V) {
  const ThreadValue Truth = toBool(V);
  if (Truth.trueLanes()) // the lanes' outcomes are known (a known block shape): a certain split
    return false;
  const Expr *E = Cond->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E); Not && Not->getOpcode() == UO_LNot)
    E = Not->getSubExpr()->IgnoreParenImpCasts();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  const ThreadValue *A = BO ? Cache.find(BO->getLHS()->IgnoreParens()) : nullptr;
  const ThreadValue *B = BO ? Cache.find(BO->getRHS()->IgnoreParens()) : nullptr;
  const bool Operands = BO && BO->isRelationalOp() && A && B;
  if (const std::optional<BlockShapeDecision> Decided = Operands ? decidedByBlockShape(BO, *A, *B) : std::nullopt) {
    if (Decided->Splits)
      DecidedConds[Cur] = Decided;
    else // the bound falls outside every such block: one outcome for all of its threads
      Conds[Cur] = ThreadValue::uniform();
    return false;
  }
  if (Truth.Split == SplitKind::Boundary)
    return true;
  if (!Operands)
    return false;
  // When the split falls between warps (`threadIdx.x < 64`, a row per warp
  // against `B * T`) the domain's boolean says only "differs between warps":
  // read the operands (evaluated just now, in the cache).
  auto MonotoneAgainstUniform = [](const ThreadValue &Index, const ThreadValue &Bound) {
    return Index.Mono != MonoCoord::None && Bound.blockUniform();
  };
  return MonotoneAgainstUniform(*A, *B) || MonotoneAgainstUniform(*B, *A);
}

// "n = 64, m = 2": the kernel's parameters that Cond reads and whose values
// every launch fixes (DivergenceDriver::Arguments).
static std::string launchedArgumentsIn(const Expr *Cond, const DivergenceDriver &D) {
  if (!Cond || !D.KernelDecl)
    return "";
  std::vector<const ParmVarDecl *> Seen;
  std::string Out;
  std::vector<const Stmt *> Work{Cond};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
          P && P->getDeclContext() == D.KernelDecl && P->getFunctionScopeIndex() < D.Arguments.size() &&
          D.Arguments[P->getFunctionScopeIndex()] && std::find(Seen.begin(), Seen.end(), P) == Seen.end()) {
        Seen.push_back(P);
        Out += (Out.empty() ? "" : ", ") + P->getNameAsString() + " = " +
               std::to_string(*D.Arguments[P->getFunctionScopeIndex()]);
      }
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  return Out;
}

DivergenceContext Dataflow::contextFrom(const Taint &T, const DivergenceContext &Outer) {
  if (T.Group >= Outer.Group || T.From < 0)
    return Outer;
  DivergenceContext C;
  C.Group = T.Group;
  const CFGBlock *X = blockById(T.From);
  const Stmt *S = X ? branchStmt(X) : nullptr;
  C.Branch = S;
  C.BranchLoc = S ? S->getBeginLoc() : SourceLocation();
  C.Cond = Conds[T.From] ? *Conds[T.From] : ThreadValue::top();
  C.Boundary = BoundaryConds[T.From];
  C.WarpLanes = D.Shape.warpLanes();
  C.WorkShare = Outer.WorkShare;
  if (const std::optional<BlockShapeDecision> &Decided = DecidedConds[T.From]) {
    // The kernel's own assertion of its shape (a bound on a global index
    // needs the launches' grid as well: decided by the launch).
    C.DecidedTrips = Decided->By == BlockShapeDecision::Kind::TripCounts;
    if (Decided->By != BlockShapeDecision::Kind::GlobalIndex && D.Shape.Stated[Decided->Dim])
      C.DecidedByAssertion = D.Shape.StatedAt;
    else
      C.DecidedByLaunch = D.Shape.FirstLaunch;
  }
  if (C.DecidedByLaunch.isValid() && S)
    C.DecidedByArguments = launchedArgumentsIn(branchCondition(S), D);
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    C.CondText = sourceText(BO->getLHS(), Ctx); // `a && b`: the block branches on a
  } else if (const Expr *Cond = S ? branchCondition(S) : nullptr) {
    C.CondText = sourceText(Cond, Ctx);
  }
  if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
    const Stmt *Then = stripCompound(If->getThen());
    C.Exit = isa<ReturnStmt>(Then)     ? "return"
             : isa<BreakStmt>(Then)    ? "break"
             : isa<ContinueStmt>(Then) ? "continue"
                                       : "";
  }
  return C;
}

} // namespace clang::tidy::occlint::detail
