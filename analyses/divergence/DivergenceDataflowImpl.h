// Internal to the divergence dataflow, not a public interface: the analysis
// of one function body as one class, Dataflow, whose jobs are defined in
//   DivergenceDataflow.cpp          the fixpoint driver over the CFG
//   DivergenceTransfer.cpp          transfer functions of statements and expressions
//   DivergenceControlDependence.cpp divergent control: which blocks only some
//                                   threads reach, and the branch to blame
//   DivergenceFindings.cpp          the findings: divergent branches, collectives
//                                   reached under divergent control
//   RemainderTails.cpp              lane indices against the remainder of a count
//   DivergenceEdgeFacts.cpp         alignments that conditions and assertions state
#pragma once

#include "ast/DeepExpressions.h"
#include "divergence/DivergenceAnalysis.h"
#include "divergence/DivergenceCalls.h"
#include "divergence/GlobalIndexBounds.h"
#include "divergence/LoopWeights.h"
#include "divergence/StatedAlignments.h"
#include "divergence/StridedLoopTrips.h"
#include "values/ReadOnlyUses.h"

#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint::detail {

// The thread values of the locals in scope. A node-based map: a state holds a
// handful of variables, and a DenseMap's 64-bucket minimum of 300-byte values
// made each of the thousands of per-block copies cost 19 KB.
using Env = std::map<const VarDecl *, ThreadValue>;

/// How uniformly the threads reach a CFG block, and the branch to blame.
struct Taint {
  unsigned Group = 64;
  int From = -1; // the CFG block whose branch is responsible
  bool operator==(const Taint &O) const { return Group == O.Group && From == O.From; }
};

/// A variable the threads may disagree on from a block on: assigned under a
/// thread-dependent branch whose paths join there (DivergenceSyncDependence.cpp).
struct JoinTaint {
  const VarDecl *Var = nullptr;
  unsigned Group = 64;   // the finest group the branches split
  bool KeepMono = false; // every such branch is a boundary guard: an index stays monotone
  bool FromData = false; // a branch decided by data: the joined value is data too
  bool operator==(const JoinTaint &O) const {
    return Var == O.Var && Group == O.Group && KeepMono == O.KeepMono && FromData == O.FromData;
  }
};

/// A value that reaches a join from paths only threads of groups of `Group`
/// lanes agree on: with whole warps agreeing (Group >= 32) its lane pattern
/// survives but it may differ between warps; otherwise it may differ in
/// every lane.
ThreadValue taintAtJoin(const ThreadValue &V, unsigned Group);
/// The same where the paths were split by a boundary guard (a strided or
/// grid-stride loop's own exit, `c < C`): the lanes left at different
/// iterations, so the value differs in every lane, but a monotone index
/// stays monotone, and a strided index (c = lane + 32 k) keeps its residue:
/// each lane holds the first value of its residue class past the bound, one
/// window of the period, which a uniform bound again splits at one point
/// (the tail of the range, as stridedAgainstBound says inside the loop).
ThreadValue taintAtBoundaryJoin(const ThreadValue &V, unsigned Group);

/// A branch's condition makes a variable a multiple of 2^Log2 on one edge
/// (DivergenceEdgeFacts.cpp).
struct EdgeFact {
  const VarDecl *Var = nullptr;
  unsigned Log2 = 0;
  unsigned AlignedSucc = 0; // the successor index (0: true, 1: false) where it holds
};

// Describing the branch to blame (DivergenceControlDependence.cpp).
std::string sourceText(const Stmt *S, const ASTContext &Ctx);
const Expr *branchCondition(const Stmt *S);

