// The divergence analysis of a translation unit: every kernel (template
// instantiations as instantiated) and the device functions it calls, with
// the block shape its launches give. Computed once per translation unit and
// shared by the three cuda-divergence-* checks.
//
//   ThreadVariance.h       the abstract domain (per-lane tables, alignment)
//   DivergenceCalls.h      barriers, warp intrinsics, cooperative groups
//   DivergenceDataflow.h   one function: CFG fixpoint, control dependence
//   DivergenceAnalysis.cpp kernels, block shapes, summaries across calls
#pragma once

#include "divergence/ThreadVariance.h"
#include "facts/TranslationUnitFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// Why some code runs with only part of the threads: the branch responsible.
struct DivergenceContext {
  unsigned Group = 64;          // uniform across the block (64), a warp (32), N-lane groups, 1: nothing
  const Stmt *Branch = nullptr; // the statement of the responsible branch
  SourceLocation BranchLoc;
  ThreadValue Cond;
  std::string CondText; // "tid % 2 == 0"
  std::string Exit;     // "return", "break", "continue" when the branch leaves early
  /// The branch splits the threads at a uniform bound (a monotone thread,
  /// lane or warp index against a uniform value: `i < n`, `row < B * T` with
  /// a row per warp): only the block or warp the bound cuts through splits,
  /// and only for sizes that are not a multiple of it. A collective under it
  /// is missed conditionally: a warning, not an error.
  bool Boundary = false;
  /// The launch whose block shape decides the split (a bound on threadIdx
  /// that every launched block straddles): the error's note names it.
  SourceLocation DecidedByLaunch;
  /// The kernel parameters in the condition whose values the launches fix
  /// ("n = 64"), for that note; empty when none.
  std::string DecidedByArguments;
  /// Or the kernel's assertion of its block shape that decides it.
  SourceLocation DecidedByAssertion;
  /// What the launch or the assertion decides: a loop that the block's
  /// threads run a different number of times (a strided loop), instead of a
  /// bound that falls inside the block.
  bool DecidedTrips = false;
  /// For a context from one launch's own analysis (LaunchCollectives): that
  /// launch's block ("4x8x1"), which the note names; DecidedByLaunch is the
  /// launch.
  std::string LaunchedBlock;
  /// The threads a warp holds (DivergenceBranch::WarpLanes).
  unsigned WarpLanes = 32;
  /// The share of the kernel's estimated work that the function's runs from
  /// this call path make (1 for the kernel itself; for a callee, its
  /// operations times the times the caller calls it, over the caller's
  /// operations, times the caller's share): what a branch's loss in the
  /// callee is worth in the kernel (BranchLoss.h).
  double WorkShare = 1;
  std::vector<SourceLocation> Calls; // call sites between the branch's function and the code
  /// The same question when threads that have exited the kernel do not
  /// count (the PTX ISA releases a barrier held up only by exited threads;
  /// the guide asks warp intrinsics only of the non-exited lanes of their
  /// mask): null when it is this context.
  std::shared_ptr<const DivergenceContext> ExitedIgnored;
  const DivergenceContext &ignoringExited() const { return ExitedIgnored ? *ExitedIgnored : *this; }
};

/// A thread-dependent branch that splits warps.
struct DivergenceBranch {
  const Stmt *S = nullptr;
  SourceLocation Loc;
  std::string What; // "branch", "loop", "switch", "conditional operator"
  bool Loop = false;
  ThreadValue Cond;
  std::string CondText;
  /// Operations on the two sides per time the branch runs, the loops on
  /// them counted by their trip counts (LoopWeights.h).
  int64_t WorkTaken = 0, WorkOther = 0;
  /// Times the branch runs per call of its function (the loops around it).
  double Repeat = 1;
  /// Operations of one iteration of the innermost loop around the branch
  /// (or of the whole function at its top level), both sides included.
  double LevelWork = 0;
  std::string Kernel; // the kernel it was analysed for
  /// The threads a warp holds in the launched blocks: fewer than 32 when
  /// every launch's block is smaller than a warp (for the split's wording).
  unsigned WarpLanes = 32;
  /// For a loop: its own trip count (LoopWeights: read from the header, or
  /// LoopWeights::UnknownTripCount); 1 for the other statements.
  double Trips = 1;
  /// Operations of one call of the function the branch is in (its loops
  /// counted by their trip counts), and that function's share of the
  /// kernel's work (DivergenceContext::WorkShare).
  double FunctionWork = 0;
  double WorkShare = 1;
  /// Warps in the launched block, 0 when the launches do not agree on it.
  unsigned WarpsPerBlock = 0;
  /// The estimated share of the kernel's lane-slots this branch leaves idle
  /// (0..1, BranchLoss.h).
  double Loss = 0;
};

/// A barrier or warp collective and the control it is reached under.
struct DivergenceCollective {
  const CallExpr *Call = nullptr;
  const Stmt *AsmStmt = nullptr; // bar.sync in inline assembly
  SourceLocation Loc;
  std::string Name;
  bool Barrier = false; // false: a warp intrinsic with a full mask
  unsigned Needed = 64; // the group that must be uniform
  DivergenceContext Ctx;
  std::string Kernel;
  /// A shuffle: a source lane that has exited still gives an undefined
  /// value, so exited threads count.
  bool ExitedMatter = false;
};

