// CUDA's built-in index variables as Clang spells them: `threadIdx.x` is a
// property read (PseudoObjectExpr → MSPropertyRefExpr) of a
// __cuda_builtin_threadIdx_t object, its base wrapped in OpaqueValueExprs.
// One reader of that shape for every analysis (launch facts, block-resize
// safety, divergence).
#pragma once

#include "clang/AST/Expr.h"

#include <optional>

namespace clang::tidy::occlint {

/// "threadIdx", "blockIdx", "blockDim", "gridDim" when D is that built-in
/// variable (clang's __cuda_builtin_*_t objects); "" otherwise.
llvm::StringRef builtinVariableName(const Decl *D);

struct BuiltinComponent {
  llvm::StringRef variable;  // "blockIdx"
  llvm::StringRef component; // "x"
};

/// `blockIdx.x`: E (parentheses and implicit casts stripped, a property read
/// looked through) reads a component of a built-in variable.
std::optional<BuiltinComponent> builtinMember(const Expr *E);

/// 0, 1, 2 for the component names x, y, z; nullopt for anything else.
std::optional<unsigned> builtinDimension(llvm::StringRef Component);

} // namespace clang::tidy::occlint
