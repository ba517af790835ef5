// The divergence analysis of one function body in one calling context: a
// forward dataflow over clang's CFG (a fixpoint over loops) that gives every
// local variable a ThreadValue, then control dependence (from the
// post-dominator tree) that says which blocks only some threads reach and
// which branch is responsible. Values assigned under a thread-dependent
// branch, or after a thread-dependent early return/break/continue, merge
// into varying values at the join; the dataflow and the control dependence
// are iterated together until neither changes.
#pragma once

#include "divergence/DivergenceAnalysis.h"

namespace clang::tidy::occlint {

/// Analyses FD's body with the given parameter values; returns what it
/// returns. With Report, records branches and collectives in D.Out.
FunctionSummary analyzeFunctionBody(const FunctionDecl &FD, DivergenceDriver &D, const std::vector<ThreadValue> &Params,
                                    const ThreadValue &This, const DivergenceContext &Entry, bool Report);

} // namespace clang::tidy::occlint
