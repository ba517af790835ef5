// A counted loop whose start depends on the thread (`for (r = warp; r < rows;
// r += warps)`, a row per warp; `for (c = threadIdx.x; c < n; c += 64)`)
// runs a different number of times in different threads unless the bound
// suits the stride. With the block's extent known (every launch agrees, or
// the kernel states it), the start, the stride and the bound exact, the trip
// count of every thread of the block can be computed: a barrier in such a
// loop is missed by the threads that finish early (an error naming the
// launch), or reached the same number of times by all (no finding).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <optional>

namespace clang::tidy::occlint {

class UnwrittenLocals;

struct LoopTrips {
  bool differ = false; // some threads of the block run the loop more often than others
};

/// A for-loop counter's start: E in `int v = E` or `v = E` of the
/// init-statement `Init`; null when the init does not start V.
const Expr *loopCounterStart(const Stmt *Init, const VarDecl *V);

/// `Loop` a for-loop whose condition is `v < Bound` or `v <= Bound` (or the
/// mirror), `v` a local the init-statement initialises or assigns and the
/// increment only adds a positive stride to (`v += S`, `v = v + S`, `++v`),
/// written nowhere else; the start a function of threadIdx.x only, computed
/// for each thread of a block of `BlockX` threads (threadIdx.y and .z read
/// nowhere in it). nullopt when the loop is not of this form or a value is not
/// known.
std::optional<LoopTrips> stridedLoopTrips(const ForStmt &Loop, int64_t Bound, int64_t BlockX, const ASTContext &Ctx,
                                          const UnwrittenLocals &Locals);

} // namespace clang::tidy::occlint
