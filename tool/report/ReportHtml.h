// The HTML page of `occlint report`: one self-contained file (inline CSS, the
// staircases as inline SVG, no external resources) with the table of kernels
// and launches, the other findings and the staircases. Every text that comes
// from the sources (names, messages, paths) is escaped.
#pragma once

#include "report/ReportModel.h"

#include "llvm/Support/raw_ostream.h"

namespace occlint {

/// The page ends with a small inline script that, once laid out, records
/// facts about itself in the <html> element's data-report-check attribute
/// (JSON: charts, charts with a non-empty box, own and next-step points,
/// own points drawn on their curve), for tests that render it.
void writeReportHtml(const ReportModel &Model, llvm::raw_ostream &OS);

} // namespace occlint
