// Which variables live in shared memory: those declared `__shared__`
// (CUDASharedAttr), and those whose `__shared__` the occlint binary rewrote
// because Clang rejected the declaration for its constructor (a
// `cuda::barrier`, a `cuda::pipeline_shared_state`: nvcc accepts them and
// does not run the constructor; tool/lint/SharedDeclarationOverlay.h). The
// rewritten declaration is a local annotated "occlint.shared".
#pragma once

#include "clang/AST/Decl.h"

namespace clang::tidy::occlint {

/// The annotation the rewritten declarations carry.
inline constexpr llvm::StringLiteral RewrittenSharedAnnotation = "occlint.shared";

/// D is a variable in shared memory (extern __shared__ arrays included).
bool isSharedMemoryVariable(const VarDecl &D);

} // namespace clang::tidy::occlint
