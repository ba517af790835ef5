// One statement read as an asynchronous-copy operation: a copy into shared
// memory, a commit of the copies so far into a batch, a wait for batches, a
// producer/consumer step of a cuda::pipeline, a cuda::barrier arrival or wait,
// or a block-wide barrier (__syncthreads, a thread_block's sync). The
// vocabulary is pipelines/AsyncPipeline.h's; this file only recognises it, one
// call or asm statement at a time, for the pipeline facts and the hazard
// analysis alike.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <optional>
#include <vector>

namespace clang::tidy::occlint {

enum class AsyncCopyForm { Primitives, CudaPipeline, CudaBarrier, CooperativeGroups, PtxCpAsync, Bulk };

enum class AsyncEventKind { Copy, Commit, Wait, Acquire, Release, Arrive, BarrierWait, BlockBarrier };

struct AsyncOperation {
  AsyncEventKind kind = AsyncEventKind::Copy;
  AsyncCopyForm form = AsyncCopyForm::Primitives;
  /// Wait: how many of the most recent batches may still be in flight after
  /// it (wait_prior<N>, wait_group N; 0 for a wait that drains all); null when
  /// N is not a constant.
  std::optional<int64_t> pending;
  const Expr *destination = nullptr; // Copy: the shared address written
  const Expr *size = nullptr;        // Copy: the bytes, when an argument says
  std::optional<int64_t> bytes;      // Copy: the bytes, when exact
  /// The cuda::pipeline or cuda::barrier the operation acts on: a member
  /// call's object, cuda::memcpy_async's last argument,
  /// pipeline_consumer_wait_prior's argument (null for the other forms).
  const Expr *sync = nullptr;
};

/// The operations S is (arrive_and_wait is two; most statements none).
/// Counts and sizes are read with Clang's constant evaluator (literals,
/// constexpr, template arguments, macros): no dataflow, so the facts stay
/// linear in the function's size.
std::vector<AsyncOperation> recogniseAsyncOperations(const Stmt &S, ASTContext &Ctx);

/// E's value as a compile-time integer constant (Clang's constant evaluator:
/// literals, constexpr, template arguments, sizeof, macros; no dataflow), or
/// nullopt. The one such helper of the async-pipeline facts.
std::optional<int64_t> constantIntegerOf(const Expr *E, ASTContext &Ctx);

/// E without what does not change the place it names: parentheses, casts,
/// `&` and `*` (the address walks of the ring facts start from it).
const Expr *peelAddress(const Expr *E);

/// The definition Call reaches when it is a plain (not a member) call to a
/// function of the program: not libcu++'s or cooperative groups', defined
/// outside a system header. The pipeline facts collect the async operations
/// in its body and the pipeline run follows it (pipelines/AsyncPipelineRun.h), by
/// this one rule; nullptr otherwise.
const FunctionDecl *programFunctionCalled(const CallExpr &Call, ASTContext &Ctx);

/// "__pipeline_memcpy_async", "cuda::pipeline", ...
const char *asyncCopyFormName(AsyncCopyForm Form);

/// The outermost namespace D is declared in ("cuda", "cooperative_groups"),
/// inline (ABI) namespaces looked through; "" at global scope.
llvm::StringRef outermostNamespace(const Decl *D);

} // namespace clang::tidy::occlint
