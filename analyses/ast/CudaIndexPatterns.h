// The source patterns the block-resize safety rule (BlockResizeSafety.h)
// recognises: CUDA's built-in index variables, the global thread index
// `blockIdx.x * blockDim.x + threadIdx.x`, the grid-stride step
// `gridDim.x * blockDim.x`, and the text of an expression for messages.
#pragma once

#include "ast/CudaBuiltinVariables.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace clang::tidy::occlint::resize {

/// Parentheses, implicit conversions and explicit casts to an integer type
/// of at least 32 bits, stripped.
const Expr *stripIntegerCasts(const Expr *E, ASTContext &Ctx);

/// `blockIdx.x` (a property read of a built-in variable), casts stripped.
std::optional<BuiltinComponent> builtinComponent(const Expr *E, ASTContext &Ctx);

/// blockIdx.x * blockDim.x + threadIdx.x, in either order of either operation.
bool isGlobalIndexFormula(const Expr *E, ASTContext &Ctx);
/// gridDim.x * blockDim.x, in either order.
bool isGridStrideFormula(const Expr *E, ASTContext &Ctx);

/// Whether E mentions the built-in variable `Variable` anywhere.
bool mentionsBuiltin(const Stmt *S, llvm::StringRef Variable, ASTContext &Ctx);
/// The built-in variable S itself reads (a reference, or one of its
/// components: "blockIdx"; empty for a reference to anything else), without
/// looking into its children; nullopt when S is neither. For walks that
/// visit every node themselves and would make mentionsBuiltin quadratic.
std::optional<llvm::StringRef> builtinReadHere(const Stmt *S, ASTContext &Ctx);

/// The source text of E (its file range, whitespace collapsed), shortened to
/// about 40 characters.
std::string spellingOf(const Stmt *S, ASTContext &Ctx);

/// The integer parameter an expression names (casts stripped), or null.
const ParmVarDecl *integerParameter(const Expr *E, ASTContext &Ctx);

} // namespace clang::tidy::occlint::resize
