// How a kernel's work grows, read from its loops: whether it spreads its
// work over the grid (a loop that steps by the grid's size:
// `for (i = ...; i < n; i += gridDim.x * blockDim.x)`, `row += gridDim.x`,
// cooperative groups' `grid.size()`), and whether each thread loops over an
// extent the launch passes at run time (`for (j = 0; j < n; ++j)` with `n` a
// parameter). Either way, more blocks could take a share of the work; a
// kernel with neither does a fixed amount of work per thread, and a grid that
// covers its problem is as large as that problem (cuda-launch-tiny-grid,
// cuda-launch-tail-wave, docs/launch-analysis.md). And whether its blocks do
// equal work: a loop whose trip count depends on blockIdx makes some blocks
// longer than others, and waves of equal length do not describe the launch.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::occlint {

/// A loop of a kernel, and the integer parameter its condition reads
/// (directly, or through a local variable initialised from one), if any.
struct KernelLoop {
  const Stmt *loop = nullptr; // null: no such loop
  const Expr *condition = nullptr;
  const ParmVarDecl *extent = nullptr;
  explicit operator bool() const { return loop != nullptr; }
};

/// The first loop of `Body` (the for's increment, or an assignment in a
/// while or do loop's body) whose step reads the grid's size (`gridDim`, or
/// a cooperative-groups grid's size()/num_threads()/num_blocks()), directly
/// or through a variable initialised with it.
KernelLoop findGridStrideLoop(const Stmt *Body, ASTContext &Ctx);

/// The first loop of `Body` whose condition reads an integer parameter:
/// each thread's work grows with a value the launch passes.
KernelLoop findRuntimeExtentLoop(const Stmt *Body);

/// The first loop of `Body` (not a grid-stride one) whose trip count depends
/// on the block: its start or its bound reads `blockIdx` (directly, or
/// through local variables' initialisers, outer loop variables included),
/// the other does not (`for (t = row; t < T; ++t)` with `row` from blockIdx,
/// `for (j = 0; j <= t; ++j)` inside it: causal attention, triangular
/// solves). Its blocks do unequal work; a chunk of the block's own
/// (`for (i = b * c; i < (b + 1) * c; ++i)`: both read it) is equal work.
const Stmt *findBlockDependentTripLoop(const Stmt *Body, ASTContext &Ctx);

} // namespace clang::tidy::occlint