/// The values of the expressions evaluated in the block being processed (or
/// in the condition being read), forgotten between them. Forgetting moves to
/// a new generation instead of emptying the table: DenseMap::clear shrinks a
/// large, mostly empty table, and a function's largest block then regrew it
/// from nothing on every visit (half the time of a 4,000-statement loop body
/// in the stress set). The table holds at most one entry per expression of
/// the function.
class ExprValueCache {
public:
  /// S's value in this generation, or null (valid until the next set()).
  const ThreadValue *find(const Stmt *S) const {
    auto It = Values.find(S);
    return It != Values.end() && It->second.first == Generation ? &It->second.second : nullptr;
  }
  const ThreadValue &set(const Stmt *S, const ThreadValue &V) {
    std::pair<unsigned, ThreadValue> &Slot = Values[S];
    Slot = {Generation, V};
    return Slot.second;
  }
  void clear() { ++Generation; }
  /// Room for N expressions at once (a function's count), so that the
  /// table of large entries is not moved as it fills.
  void reserve(size_t N) { Values.reserve(N); }

private:
  llvm::DenseMap<const Stmt *, std::pair<unsigned, ThreadValue>> Values;
  unsigned Generation = 0;
};

class Dataflow {
public:
  Dataflow(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params, const ThreadValue &This,
           const DivergenceContext &Entry, bool Report);

  FunctionSummary run();

private:
  const FunctionDecl &FD;
  DivergenceDriver &D;
  ASTContext &Ctx;
  ThreadValue This;
  DivergenceContext Entry;
  bool Report;
  bool Reporting = false;

  std::unique_ptr<CFG> Cfg;
  CFGPostDomTree PDT;
  std::unique_ptr<PostOrderCFGView> Order; // the worklist's order
  Env EntryEnv;
  std::vector<std::optional<Env>> In, Out;
  std::vector<std::optional<ThreadValue>> Conds;
  std::vector<char> BoundaryConds; // per block: its condition splits at a uniform bound (DivergenceContext::Boundary)
  /// `threadIdx.d OP constant` that the launches' (or the kernel's stated)
  /// block shape decides: it splits every such block, or it has the same
  /// outcome in all of their threads (`threadIdx.x < 256` in blocks of 256).
  struct BlockShapeDecision {
    enum class Kind : uint8_t {
      ThreadIndex, // a bound on threadIdx.d: the block's extent along Dim
      GlobalIndex, // a bound on a global index: the launches' grid decided it too
      TripCounts   // a strided loop's condition: the threads' trip counts (StridedLoopTrips.h)
    };
    unsigned Dim;
    bool Splits;
    Kind By = Kind::ThreadIndex;
  };
  // Per block: the decision that its condition splits the launched (or
  // stated) blocks, when one was made.
  std::vector<std::optional<BlockShapeDecision>> DecidedConds;
  bool boundaryCondition(const Expr *Cond, const ThreadValue &V);
  /// E is threadIdx.x/y/z (or, with ThroughVariable, a local still holding it).
  std::optional<unsigned> threadIndexDimension(const Expr *E, bool ThroughVariable);
  /// A for-loop condition whose trip count the block's extent decides for
  /// every thread (`for (r = warp; r < rows; r += warps)`).
  std::optional<BlockShapeDecision> decidedByTrips(const BinaryOperator *BO, const ThreadValue &L,
                                                   const ThreadValue &R);
  // Per loop, the bound it was decided for and the answer: a condition is
  // met again in each round of the fixpoint, and the trip counts cost a walk
  // of the loop's body and one evaluation of its start per thread.
  llvm::DenseMap<const ForStmt *, std::pair<int64_t, std::optional<LoopTrips>>> TripsDecided;
  /// The same for a global index (`i < n`, i = blockIdx.x * blockDim.x +
  /// threadIdx.x) against a bound, with the launches' grid and block known
  /// along its dimension (GlobalIndexBounds.h).
  std::optional<BlockShapeDecision> decidedByGrid(BinaryOperatorKind Op, const Expr *Index,
                                                  std::optional<int64_t> Bound);
  // The function's locals that nothing writes after their initialisation:
  // computed when a condition first needs them.
  std::optional<UnwrittenLocals> Unwritten;
  std::optional<BlockShapeDecision> decidedByBlockShape(const BinaryOperator *BO, const ThreadValue &L,
                                                        const ThreadValue &R);
  // The block whose branch tests each condition, and whether this flow has
  // computed it yet: `a && b && ...` tests each prefix of the chain in its
  // own block, and the next block reuses that value instead of evaluating
  // the prefix again (which would cost the square of the chain's length).
  llvm::DenseMap<const Expr *, unsigned> CondBlock;
  std::vector<bool> CondFresh;
  std::vector<Taint> Taints;
  // The same, not counting branches one side of which only leads the threads
  // out of the kernel (computed once the values settle; kernels only).
  std::vector<Taint> LiveTaints;
  std::vector<bool> Primary;
  // Control dependence: the blocks directly dependent on each branch block,
  // and the marks of region()'s walks (a generation per walk).
  std::vector<std::vector<unsigned>> DependsDirectly;
  std::vector<unsigned> Mark;
  unsigned Generation = 0;
  // Sync dependence: the variables each block assigns (in the last flow),
  // and per block the variables to taint on entry, where the paths of a
  // thread-dependent branch that assigned them join.
  std::vector<llvm::DenseSet<const VarDecl *>> AssignedIn;
  std::vector<std::vector<JoinTaint>> JoinTaints;
  ThreadValue Ret;
  bool HasReturn = false;
  /// The block being processed stops the kernel (`__trap()`, `trap;` in
  /// inline assembly): nothing flows on from it.
  bool Traps = false;

