// What occlint knows about its checks besides their code: a one-line summary
// and the documentation page of each (docs/checks/<name>.md, embedded in the
// binary at build time), for --list-checks, SARIF rules and the LSP.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace occlint {

struct CheckDoc {
  std::string name;     // "cuda-launch-tiny-grid"
  std::string summary;  // the page's first paragraph, one line of plain text
  std::string markdown; // the whole page
  /// Where the page can be read: OCCLINT_DOCS_URL/<name>.md when occlint was
  /// configured with one (e.g. the repository's web address), else a file://
  /// address of the page installed next to the binary (share/doc/occlint/checks).
  std::string url;
  /// "error", "warning" or "remark": the check's declared severity
  /// (checks/CheckRegistry.h); "" for a page of no registered check.
  std::string defaultSeverity;
};

/// Every documented check, sorted by name. (The installed pages are found
/// from the running executable's path.)
const std::vector<CheckDoc> &checkCatalog();
/// The check's entry, or null.
const CheckDoc *findCheckDoc(llvm::StringRef Name);
/// The address of the checks' index page (docs/checks/README.md), like the
/// pages' urls.
const std::string &checkIndexUrl();

/// A page's summary: its first paragraph after the "# title" line, its lines
/// joined with single spaces, as plain text (emphasis and code-span marks
/// dropped, links reduced to their text).
std::string checkSummary(llvm::StringRef Markdown);

} // namespace occlint
