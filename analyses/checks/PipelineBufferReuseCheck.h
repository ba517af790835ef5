// cuda-pipeline-buffer-reuse: an async copy refills a ring stage that other threads may still be reading (no block
// barrier between the last read and the copy). docs/checks/cuda-pipeline-buffer-reuse.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class PipelineBufferReuseCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-pipeline-buffer-reuse", CheckSeverity::Warning, OnByDefault};
  PipelineBufferReuseCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
