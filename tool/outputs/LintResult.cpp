#include "outputs/LintResult.h"

#include "ExitCodes.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang::tidy;

namespace occlint {

std::string ParseGapNotice::message() const {
  std::string Text = file + ": Clang cannot parse code that nvcc accepts";
  if (!arch.empty())
    Text += " (" + arch + ")";
  Text += ": " + firstError.message;
  if (!firstError.file.empty())
    Text += " (" + firstError.file + ":" + std::to_string(firstError.position.line) + ")";
  if (functionsNotAnalysed)
    Text += "; " + std::to_string(*functionsNotAnalysed) +
            (*functionsNotAnalysed == 1 ? " function with errors was" : " functions with errors were") +
            " not analysed";
  return Text;
}

bool LintResult::compilerErrors() const {
  return llvm::any_of(errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
  });
}

bool LintResult::checkErrors() const {
  return llvm::any_of(errors, [](const ClangTidyError &E) {
    return E.IsWarningAsError || (E.DiagLevel == ClangTidyError::Error &&
                                  !llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-"));
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
