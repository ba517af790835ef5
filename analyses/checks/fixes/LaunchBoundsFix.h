// When may cuda-occupancy-register-cliff's note insert __launch_bounds__(T, B)?
// The attribute is not "performance only": the runtime refuses every launch
// of the kernel with more than T threads per block, wherever it is written.
// So the fix-it is offered only when every launch of the kernel can be seen
// and has at most T threads: the kernel has internal linkage (static, or in
// an anonymous namespace), it is not referenced other than by launches
// occlint reads (and the cudaFunc*/cudaOccupancy* queries), and each of those
// launches has a block size known to be at most T. Plus the edit itself must
// be one unambiguous insertion: a plain kernel (not a template), without
// launch bounds or __maxnreg__ of its own, whose name is written in the file.
#pragma once

#include "facts/TranslationUnitFacts.h"

#include <string>

namespace clang::tidy::occlint {

/// "" when the note may carry the fix-it __launch_bounds__(Threads, ...) for
/// Kernel; otherwise why not, as a clause: "'k' has external linkage: ...".
std::string launchBoundsFixBlocker(const KernelInfo &Kernel, int64_t Threads, const TranslationUnitFacts &Facts,
                                   ASTContext &Ctx);

} // namespace clang::tidy::occlint
