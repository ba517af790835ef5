#include "outputs/LintResult.h"

#include "ExitCodes.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang::tidy;

namespace occlint {

bool LintResult::compilerErrors() const {
  return llvm::any_of(errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
  });
}

bool LintResult::checkErrors() const {
  return llvm::any_of(errors, [](const ClangTidyError &E) {
    return E.IsWarningAsError ||
           (E.DiagLevel == ClangTidyError::Error && !llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"));
  });
}

bool LintResult::internalErrors() const {
  return llvm::any_of(errors, [](const ClangTidyError &E) { return E.DiagnosticName == "occlint-internal-error"; });
}

int LintResult::exitCode() const {
  if (setupExitCode != ExitOk)
    return setupExitCode;
  if (internalErrors())
    return ExitInternal;
  if (compilerErrors())
    return ExitUsageOrInput;
  return checkErrors() ? ExitFindings : ExitOk;
}

} // namespace occlint