  // The block being processed.
  Env *E = nullptr;
  unsigned Cur = 0;
  ExprValueCache Cache;
  RecursionDepth Depth; // of eval

  // ---- the fixpoint (DivergenceDataflow.cpp) ----------------------------------
  ThreadValue opaqueParams();
  static bool mergeInto(std::optional<Env> &Dst, const Env &Src);
  void flow();
  void process(const CFGBlock &B, Env &Local);
  std::vector<std::optional<EdgeFact>> EdgeFacts; // per block, computed once
  std::optional<EdgeFact> edgeFactOf(const CFGBlock &B);
  /// The state on the edge where F holds (its AlignedSucc).
  void applyEdgeFact(const EdgeFact &F, Env &Edge);
  /// After a statement of an `assert(C % 256 == 0)` expansion: C's alignment,
  /// also where NDEBUG compiles the assertion out (StatedAlignments.h).
  void applyStatedAlignments(const Stmt *S, Env &Local);
  std::map<SourceLocation::UIntTy, std::vector<StatedAlignment>> StatedAlignmentsAt; // by expansion location

  // ---- transfer functions (DivergenceTransfer.cpp) ----------------------------
  void processStmt(const Stmt *S);
  const VarDecl *localVar(const Expr *Ex) const;
  void setVar(const VarDecl *VD, ThreadValue V);
  ThreadValue varValue(const VarDecl *VD);
  void assign(const Expr *LHS, const ThreadValue &V);
  ThreadValue eval(const Expr *Ex);
  ThreadValue builtinVar(StringRef Var, StringRef Field);
  ThreadValue load(const ThreadValue &Address);
  ThreadValue evalUncached(const Expr *Ex);
  ThreadValue evalDeclRef(const DeclRefExpr *DRE);
  ThreadValue evalUnary(const UnaryOperator *UO);
  static bool floating(const Expr *Ex);
  ThreadValue arith(BinaryOperatorKind Op, const ThreadValue &L, const ThreadValue &R, bool Float);
  ThreadValue evalBinary(const BinaryOperator *BO);
  ThreadValue remainderTail(const BinaryOperator *BO, ThreadValue C);
  static const Stmt *firstStatement(const CFGBlock &B);
  /// V, marked as coming from data when the operand does (and V varies).
  static ThreadValue withDataOf(ThreadValue V, const ThreadValue &Operand);
  /// V, marked AtBound when every varying operand is (and V varies).
  static ThreadValue withBoundOf(ThreadValue V, const std::vector<ThreadValue> &Operands);
  /// The value the compiler gives a condition, when it is a constant.
  /// Linear in the code: `&&`, `||` and `!` are folded from their operands'
  /// memoised answers (Clang's evaluator walks the whole operand each time,
  /// quadratic over an n-term chain), only the other leaves go to Clang.
  std::optional<bool> compileTimeCondition(const Expr *Cond);
  llvm::DenseMap<const Expr *, std::optional<bool>> CompileTimeConditions;
  ThreadValue argValue(const Expr *A);
  ThreadValue evalCall(const CallExpr *CE);
  void processAsm(const GCCAsmStmt *Asm);

