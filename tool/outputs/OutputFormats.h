// The machine-readable outputs of a lint run (--format=json, --format=sarif).
// Both are built with nlohmann_json from the run's plain records
// (DiagnosticRecords.h, FactsRecords.h); docs/output-formats.md documents them.
#pragma once

#include "outputs/LintResult.h"

#include "llvm/Support/raw_ostream.h"

namespace occlint {

/// occlint's own JSON schema (a "version" field; diagnostics with notes and
/// fixes; per-launch occupancy facts).
void writeJsonOutput(const LintResult &Result, llvm::raw_ostream &OS);

/// SARIF 2.1.0: one rule per check (help text and doc link), results with
/// locations, related locations (the notes) and fixes.
void writeSarifOutput(const LintResult &Result, llvm::raw_ostream &OS);

} // namespace occlint
