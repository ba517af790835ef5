// One Clang parse of one file with the clang-tidy checks, as clang-tidy's
// runClangTidy does it (the engine, its diagnostics consumer, the options'
// ExtraArgs, plugins stripped from the command, __clang_analyzer__ defined),
// with one difference: the bodies of functions in system headers (the CUDA
// toolkit, the C++ library, anything found through -isystem) are skipped,
// kernels' excepted.
// No check looks into them: the divergence analysis treats such calls by
// name or as opaque, and the launch values read only the user's code (and
// constexpr functions, whose bodies Clang never skips). Most of a CUDA
// translation unit's text is those headers; skipping their bodies makes the
// parse cheaper than the `clang -fsyntax-only` of the same command
// (docs/build-integration.md, "How it scales"). Inside clang-tidy with the
// plugin the bodies are parsed: the findings are the same.
#pragma once

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace occlint {

std::vector<clang::tidy::ClangTidyError>
runChecksOnFile(clang::tidy::ClangTidyContext &Context, const clang::tooling::CompilationDatabase &Commands,
                const std::string &File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, bool Quiet);

} // namespace occlint
