// cuda-pipeline-early-read: an async copy into shared memory may still be writing what a thread reads (a wait too loose
// or missing, or no block barrier after a wait for other threads' copies). docs/checks/cuda-pipeline-early-read.md
#pragma once

#include "checks/OcclintCheck.h"

namespace clang::tidy::occlint {

class PipelineEarlyReadCheck : public OcclintCheck {
public:
  static constexpr CheckDeclaration Declaration{"cuda-pipeline-early-read", CheckSeverity::Warning, OnByDefault};
  PipelineEarlyReadCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  void checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) override;
};

} // namespace clang::tidy::occlint
