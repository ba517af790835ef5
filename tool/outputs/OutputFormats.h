// The machine-readable outputs of a lint run (--format=json, --format=sarif).
// Both are built with nlohmann_json from the run's plain records
// (DiagnosticRecords.h, FactsRecords.h); docs/output-formats.md documents them.
#pragma once

#include "outputs/LintResult.h"

#include "llvm/Support/raw_ostream.h"

namespace occlint {

/// The version of occlint's own JSON schema (docs/output-formats.md), for
/// every command that writes it (a run's --format=json, `occlint merge`).
/// Bumped when a field changes meaning or disappears (adding fields keeps it).
/// 2: the launch and occupancy checks follow a precedence table, so a
/// launch's diagnostics no longer hold every finding: the moot ones are in
/// the launch's "suppressed". 3: a runtime amount of dynamic shared memory
/// may have a shape whose dynamicSharedMemoryBytes is null (its
/// dynamicSharedMemoryAtMostBytes the largest amount).
inline constexpr int JsonSchemaVersion = 3;

/// occlint's own JSON schema (a "version" field; diagnostics with notes and
/// fixes; per-launch occupancy facts).
void writeJsonOutput(const LintResult &Result, llvm::raw_ostream &OS);

/// SARIF 2.1.0: one rule per check (help text and doc link), results with
/// locations, related locations (the notes) and fixes.
void writeSarifOutput(const LintResult &Result, llvm::raw_ostream &OS);

} // namespace occlint
