// Which kernel an expression names, for the launch forms that take the kernel
// as an argument (cudaLaunchKernel, cudaFuncSetAttribute, the occupancy
// queries) as well as `k<<<...>>>`.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::tidy::occlint {

/// The kernel an expression names: `k`, `&k`, `(void*)k`, `k<64>`,
/// `reinterpret_cast<const void*>(&k)`; null otherwise. The definition when
/// the translation unit has one.
const FunctionDecl *referencedKernel(const Expr *E);

} // namespace clang::tidy::occlint
