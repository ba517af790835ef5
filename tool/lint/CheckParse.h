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
//
// One parse can stand for several archs: given the other archs of the same
// compile command, when the project's own files never depend on the arch
// (ArchTestRecorder.h) and the parse has no errors, the checks run again on
// the same AST once per other arch (the arch of facts/RunContext.h
// ParseContext), each run's findings taken apart, as separate parses'
// would be.
#pragma once

#include "lint/SharedDeclarationOverlay.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <string>
#include <vector>

namespace occlint {

/// The other archs a parse may stand for, and what it did.
struct OtherArchs {
  std::string parseArch;            // in: the arch of the parse ("sm_80")
  std::vector<std::string> archs;   // in: the other archs of the command, in its order
  std::vector<std::string> covered; // out: those the checks ran for on this parse (all, or none)
  /// out: why none: "k.cu:12 uses __CUDA_ARCH__", "the parse has errors".
  std::string whyNot;
};

/// The findings of every run of the checks on the parse (the parse's own
/// arch first, then each covered arch), one list per run. Given Rejected,
/// it receives the `__shared__` declarations Clang rejected for their
/// initializer (lint/SharedDeclarationOverlay.h), and such a parse does not
/// count as failed; given HeldStats, Clang's "N errors generated" goes there
/// instead of stderr. Given FilesRead, every file of the real file system
/// the parse opened (the main file, every header) is added to it, absolute.
std::vector<std::vector<clang::tidy::ClangTidyError>>
runChecksOnFile(clang::tidy::ClangTidyContext &Context, const clang::tooling::CompilationDatabase &Commands,
                const std::string &File, llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, bool Quiet,
                OtherArchs *Others = nullptr, std::vector<RejectedSharedDeclaration> *Rejected = nullptr,
                std::string *HeldStats = nullptr, std::vector<std::string> *FilesRead = nullptr);

} // namespace occlint
