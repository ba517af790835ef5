// The integer locals of a kernel as a symbolic run of its body assigns them
// (pipelines/AsyncPipelineHazards.h): `k`, `cur = k % S`, `next = 1 - cur`,
// `stage = (stage + 1) % S`. A value is known when every local it reads is;
// a local assigned a value that is not known (a thread index, a parameter)
// is forgotten, and remembered as thread-valued when it came from threadIdx.
// Constants that need no local (constexpr, template arguments, sizeof) come
// from Clang's constant evaluator (no dataflow: linear in the body).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <array>
#include <map>
#include <optional>
#include <set>

namespace clang::tidy::occlint {

/// A value as a uniform part plus, possibly, a part that differs between the
/// threads (threadIdx and the locals computed from it, added or scaled):
/// `stage * 384 + warp_id * 64 + lane_id / 4` is {uniform: stage * 384,
/// threadPart: true}.
/// The values an expression takes over the threads of a block: [lo, hi].
struct ValueRange {
  int64_t lo = 0, hi = 0;
};

/// A + B (Sign 1) or A - B (Sign -1), and A x K, over intervals; nullopt when
/// either side is unknown or a bound overflows.
std::optional<ValueRange> rangeSum(std::optional<ValueRange> A, std::optional<ValueRange> B, int64_t Sign = 1);
std::optional<ValueRange> rangeScaled(std::optional<ValueRange> A, int64_t K);

struct LinearValue {
  int64_t uniform = 0;
  bool threadPart = false;
  /// The thread part's values over the block's threads, when the run knows
  /// the block (KernelLocals::setBlock) and the part is read by KernelLocals::range.
  std::optional<ValueRange> threadRange = ValueRange{};
};

class KernelLocals {
public:
  explicit KernelLocals(ASTContext &Ctx) : Ctx(Ctx) {}

  /// E's value with the locals as they stand; nullopt when not known.
  std::optional<int64_t> eval(const Expr *E);
  /// E as a uniform part plus a thread part, when it is a sum of known
  /// values and of terms that depend on the thread only; nullopt otherwise.
  std::optional<LinearValue> linear(const Expr *E);
  /// The threads' block, for range(): threadIdx.x is in [0, x - 1], ...
  void setBlock(int64_t X, int64_t Y, int64_t Z) { Block = {X, Y, Z}; }
  /// The values E takes over the block's threads (interval arithmetic: +, -,
  /// *, and /, %, &, shifts by constants; a value the run knows, threadIdx,
  /// a local with a thread part); nullopt when unbounded or not known, and
  /// always without a block.
  std::optional<ValueRange> range(const Expr *E);
  /// Whether S reads threadIdx, directly or through a thread-valued local.
  bool dependsOnThread(const Stmt *S);
  /// VD now holds V (nullopt: not known), assigned from From.
  void assign(const VarDecl *VD, std::optional<int64_t> V, const Expr *From);
  /// Runs the assignments to integer locals in S (=, op=, ++, --).
  void assignments(const Stmt *S);
  /// Forgets every local S assigns or declares (a loop read once).
  void forgetAssignedIn(const Stmt *S);
  /// The local variable E names, if any.
  static const VarDecl *localOf(const Expr *E);
  /// The locals as Saved held them (a run that goes back to a branch point:
  /// the other side of a role split).
  void restore(const KernelLocals &Saved) {
    Env = Saved.Env;
    Assigned = Saved.Assigned;
    ThreadValued = Saved.ThreadValued;
    Linear = Saved.Linear;
  }

private:
  std::optional<int64_t> constant(const Expr *E);
  bool mentionsAssignedLocal(const Stmt *S);
  /// S depends on the thread and on nothing else that is not known.
  bool onlyThread(const Stmt *S);

  ASTContext &Ctx;
  std::optional<std::array<int64_t, 3>> Block;
  std::map<const VarDecl *, int64_t> Env;
  std::set<const VarDecl *> Assigned, ThreadValued;
  std::map<const VarDecl *, LinearValue> Linear;            // locals with a thread part
  std::map<const Expr *, std::optional<int64_t>> Constants; // Clang's constant evaluator, asked once per expression
};

} // namespace clang::tidy::occlint
