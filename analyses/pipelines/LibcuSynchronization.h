// What the async-pipeline facts read off libcu++'s synchronisation objects
// (cuda::pipeline, cuda::pipeline_shared_state, cuda::barrier) in a kernel's
// source: a pipeline's scope and stage count, whether a barrier counts the
// whole block. Types and calls only, no dataflow (the hazard run in
// pipelines/AsyncPipelineHazards.cpp follows the values).
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/Type.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::occlint {

/// The name of the thread_scope enumerator ("thread_scope_block",
/// "thread_scope_thread", ...) a cuda::pipeline<Scope> (or
/// pipeline_shared_state<Scope, N>) type T is instantiated with.
std::optional<std::string> threadScopeOf(QualType T);

/// N of the pipeline_shared_state<Scope, N> handed to cuda::make_pipeline in
/// Init (a pipeline variable's initializer).
std::optional<int64_t> pipelineSharedStateStages(const Stmt *Init);

/// Whether T is a cuda::barrier (through pointers and arrays).
bool isCudaBarrierType(QualType T);

/// Whether every `init(&Bar..., count)` of Bar in Body counts the whole
/// block (block.size(), num_threads(), blockDim), and there is one.
bool barrierCountsTheBlock(const Stmt *Body, const VarDecl &Bar);

/// Whether Body calls a member of a block-scope cuda::pipeline variable.
bool usesBlockScopePipeline(const Stmt *Body);

} // namespace clang::tidy::occlint
