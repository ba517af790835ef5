// What the program running the checks tells them about the run, beyond
// clang-tidy's options: the one place where such state lives.
//
// # Why not an argument
// clang-tidy's engine constructs every check from its name and a
// ClangTidyContext; nothing else can be handed to it. So the occlint binary
// installs the context here, with a scope object that puts the previous one
// back, and the facts (TranslationUnitFacts) read it. Inside
// `clang-tidy --load` nothing is installed and every member keeps its
// default: the checks then run the resource compiles themselves, send their
// records nowhere, and analyse the arch of the parse.
//
// # What it holds
// - RunContext, for the process (one lint run):
//   - resourceReports: where each translation unit's ptxas report comes from
//     (the tool's compile database, occlint-wrap's sidecars);
//   - records: where each translation unit's facts go (JSON, the report page).
// - ParseContext, for one thread (occlint --jobs runs one parse per thread):
//   - arch: the arch the checks run for, instead of the parse's
//     (tool/lint/CheckParse.h runs the checks again on one parse per arch);
//   - extents: where a parse with errors sends its functions' extents
//     (tool/lint's degraded parses).
#pragma once

#include "facts/FactsRecords.h"
#include "facts/FunctionExtents.h"
#include "facts/ResourceReports.h"

#include <string>

namespace clang::tidy::occlint {

struct RunContext {
  ResourceReportSource *resourceReports = nullptr;
  FactsRecordSink *records = nullptr;
};

struct ParseContext {
  std::string arch; // "" : the arch of the parse
  FunctionExtentSink *extents = nullptr;
};

/// The installed contexts (the defaults when none is).
const RunContext &runContext();
const ParseContext &parseContext();

/// Installs `Context` for the process while alive; the previous one is back
/// after. Not for concurrent installation: the tool installs it before its
/// worker threads start (or in a worker process of its own).
class RunContextScope {
public:
  explicit RunContextScope(RunContext Context);
  ~RunContextScope();
  RunContextScope(const RunContextScope &) = delete;
  RunContextScope &operator=(const RunContextScope &) = delete;

private:
  RunContext Previous;
};

/// Installs `Context` for this thread while alive; the previous one is back after.
class ParseContextScope {
public:
  explicit ParseContextScope(ParseContext Context);
  ~ParseContextScope();
  ParseContextScope(const ParseContextScope &) = delete;
  ParseContextScope &operator=(const ParseContextScope &) = delete;

private:
  ParseContext Previous;
};

} // namespace clang::tidy::occlint
