// A kernel's own statement of its block shape: `assert(blockDim.x == 32)`
// (or `assert(blockDim.x == WARP && blockDim.y == 4)`) at the top level of
// its body. Every launch that gets past it has that shape, so the
// divergence analysis takes it as the shape, before the launches' (a launch
// with another shape stops at the assertion). It is read from the macro's
// argument (facts/StatedAssertions.h), so it holds where NDEBUG compiles the
// assertion out too: there it is an assumption the kernel states, and the
// findings it decides name it in a note.
#pragma once

#include "divergence/DivergenceAnalysis.h"

namespace clang::tidy::occlint {

/// Sets the dimensions of Shape that Kernel's top-level assertions state.
void readStatedBlockShape(const FunctionDecl &Kernel, ASTContext &Ctx, BlockShape &Shape);

} // namespace clang::tidy::occlint