struct BlockShape {
  std::optional<int64_t> X, Y, Z; // known when every launch agrees
  /// The grid's extents, known when every launch agrees (never stated by the
  /// kernel): with the block's, they decide a bound on a global index.
  std::optional<int64_t> GridX, GridY, GridZ;
  bool Launched = false;      // at least one launch seen
  SourceLocation FirstLaunch; // for notes: the shape is this launch's (and the others')
  /// Dimensions the kernel states itself (`assert(blockDim.x == 32)`,
  /// StatedBlockShape.h): they take precedence over the launches'.
  std::array<bool, 3> Stated{};
  SourceLocation StatedAt; // the first such assertion, for notes
  /// The block's threads when every extent is known (and the product fits:
  /// an invalid launch may state any extents), else nullopt.
  std::optional<int64_t> threads() const {
    int64_t XY = 0, XYZ = 0;
    if (X && Y && Z && *X > 0 && *Y > 0 && *Z > 0 && !__builtin_mul_overflow(*X, *Y, &XY) &&
        !__builtin_mul_overflow(XY, *Z, &XYZ) && XYZ <= (int64_t(1) << 31))
      return XYZ;
    return std::nullopt;
  }
  /// The threads a warp holds: the block's when it is known and smaller
  /// than a warp (a 4x4 block: 16), else 32.
  unsigned warpLanes() const {
    const std::optional<int64_t> T = threads();
    return T && *T < 32 ? unsigned(*T) : 32;
  }
};

/// Per kernel parameter, the integer that every launch of the kernel in the
/// translation unit passes (`k<<<g, 256>>>(p, 64)` at each launch: 64),
/// else nullopt; empty when the kernel is not launched here. Taken as the
/// parameter's value, as the launches' block shape is taken as the shape.
using LaunchedArguments = std::vector<std::optional<int64_t>>;

/// The collectives of one kernel analysed again with the block shape and
/// arguments of one of its launches, when its launches do not agree on
/// them: what that launch makes of each barrier and warp intrinsic
/// (severity earned by launches, docs/checks/cuda-divergence-barrier.md).
struct LaunchCollectives {
  std::string Kernel;
  SourceLocation Launch;
  std::vector<DivergenceCollective> Collectives;
  /// Every launch of the kernel in the translation unit has an exact block
  /// and is among the configurations analysed: only then does "no
  /// configuration misses it" rule the miss out.
  bool CoversEveryLaunch = true;
};

class DivergenceResults {
public:
  static const DivergenceResults &get(ASTContext &Ctx, const TranslationUnitFacts &Facts);
  /// The results already computed for this translation unit, or null when no
  /// divergence check asked for them (the facts records read them).
  static const DivergenceResults *computedFor(const ASTContext &Ctx);
  static void forgetAll();

  std::vector<DivergenceBranch> Branches;
  std::vector<DivergenceCollective> Collectives;
  /// Per kernel whose launches disagree on the block shape or the integer
  /// arguments, one entry per distinct (shape, arguments) of its launches
  /// (at most MaxLaunchConfigurations; none when there are more).
  std::vector<LaunchCollectives> ByLaunch;
  static constexpr unsigned MaxLaunchConfigurations = 8;
  /// Per kernel (by its display name): the lanes its launched warps hold on
  /// average and the estimated share of its lane-slots that thread-dependent
  /// branches leave idle, summed over its branches (BranchLoss.h); what
  /// `--format json` reports as predictedActiveThreadsPerWarp.
  struct KernelLanes {
    double LanesPerWarp = 32;
    double Loss = 0;
  };
  std::map<std::string, KernelLanes> LanesByKernel;
  double Seconds = 0; // time the analysis took
  // Every context is recorded (a helper called from several kernels, each
  // instantiation of a template); the checks report each place once.

  void addBranch(DivergenceBranch B);
  void addCollective(DivergenceCollective C);

private:
  std::set<std::string> Seen;
};

/// What a call gives back: the returned value and, for parameters passed by
/// non-const reference, their values when the function returns.
struct FunctionSummary {
  ThreadValue Ret;
  std::vector<std::optional<ThreadValue>> OutParams;
};

/// What a function analysis asks of the translation-unit level.
class DivergenceDriver {
public:
  DivergenceDriver(ASTContext &Ctx, DivergenceResults &Out) : Ctx(Ctx), Out(Out) {}

  void analyzeKernel(const FunctionDecl &Kernel, const std::string &Name, const BlockShape &Shape,
                     const LaunchedArguments &Arguments);

  /// The value a call to Callee returns with these arguments; with Report,
  /// also analyses its body for findings under the caller's context.
  FunctionSummary call(const FunctionDecl &Callee, const std::vector<ThreadValue> &Args, const ThreadValue &This,
                       const DivergenceContext &CallerCtx, bool Report);
  /// Operations in a function's body (for work estimates), capped.
  int64_t cost(const FunctionDecl &F);

  ThreadValue threadIdx(unsigned Dim) const;
  ThreadValue blockDim(unsigned Dim) const;

  ASTContext &Ctx;
  DivergenceResults &Out;
  std::string Kernel;
  const FunctionDecl *KernelDecl = nullptr;
  BlockShape Shape;
  LaunchedArguments Arguments;

private:
  std::map<std::string, FunctionSummary> Returns; // summaries: callee + arguments -> results
  std::set<std::string> Reported;                 // callee + arguments + context already reported
  std::vector<const FunctionDecl *> Stack;
  std::map<const FunctionDecl *, int64_t> Costs;
};

/// A function with a body the analysis may enter (not in a system header).
const FunctionDecl *analysableDefinition(const FunctionDecl *FD, const ASTContext &Ctx);

} // namespace clang::tidy::occlint
