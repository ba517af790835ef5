// The Markdown page of `occlint report`: the same tables as the HTML page
// (GitHub-flavoured Markdown tables), and, since Markdown has no inline SVG,
// each staircase as a line of its steps ("≤ 32: 100.0% · ≤ 40: 75.0% ...")
// with the launch's point and its next step.
#pragma once

#include "report/ReportModel.h"

#include "llvm/Support/raw_ostream.h"

namespace occlint {

void writeReportMarkdown(const ReportModel &Model, llvm::raw_ostream &OS);

/// Text for a Markdown table cell: the characters Markdown or a GFM table
/// would read (| < > * _ ` [ ] ~ & \) backslash-escaped, line breaks as spaces.
std::string escapeMarkdown(const std::string &Text);

} // namespace occlint
