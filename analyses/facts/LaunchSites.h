// Recognising kernel launches and what configures them:
//   k<<<grid, block, smem, stream>>>(...)
//   cudaLaunchKernel(k, grid, block, args, smem, stream)
//   cudaLaunchCooperativeKernel(k, grid, block, args, smem, stream)
//   cudaLaunchKernelEx(&config, k, ...) / cudaLaunchKernelExC(&config, k, args)
//     with the config's gridDim/blockDim/dynamicSmemBytes and its attributes
//     (cluster dimension, cooperative) assigned in the same function
//   cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)
// A launch written inside a macro is reported at the macro's expansion site.
#pragma once

#include "values/ValueEvaluator.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

enum class LaunchKind { TripleChevron, LaunchKernel, LaunchCooperativeKernel, LaunchKernelEx };

/// "<<<...>>>", "cudaLaunchKernel", ...
const char *launchKindName(LaunchKind Kind);

/// Which of a launch's value variants a LaunchSite is (LaunchVariants.h).
struct LaunchValueSet {
  unsigned variant = 0; // 0-based
  unsigned variants = 1;
  /// Every value the launch can get is among the variants (false: other
  /// files may call a helper on the way, or a bound was reached).
  bool complete = true;
  /// Why the set is not complete, when it is not.
  std::string incompleteBecause;
  /// Every block the launch can get is among the variants, each exact: the
  /// block is one value or a complete set. Unlike `complete`, a variant's
  /// unknown grid or dynamic shared memory (or an unresolved kernel) does
  /// not clear it; a path the variants miss (other files' calls, a bound
  /// reached) does.
  bool blockComplete = false;
  /// The calls that lead to this variant, the launch's own function's caller
  /// first; empty when the launch's function alone decides the values.
  std::vector<const CallExpr *> callChain;
  /// The block (grid) of this variant is one element of an array a loop
  /// walks, or is computed from one: the array (ValueContext.h,
  /// EvaluationTrace::sweptArray). Each element is a deliberate choice, so
  /// the checks that judge the block (grid) say nothing about it.
  const VarDecl *blockSweep = nullptr;
  const VarDecl *gridSweep = nullptr;
};

struct LaunchSite {
  LaunchKind kind = LaunchKind::TripleChevron;
  const CallExpr *call = nullptr;
  const FunctionDecl *caller = nullptr; // the function the launch is written in
  const FunctionDecl *kernel = nullptr; // the kernel definition; null when not resolvable
  const Expr *gridExpr = nullptr;       // null when not written (LaunchKernelEx: the assigned value)
  const Expr *blockExpr = nullptr;
  const Expr *dynamicSharedMemExpr = nullptr;
  /// The kernel's arguments as written, one per parameter (`<<<...>>>(a, b)`,
  /// cudaLaunchKernelEx's trailing arguments); empty when the launch passes
  /// them through a `void **` array.
  std::vector<const Expr *> argumentExprs;
  /// Per parameter, the integer the launch passes when its own function pins
  /// it down (`k<<<g, 256>>>(p, 64)`, a constant, a guard `n == 64`), else
  /// nullopt; the same in every variant (LaunchVariants.h).
  std::vector<std::optional<int64_t>> argumentValues;
  EvaluatedDim3 grid, block;
  EvaluatedValue dynamicSharedMem = EvaluatedValue::exact(0);
  std::optional<std::array<int64_t, 3>> clusterDims; // launch attribute (LaunchKernelEx)
  bool cooperative = false;
  bool fromDeviceCode = false; // launched from a __global__/__device__ function
  SourceLocation loc;          // where to report (expansion site for macros)
  SourceRange range;
  LaunchValueSet values;
  /// Why a value is not exact, when the evaluator can say ("parameter
  /// 'threads' of 'launch_fill', called with a runtime value at x.cu:40").
  std::string gridUnknownReason, blockUnknownReason, dynamicSharedMemUnknownReason;
  /// A value depends on the GPU (a device property, the occupancy API): the
  /// launch is evaluated again per target, each result for one target only.
  bool needsTarget = false;
  std::optional<unsigned> targetIndex; // index into TranslationUnitFacts::targets
};

/// The launch described by `Call`, or nullopt when it is not a launch: the
/// kernel, the kind and the expressions of its grid, block and dynamic shared
/// memory, not yet their values (launchVariants evaluates them, in each
/// context the launch is reached in). `Values` reads launch attributes.
std::optional<LaunchSite> recognizeLaunch(const CallExpr &Call, const FunctionDecl *Caller, ASTContext &Ctx,
                                          ValueEvaluator &Values);

struct DynamicSharedMemOptin {
  /// Null when the call names no kernel occlint can resolve (a function
  /// pointer, a parameter of a wrapper): any kernel of the translation unit
  /// may be the one that opts in.
  const FunctionDecl *kernel = nullptr;
  EvaluatedValue bytes;
  SourceLocation loc;
};

/// cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n).
std::optional<DynamicSharedMemOptin> recognizeOptin(const CallExpr &Call, ASTContext &Ctx, ValueEvaluator &Values);

} // namespace clang::tidy::occlint