  // ---- remainder tails (RemainderTails.cpp) -----------------------------------
  /// A relational BO compares a lane index with the remainder of a uniform
  /// count (`4 * (n / 4) + lane < n`): the leftovers of a chunked range.
  bool laneAgainstRemainder(const BinaryOperator *BO);
  bool unmodified(const VarDecl *VD);     // never assigned, incremented or passed by reference in FD
  const Expr *definition(const Expr *Ex); // through unmodified locals to their initializers
  bool sameValue(const Expr *A, const Expr *B);
  /// A `for` loop's condition that compares its counter with the counter's
  /// start plus a uniform count: the same trip count in every lane
  /// (ShiftedLoopTrips.cpp); the condition's value then, else nullopt.
  std::optional<ThreadValue> shiftedLoopTrips(const Expr *CondExpr);
  llvm::DenseMap<const ForStmt *, bool> CounterWrittenInBody;
  std::optional<std::pair<const Expr *, int64_t>> remainderOf(const Expr *T); // X % K: (X, K)
  std::optional<std::pair<const Expr *, int64_t>> roundedDown(const Expr *T); // K * (X / K): (X, K)
  llvm::DenseMap<const VarDecl *, bool> Unmodified;
  std::unique_ptr<ExprMutationAnalyzer> Mutations;
  std::unique_ptr<ReadOnlyUses> ReadOnly;

  // ---- control dependence (DivergenceControlDependence.cpp) -------------------
  const CFGBlock *ipdom(const CFGBlock *B);
  void computeControlDependence();
  void region(const CFGBlock *X, const CFGBlock *S, std::vector<unsigned> &Members);
  /// With IgnoreExits, a branch one of whose sides only leads to the
  /// kernel's end, with no collective on the way, splits nothing: the
  /// threads that take it exit.
  std::vector<Taint> computeTaints(bool IgnoreExits = false);
  std::vector<bool> exitOnlyBlocks();
  bool earlyExit(const CFGBlock &X, const std::vector<bool> &ExitOnly);
  DivergenceContext contextFrom(const Taint &T, const DivergenceContext &Outer);
  std::vector<std::vector<JoinTaint>> computeJoinTaints();
  const CFGBlock *blockById(int Id);
  const Stmt *branchStmt(const CFGBlock *X);
  DivergenceContext contextAt(unsigned Block);

  // ---- findings (DivergenceFindings.cpp) --------------------------------------
  void recordCollective(const CallExpr *CE, const CallInfo &Info);
  int64_t blockCost(const CFGBlock &B);
  int64_t stmtCost(const Stmt *S);
  /// Before the reporting pass: operations per block, how often each block
  /// runs per call (LoopWeights), the work of each loop's iterations and of
  /// the whole function; the branches' estimates and the callees' share of
  /// the kernel's work (DivergenceContext::WorkShare) read them.
  void estimateWork();
  /// The share of the kernel's work one call of Callee at Call makes.
  double calleeWorkShare(const CallExpr *Call, const FunctionDecl &Callee);
  void reportBranches();
  std::unique_ptr<LoopWeights> Weights;
  std::vector<int64_t> Costs;
  std::vector<double> BlockWeight;
  llvm::DenseMap<const Stmt *, double> LoopWork;
  double FunctionWork = 0;
};

} // namespace clang::tidy::occlint::detail
