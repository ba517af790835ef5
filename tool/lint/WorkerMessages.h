// What an isolated analysis (lint/IsolatedAnalysis.h) sends back to occlint
// from the process that analysed one file: clang-tidy's errors, the facts
// records of its parses, the parses it degraded and the notes it deferred, as one JSON document.
// Every field round-trips exactly: the parent prints and exports them as if
// it had analysed the file itself.
#pragma once

#include "facts/FactsRecords.h"
#include "lint/ParseGaps.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace occlint {

struct WorkerResult {
  std::vector<clang::tidy::ClangTidyError> errors;
  std::vector<clang::tidy::occlint::TranslationUnitRecord> units;
  std::vector<ParseGap> parseGaps;
  nlohmann::json deferred; // the caller's own data (deferred notes); null when none
  /// How the result cache took part (lint/UnitResultCache.h): null when it
  /// did not; {"hit": true} for a result it gave; for an analysed one, what
  /// the parent needs to store it: {"hit": false, "key", "filesRead", "uses"}.
  nlohmann::json cache;
};

nlohmann::json workerResultToJson(const WorkerResult &Result);
/// Throws nlohmann::json::exception on a document that is not one of ours.
WorkerResult workerResultFromJson(const nlohmann::json &J);

/// The facts records alone, in the same form (`occlint wrap --lint` keeps
/// them in the sidecar for `occlint merge --html`).
nlohmann::json unitRecordsToJson(const std::vector<clang::tidy::occlint::TranslationUnitRecord> &Units);
/// Throws nlohmann::json::exception on a document that is not one of ours.
std::vector<clang::tidy::occlint::TranslationUnitRecord> unitRecordsFromJson(const nlohmann::json &J);

} // namespace occlint
