// occlint's findings (DiagnosticRecords) as the Language Server Protocol's
// Diagnostic and CodeAction objects. Positions: LSP counts lines from 0 and
// columns in UTF-16 code units from 0; the records count both from 1
// (SourcePosition::utf16Column).
#pragma once

#include "outputs/DiagnosticRecords.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <compare>
#include <functional>
#include <string>
#include <vector>

namespace occlint::lsp {

struct Position {
  unsigned line = 0;
  unsigned character = 0; // UTF-16 code units
  auto operator<=>(const Position &) const = default;
};

struct Range {
  Position start, end;
  bool operator==(const Range &) const = default;
  /// Shares at least one position with `Other` (ends included, so that a
  /// cursor just after a diagnostic still touches it).
  bool touches(const Range &Other) const { return start <= Other.end && Other.start <= end; }
};

Position toPosition(const SourcePosition &P);
nlohmann::json toJson(const Position &P);
nlohmann::json toJson(const Range &R);
/// Throws nlohmann::json::exception when `J` is not an LSP Range.
Range rangeFromJson(const nlohmann::json &J);

/// How the conversion names things it does not know itself.
struct ConversionContext {
  /// The URI of a file (the editor's own spelling for the documents it opened).
  std::function<std::string(llvm::StringRef Path)> uriFor;
  /// The documentation address of a check, or "" (then no codeDescription).
  std::function<std::string(llvm::StringRef Check)> docUrlFor;
};

/// 1 error, 2 warning, 3 information (remarks).
int toSeverity(llvm::StringRef RecordSeverity);

/// Where a record's diagnostic is shown: its first range in its own file that
/// contains its position, else an empty range at the position (editors then
/// underline the word there).
Range diagnosticRange(const DiagnosticRecord &R);

/// range, severity, code (the check), codeDescription.href (its page),
/// source "occlint", message, relatedInformation (the notes with a location;
/// notes without one are appended to the message).
nlohmann::json toDiagnostic(const DiagnosticRecord &R, const ConversionContext &C);

/// The quick fixes (CodeAction objects, kind "quickfix", with a WorkspaceEdit)
/// of those of `Records` whose range touches `Requested`: one for the
/// diagnostic's own fixes, one per note with fixes. Fixes in a file that
/// could not be read (no line numbers) are left out.
nlohmann::json codeActionsFor(const std::vector<DiagnosticRecord> &Records, const Range &Requested,
                              const ConversionContext &C);

} // namespace occlint::lsp
