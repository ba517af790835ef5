// The findings of a lint run as plain records with line and column numbers,
// for the outputs that are not clang's text: --format=json, --format=sarif,
// `occlint report` and `occlint lsp`. Converted from clang-tidy's
// ClangTidyError (file + byte offset) by reading the files once.
#pragma once

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace occlint {

/// A place in a file. Lines are 1-based. `column` counts bytes from 1, as
/// clang prints it; the other two count Unicode code points (SARIF's
/// "unicodeCodePoints") and UTF-16 code units (the Language Server Protocol's
/// default), for the formats that want them.
struct SourcePosition {
  unsigned line = 0;
  unsigned column = 0;
  unsigned codePointColumn = 0;
  unsigned utf16Column = 0;
  uint64_t offset = 0; // bytes from the start of the file
};

struct SourceSpan {
  std::string file;          // absolute
  SourcePosition begin, end; // end is one past the last character
};

/// One replacement of a fix: `span` (may be empty: an insertion) becomes `text`.
struct FixRecord {
  SourceSpan span;
  std::string text;
};

struct NoteRecord {
  std::string message;
  std::string file; // "" for a note with no location
  SourcePosition position;
  std::vector<SourceSpan> ranges;
  std::vector<FixRecord> fixes;
};

struct DiagnosticRecord {
  std::string check;    // "cuda-launch-tiny-grid", "clang-diagnostic-error"
  std::string severity; // "error", "warning" or "remark" (after --warnings-as-errors)
  bool warningAsError = false;
  std::string message;
  std::string file; // absolute; "" for a diagnostic with no location
  SourcePosition position;
  std::vector<SourceSpan> ranges;
  std::vector<NoteRecord> notes;
  std::vector<FixRecord> fixes;
};

/// Converts and keeps the order. A file that cannot be read gives positions
/// with line 0 (the offset stays).
std::vector<DiagnosticRecord> toDiagnosticRecords(const std::vector<clang::tidy::ClangTidyError> &Errors);

/// The position of byte `Offset` in `Text`.
SourcePosition positionAt(llvm::StringRef Text, uint64_t Offset);
/// The same, with the offsets where Text's lines start (0 first), in time
/// independent of where in the file Offset is.
SourcePosition positionAtLine(llvm::StringRef Text, const std::vector<size_t> &LineStarts, uint64_t Offset);

} // namespace occlint
