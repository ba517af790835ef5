// Diagnostics read back from occlint's JSON output (--format=json, and the
// lint a build step keeps in its sidecar, buildlint/): the records the other
// outputs are written from, and clang's text layout for them.
#pragma once

#include "outputs/DiagnosticRecords.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace occlint {

/// One element of the JSON output's "diagnostics" array as a record. The
/// byte offsets and the code-point/UTF-16 columns are recomputed from the
/// file's text (line and byte column are what JSON keeps); a file that
/// cannot be read keeps line and column only. nullopt when a required field
/// (check, severity, message) is missing or has the wrong type.
std::optional<DiagnosticRecord> diagnosticFromJson(const nlohmann::ordered_json &Diagnostic);

/// clang's layout: "file:line:col: warning: message [check]" and one
/// "file:line:col: note: message" line per note; no source excerpt.
std::string clangStyleText(const DiagnosticRecord &Diagnostic);

} // namespace occlint
