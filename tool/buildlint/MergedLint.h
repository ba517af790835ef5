// What `occlint merge` reads: the lint each build step kept in its sidecar
// (`occlint wrap --lint`, tool/buildlint/WrapLint.cpp), for every CUDA translation unit of a
// compile database, current sidecars only; findings in headers that several
// units include come once; filtered by check and line without parsing.
#pragma once

#include "facts/FactsRecords.h"
#include "outputs/DiagnosticRecords.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct MergeRequest {
  std::string buildDirectory;        // with compile_commands.json
  std::optional<std::string> checks; // clang-tidy's glob list; unset: every check the build ran
  std::string lineFilter;            // clang-tidy's --line-filter JSON; "" = every line
};

struct SkippedUnit {
  std::string file;
  std::string why; // "no sidecar: ...", "stale: <reason>", "built without --lint"
};

struct MergedLint {
  std::string error;                         // a bad request or database: one line; nothing else is set
  size_t units = 0;                          // CUDA translation units of the database
  size_t linted = 0;                         // ... whose current sidecar has a lint
  std::vector<SkippedUnit> skipped;          // the others, in database order
  std::vector<std::string> sources;          // the linted units (absolute), for the path roots
  std::vector<DiagnosticRecord> diagnostics; // kept, sorted by file, line, column, check
  nlohmann::ordered_json diagnosticsJson = nlohmann::ordered_json::array(); // the same, as the build wrote them
  nlohmann::ordered_json launches = nlohmann::ordered_json::array();
  nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
  nlohmann::ordered_json notifications = nlohmann::ordered_json::array();
  /// The facts records of the linted units' parses, for the report page;
  /// empty for a unit whose sidecar was written by an occlint that did not keep them.
  std::vector<clang::tidy::occlint::TranslationUnitRecord> unitRecords;
  bool anyError() const; // a kept diagnostic at error level
};

MergedLint mergeBuildLint(const MergeRequest &Request);

} // namespace occlint
