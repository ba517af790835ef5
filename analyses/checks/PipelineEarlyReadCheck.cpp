#include "checks/PipelineEarlyReadCheck.h"

namespace clang::tidy::occlint {

PipelineEarlyReadCheck::PipelineEarlyReadCheck(StringRef Name, ClangTidyContext *Context)
    : OcclintCheck(Name, Context) {}

void PipelineEarlyReadCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) { OcclintCheck::storeOptions(Opts); }

// The hazards come from the kernel's facts (pipelines/AsyncPipelineHazards.h):
// the ring run in its steady state.
void PipelineEarlyReadCheck::checkFacts(const TranslationUnitFacts &Facts, ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (const auto &Kernel : Facts.kernels)
    for (const PipelineHazard &H : Kernel->pipelineHazards) {
      if (H.kind != PipelineHazard::EarlyRead)
        continue;
      // An error when a launch's arguments make the hazard certain
      // (PipelineHazard::certainFor), as for barriers; a warning otherwise.
      diag(H.at, "'%0' stage %1 is read while the async copy at line %2 may still be writing it: %3",
           H.certainFor.empty() ? DiagnosticIDs::Warning : DiagnosticIDs::Error)
          << H.buffer->getName() << static_cast<int>(H.stage) << SM.getExpansionLineNumber(H.other) << H.why;
      diag(H.other, "the copy into '%0' stage %1 in '%2'", DiagnosticIDs::Note)
          << H.buffer->getName() << static_cast<int>(H.stage) << Kernel->displayName;
      diag(H.wait.isValid() ? H.wait : H.at, "fix: %0", DiagnosticIDs::Note) << H.fix;
      for (const PipelineHazard::CertainLaunch &L : H.certainFor)
        diag(L.at, "certain for this launch: %0 reaches it", DiagnosticIDs::Note) << L.arguments;
    }
}

} // namespace clang::tidy::occlint
