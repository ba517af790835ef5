#include "buildlint/MergedLint.h"

#include "lint/LineFilter.h"
#include "lint/LintPipeline.h"
#include "lint/ProjectDatabase.h"
#include "lint/WorkerMessages.h"
#include "outputs/DiagnosticsFromJson.h"

#include "toolchain/BuildCapture.h"

#include "clang-tidy/GlobList.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

namespace occlint {

namespace {

using Json = nlohmann::ordered_json;

/// clang-tidy's rule (ClangTidyDiagnosticConsumer::passesLineFilter): no
/// filter passes everything; else the first filter whose name ends the file
/// name decides (no ranges: every line); a file no filter names is out.
bool passesLineFilter(const clang::tidy::ClangTidyGlobalOptions &Options, llvm::StringRef File, unsigned Line) {
  if (Options.LineFilter.empty())
    return true;
  for (const auto &Filter : Options.LineFilter) {
    if (!File.ends_with(Filter.Name))
      continue;
    if (Filter.LineRanges.empty())
      return true;
    return llvm::any_of(Filter.LineRanges, [&](const auto &R) { return R.first <= Line && Line <= R.second; });
  }
  return false;
}

std::string dumped(const Json &J) { return J.dump(-1, ' ', false, Json::error_handler_t::replace); }

void appendOnce(Json &Array, std::set<std::string> &Seen, const Json &Item) {
  if (Seen.insert(dumped(Item)).second)
    Array.push_back(Item);
}

/// The lint a current sidecar holds for the unit ("output": the JSON output,
/// "units": the facts records), or why there is none.
std::optional<Json> lintOf(const clang::tooling::CompileCommand &Command, const std::string &File, std::string &Why) {
  LoadedBuildCapture Loaded = loadBuildCaptureForCommand(Command.CommandLine, Command.Directory, File);
  if (!Loaded.found) {
    Why = "no sidecar (" + Loaded.reason + ")";
    return std::nullopt;
  }
  if (!Loaded.current) {
    Why = "stale: " + Loaded.reason;
    return std::nullopt;
  }
  if (Loaded.capture.lint.empty()) {
    Why = "built without --lint";
    return std::nullopt;
  }
  Json Lint = Json::parse(Loaded.capture.lint, nullptr, false);
  if (!Lint.is_object() || !Lint.contains("output") || !Lint["output"].is_object()) {
    Why = "the sidecar's lint is malformed";
    return std::nullopt;
  }
  return Lint;
}

} // namespace

bool MergedLint::anyError() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const DiagnosticRecord &D) { return D.severity == "error"; });
}

MergedLint mergeBuildLint(const MergeRequest &Request) {
  MergedLint Out;
  clang::tidy::ClangTidyGlobalOptions LineOptions;
  if (!Request.lineFilter.empty())
    if (std::error_code EC = parseJsonLineFilter(Request.lineFilter, LineOptions)) {
      Out.error = "--line-filter: not a line filter (" + EC.message() + "): " + Request.lineFilter;
      return Out;
    }
  std::optional<clang::tidy::GlobList> Checks;
  if (Request.checks)
    Checks.emplace(*Request.checks);

  std::string Error;
  auto Database = loadProjectDatabase(Request.buildDirectory, Error);
  if (!Database) {
    Out.error = Error;
    return Out;
  }
  std::vector<std::string> Included;
  const std::vector<std::string> Units = cudaTranslationUnits(*Database, Included, nullptr);
  Out.units = Units.size();

  std::set<std::string> SeenDiagnostics, SeenLaunches, SeenKernels, SeenNotifications;
  std::vector<std::pair<DiagnosticRecord, Json>> Kept;
  for (const std::string &File : Units) {
    auto Commands = Database->getCompileCommands(File);
    std::string Why = "not in the compile database";
    std::optional<Json> Lint = Commands.empty() ? std::nullopt : lintOf(Commands.front(), File, Why);
    if (!Lint) {
      Out.skipped.push_back({File, Why});
      continue;
    }
    if (Lint->contains("units")) {
      try {
        auto Records = unitRecordsFromJson(nlohmann::json::parse((*Lint)["units"].dump()));
        std::move(Records.begin(), Records.end(), std::back_inserter(Out.unitRecords));
      } catch (const nlohmann::json::exception &) {
        Out.skipped.push_back({File, "the sidecar's facts records are malformed"});
        continue;
      }
    }
    Json *Output = &(*Lint)["output"];
    ++Out.linted;
    Out.sources.push_back(File);
    for (const char *Key : {"diagnostics", "launches", "kernels", "notifications"})
      if (!Output->contains(Key) || !(*Output)[Key].is_array())
        (*Output)[Key] = Json::array();
    for (const Json &D : (*Output)["diagnostics"]) {
      auto Record = diagnosticFromJson(D);
      if (!Record || (Checks && !Checks->contains(Record->check)) ||
          !passesLineFilter(LineOptions, Record->file, Record->position.line))
        continue;
      // A header's findings come from every unit that includes it: once.
      Json Key = D;
      Key.erase("path");
      if (SeenDiagnostics.insert(dumped(Key)).second)
        Kept.emplace_back(std::move(*Record), D);
    }
    for (const Json &L : (*Output)["launches"])
      appendOnce(Out.launches, SeenLaunches, L);
    for (const Json &K : (*Output)["kernels"])
      appendOnce(Out.kernels, SeenKernels, K);
    for (const Json &N : (*Output)["notifications"])
      appendOnce(Out.notifications, SeenNotifications, N);
  }
  // In the order of a lint run's (lint/LintRun.cpp): the report page lists them so.
  std::stable_sort(Out.unitRecords.begin(), Out.unitRecords.end(), [](const auto &L, const auto &R) {
    return std::tie(L.mainFile, L.arch) < std::tie(R.mainFile, R.arch);
  });
  std::stable_sort(Kept.begin(), Kept.end(), [](const auto &A, const auto &B) {
    const DiagnosticRecord &X = A.first, &Y = B.first;
    return std::tie(X.file, X.position.line, X.position.column, X.check) <
           std::tie(Y.file, Y.position.line, Y.position.column, Y.check);
  });
  for (auto &[Record, Written] : Kept) {
    Out.diagnostics.push_back(std::move(Record));
    Out.diagnosticsJson.push_back(std::move(Written));
  }
  return Out;
}

} // namespace occlint
