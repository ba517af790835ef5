// Whether a kernel distributes its work with a grid-stride loop
// (`for (i = ...; i < n; i += gridDim.x * blockDim.x)`): then every block has
// the same share of the work whatever the grid, the grid size is a tuning
// choice (often a multiple of the SM count), and a partial last wave is not a
// finding (cuda-launch-tail-wave, docs/launch-analysis.md).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace clang::tidy::occlint {

/// A loop in `Body` (the for's increment, or a statement in a while or do
/// loop's body) that adds the grid-stride step `gridDim.x * blockDim.x`
/// (either order), directly or through a variable initialised with it.
bool hasGridStrideLoop(const Stmt *Body, ASTContext &Ctx);

} // namespace clang::tidy::occlint
