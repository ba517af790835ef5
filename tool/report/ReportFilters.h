// The filters of the HTML page (docs/report.md, "Filters"): by check,
// severity, file and GPU, and a text search, in plain JavaScript embedded in
// the page (no network, no external assets). The controls are hidden until
// the script shows them, so the page reads the same without JavaScript.
//
// Rows carry what the filters test as data attributes (FilterAttributes);
// the script hides launch rows that do not match (with their findings row),
// and kernel rows with no matching launch and no matching finding of their own.
#pragma once

#include "report/ReportModel.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace occlint {

/// ` data-file="..." data-gpu="..." data-checks="a b" data-severities="..." data-text="..."`
/// for a row: its file (the location without the line), its GPU ("" for a
/// kernel row), its findings' checks and severities, and the lower-case text
/// a search looks in.
std::string filterAttributes(const std::string &Location, const std::string &Gpu,
                             const std::vector<ReportFinding> &Findings, const std::string &Text);

/// The file a kernel row is listed under: its definition's, else its first
/// launch's ("" when neither is known).
std::string kernelRowFile(const ReportKernelRow &K);

/// The row that heads a file's kernels: the path, what is under it, and a
/// button (shown by the script) that folds them.
void writeFileHeader(const std::string &File, const std::vector<const ReportKernelRow *> &Kernels, int Columns,
                     llvm::raw_ostream &OS);

/// The controls, filled with the checks, files and GPUs of the model.
void writeFilterControls(const ReportModel &Model, llvm::raw_ostream &OS);

/// The script (without <script> tags); it defines window.occlintFilter(options).
extern const char *const FilterScript;

} // namespace occlint
