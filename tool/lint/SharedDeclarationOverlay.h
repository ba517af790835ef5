// __shared__ objects of class type that nvcc accepts and Clang rejects.
//
// nvcc accepts a function-scope `__shared__` variable whose class has a
// constructor that is not empty (libcu++'s `cuda::barrier`,
// `cuda::pipeline_shared_state`, a struct with a member initializer): it
// warns that the dynamic initialization is not supported (diagnostic
// static_var_with_dynamic_init, which libcu++'s users suppress) and does not
// run it. Clang 22 rejects the declaration ("initialization is not supported
// for __shared__ variables", Sema::checkAllowedInitializer), marks it
// invalid, and every use of it (`init(&bar, n)`, `bar.arrive_and_wait()`,
// `cuda::memcpy_async(..., bar)`) becomes a RecoveryExpr: the kernels that
// hold async-copy pipelines were dropped.
//
// No declaration in a prelude can change Sema's rule, and Clang has no hook
// there. So the parse is run again over an in-memory copy of each file that
// held a rejected declaration, in which that declaration's `__shared__`
// reads `__occlsh__` (the same length: every line and column stays the
// user's, and findings need no mapping back). The nvcc compatibility prelude
// defines `__occlsh__` as an annotation, `annotate("occlint.shared")`: the
// variable is then an ordinary local with a valid type, its uses resolve,
// and ast/SharedMemoryVariables.h counts it as shared memory. Only the
// declarations Clang rejected are rewritten; a file without one is parsed
// once, as before. docs/nvcc-parity.md ("__shared__ objects with a
// constructor") says what this costs.
#pragma once

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace occlint {

/// Where a `__shared__` declaration Clang rejected for its initializer names
/// its variable: the file as the parse opened it, and the offset in it.
struct RejectedSharedDeclaration {
  std::string file;
  unsigned offset = 0;
};

/// The spelling that replaces `__shared__` in a rejected declaration, and the
/// annotation it expands to (tool/nvcc-compat/occlint_nvcc_compat.h).
inline constexpr const char *RewrittenSharedKeyword = "__occlsh__";

/// A file system that shows `Base` with each rejected declaration's
/// `__shared__` keyword rewritten; null when none of them could be (the
/// keyword is not written in the declaration's own text, e.g. it comes from a
/// macro that also spells the name).
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
overlayRejectedSharedDeclarations(const std::vector<RejectedSharedDeclaration> &Rejected,
                                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

/// The offset of the `__shared__` keyword of the declaration whose name is at
/// NameOffset in Text: the last one before it within the same declaration
/// (nothing but the declaration's own tokens between them: no `;`, `{`, `}`,
/// no preprocessor line).
/// npos when there is none.
size_t sharedKeywordBefore(llvm::StringRef Text, size_t NameOffset);

} // namespace occlint
