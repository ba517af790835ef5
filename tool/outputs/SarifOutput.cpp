// --format=sarif: SARIF 2.1.0 (docs/output-formats.md describes the mapping).
// One run; the driver's rules are every documented check plus any other rule
// that has a result (clang-diagnostic-error, ...). Files under the current
// directory are named relative to %SRCROOT% (what GitHub code scanning
// wants), others by absolute file:// URIs.
#include "OcclintVersion.h"
#include "outputs/OutputFormats.h"

#include "FileUris.h"
#include "outputs/CheckCatalog.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace occlint {

namespace {

using Json = nlohmann::ordered_json;

constexpr const char SarifSchema[] = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr const char SourceRootId[] = "%SRCROOT%";
constexpr const char CudaRootId[] = "CUDAROOT";

std::string sarifLevel(llvm::StringRef Severity) {
  if (Severity == "error")
    return "error";
  if (Severity == "remark")
    return "note";
  return "warning";
}

// "cuda-launch-tiny-grid" -> "CudaLaunchTinyGrid": SARIF's "friendly name".
std::string pascalCase(llvm::StringRef Id) {
  std::string Name;
  bool Upper = true;
  for (char C : Id) {
    if (!llvm::isAlnum(C)) {
      Upper = true;
      continue;
    }
    Name += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Name;
}

// The summary's first sentence, past a leading one-word one ("Error."), for
// the rule's short description.
std::string firstSentence(llvm::StringRef Text) {
  size_t Start = 0;
  for (size_t I = 0; I + 1 < Text.size(); ++I) {
    // A sentence ends at ". " before a capital letter or a digit.
    if (Text[I] != '.' || Text[I + 1] != ' ' || I + 2 >= Text.size() || llvm::isLower(Text[I + 2]))
      continue;
    llvm::StringRef Sentence = Text.slice(Start, I + 1).trim();
    if (Sentence.contains(' '))
      return Sentence.str();
    Start = I + 2;
  }
  return Text.substr(Start).trim().str();
}

// Where the rules of checks without a page in the catalog are documented.
std::string externalHelpUri(llvm::StringRef Id) {
  if (Id.starts_with("clang-diagnostic-"))
    return "https://clang.llvm.org/docs/DiagnosticsReference.html";
  if (Id.starts_with("clang-analyzer-"))
    return "https://clang.llvm.org/docs/analyzer/checkers.html";
  return "https://clang.llvm.org/extra/clang-tidy/checks/list.html";
}

// The rules, in order: the catalog's checks, then the other rule ids of the
// results (first-seen severity as their default level).
class RuleTable {
public:
  explicit RuleTable(const std::vector<DiagnosticRecord> &Diagnostics) {
    for (const CheckDoc &Doc : checkCatalog())
      add(Doc.name, catalogRule(Doc));
    for (const DiagnosticRecord &D : Diagnostics)
      if (!Index.count(D.check))
        add(D.check, externalRule(D.check, D.warningAsError ? "warning" : D.severity));
  }
  size_t indexOf(const std::string &Id) const { return Index.at(Id); }
  Json take() { return std::move(Rules); }

private:
  void add(const std::string &Id, Json Rule) {
    Index.emplace(Id, Rules.size());
    Rules.push_back(std::move(Rule));
  }

  static Json catalogRule(const CheckDoc &Doc) {
    return {{"id", Doc.name},
            {"name", pascalCase(Doc.name)},
            {"shortDescription", {{"text", firstSentence(Doc.summary)}}},
            {"fullDescription", {{"text", Doc.summary}}},
            {"help", {{"text", Doc.markdown}, {"markdown", Doc.markdown}}},
            {"helpUri", Doc.url},
            {"defaultConfiguration", {{"level", sarifLevel(Doc.defaultSeverity)}}}};
  }

  static Json externalRule(const std::string &Id, const std::string &Severity) {
    const std::string Text = Id.starts_with("clang-diagnostic-") ? "Clang's compiler diagnostic " + Id + "."
                                                                 : "clang-tidy's check " + Id + ".";
    const std::string Help = Text + " occlint reports it as Clang or clang-tidy does; see " + externalHelpUri(Id) + ".";
    return {{"id", Id},
            {"name", pascalCase(Id)},
            {"shortDescription", {{"text", Text}}},
            {"fullDescription", {{"text", Text}}},
            {"help", {{"text", Help}, {"markdown", Help}}},
            {"helpUri", externalHelpUri(Id)},
            {"defaultConfiguration", {{"level", sarifLevel(Severity)}}}};
  }

  Json Rules = Json::array();
  std::map<std::string, size_t> Index;
};

// Artifact locations: relative to the project root (%SRCROOT%, the run's
// PathRoots: --root, the git top level or the sources' common directory,
// else the current directory) or to the CUDA toolkit (CUDAROOT) when the
// file is under one, else absolute file:// URIs; every file once in
// run.artifacts.
class Artifacts {
public:
  explicit Artifacts(const PathRoots &Roots) {
    std::string Project = Roots.project;
    if (Project.empty()) {
      llvm::SmallString<256> Current;
      if (!llvm::sys::fs::current_path(Current))
        Project = std::string(Current);
    }
    addBase(SourceRootId, Project);
    addBase(CudaRootId, Roots.cuda);
    addBase(CudaRootId, Roots.cudaResolved);
  }

  Json location(const std::string &File) {
    Json Location = {{"uri", fileUri(File)}};
    for (const Base &B : Bases) {
      llvm::StringRef Path = File;
      if (Path.consume_front(B.directory)) {
        Location = {{"uri", percentEncodePath(Path)}, {"uriBaseId", B.id}};
        break;
      }
    }
    auto [It, New] = Index.emplace(File, Listed.size());
    if (New) {
      if (Location.contains("uriBaseId"))
        Used.insert(Location["uriBaseId"].get<std::string>());
      Listed.push_back({{"location", Location}});
    }
    return Location;
  }

  Json list() const { return Listed; }
  /// originalUriBaseIds, or null when no location uses a base.
  Json baseIds() const {
    if (Used.empty())
      return nullptr;
    Json Out = Json::object();
    for (const Base &B : Bases)
      if (Used.count(B.id) && !Out.contains(B.id))
        Out[B.id] = {{"uri", fileUri(B.directory)}};
    return Out;
  }

private:
  struct Base {
    std::string id, directory; // the directory ends in '/'
  };
  void addBase(const char *Id, std::string Directory) {
    if (Directory.empty())
      return;
    if (Directory.back() != '/')
      Directory += '/';
    Bases.push_back({Id, std::move(Directory)});
  }
  std::vector<Base> Bases; // in order of preference: the project's before the toolkit's
  std::map<std::string, size_t> Index;
  Json Listed = Json::array();
  std::set<std::string> Used;
};

Json region(const SourcePosition &Begin, const SourcePosition &End) {
  return {{"startLine", Begin.line},
          {"startColumn", Begin.codePointColumn},
          {"endLine", End.line},
          {"endColumn", End.codePointColumn}};
}

// A diagnostic's or a note's place: from its position to the end of the
// first of its ranges that contains the position (clang's caret and
// underline); an empty region at the position when none does.
Json physicalLocation(Artifacts &Files, const std::string &File, const SourcePosition &Position,
                      const std::vector<SourceSpan> &Ranges) {
  Json Location = {{"artifactLocation", Files.location(File)}};
  if (Position.line == 0) // the file could not be read
    return Location;
  SourcePosition End = Position;
  for (const SourceSpan &R : Ranges)
    if (R.file == File && R.begin.line != 0 && R.begin.offset <= Position.offset && Position.offset < R.end.offset) {
      End = R.end;
      break;
    }
  Location["region"] = region(Position, End);
  return Location;
}

std::string fixDescription(const std::vector<FixRecord> &Fixes) {
  if (Fixes.size() != 1)
    return "Apply " + std::to_string(Fixes.size()) + " edits.";
  const FixRecord &F = Fixes.front();
  if (F.span.begin.offset == F.span.end.offset)
    return "Insert '" + F.text + "'.";
  if (F.text.empty())
    return "Delete the text.";
  return "Replace with '" + F.text + "'.";
}

Json fix(Artifacts &Files, const std::string &Description, const std::vector<FixRecord> &Fixes) {
  // One artifactChange per file, its replacements in order.
  std::map<std::string, Json> ChangesByFile;
  std::vector<std::string> Order;
  for (const FixRecord &F : Fixes) {
    Json Replacement = {{"deletedRegion", region(F.span.begin, F.span.end)}};
    if (!F.text.empty())
      Replacement["insertedContent"] = {{"text", F.text}};
    auto [It, New] = ChangesByFile.try_emplace(F.span.file);
    if (New) {
      Order.push_back(F.span.file);
      It->second = {{"artifactLocation", Files.location(F.span.file)}, {"replacements", Json::array()}};
    }
    It->second["replacements"].push_back(std::move(Replacement));
  }
  Json Changes = Json::array();
  for (const std::string &File : Order)
    Changes.push_back(std::move(ChangesByFile[File]));
  return {{"description", {{"text", Description}}}, {"artifactChanges", std::move(Changes)}};
}

Json result(const DiagnosticRecord &D, const RuleTable &Rules, Artifacts &Files) {
  Json Result = {{"ruleId", D.check},
                 {"ruleIndex", Rules.indexOf(D.check)},
                 {"level", sarifLevel(D.severity)},
                 {"message", {{"text", D.message}}}};
  if (!D.file.empty())
    Result["locations"] = Json::array({{{"physicalLocation", physicalLocation(Files, D.file, D.position, D.ranges)}}});

  Json Related = Json::array();
  for (size_t I = 0; I < D.notes.size(); ++I) {
    const NoteRecord &N = D.notes[I];
    Json Location = {{"id", I + 1}, {"message", {{"text", N.message}}}};
    if (!N.file.empty())
      Location["physicalLocation"] = physicalLocation(Files, N.file, N.position, N.ranges);
    Related.push_back(std::move(Location));
  }
  if (!Related.empty())
    Result["relatedLocations"] = std::move(Related);

  // The diagnostic's own fix, then the notes' (alternatives, as --fix-notes applies them).
  Json Fixes = Json::array();
  if (!D.fixes.empty())
    Fixes.push_back(fix(Files, fixDescription(D.fixes), D.fixes));
  for (const NoteRecord &N : D.notes)
    if (!N.fixes.empty())
      Fixes.push_back(fix(Files, N.message, N.fixes));
  if (!Fixes.empty())
    Result["fixes"] = std::move(Fixes);
  return Result;
}

constexpr const char ParseGapId[] = "occlint-nvcc-parity";

// The descriptor of the one notification occlint gives (tool.driver.notifications).
Json parseGapDescriptor() {
  const std::string Text = "Clang cannot parse code that nvcc accepts: occlint did not report Clang's errors in a "
                           "file nvcc compiled, and did not analyse the functions that have them.";
  return {{"id", ParseGapId},
          {"name", pascalCase(ParseGapId)},
          {"shortDescription", {{"text", "Clang cannot parse code that nvcc accepts."}}},
          {"fullDescription", {{"text", Text}}},
          {"defaultConfiguration", {{"level", "warning"}}}};
}

// A parse whose Clang errors occlint hid, at Clang's first error.
Json parseGapNotification(const ParseGapNotice &N, Artifacts &Files) {
  Json Notification = {
      {"descriptor", {{"id", ParseGapId}, {"index", 0}}}, {"level", "warning"}, {"message", {{"text", N.message()}}}};
  const DiagnosticRecord &E = N.firstError;
  if (!E.file.empty())
    Notification["locations"] =
        Json::array({{{"physicalLocation", physicalLocation(Files, E.file, E.position, E.ranges)}}});
  Json Properties = {{"file", N.file}, {"arch", N.arch}, {"findingsDropped", N.findingsDropped}};
  if (N.functionsNotAnalysed)
    Properties["functionsNotAnalysed"] = *N.functionsNotAnalysed;
  Notification["properties"] = std::move(Properties);
  return Notification;
}

} // namespace

void writeSarifOutput(const LintResult &Result, llvm::raw_ostream &OS) {
  RuleTable Rules(Result.diagnostics);
  Artifacts Files(Result.roots);
  Json Results = Json::array();
  for (size_t I = 0; I < Result.diagnostics.size(); ++I) {
    Json R = result(Result.diagnostics[I], Rules, Files);
    // --baseline: SARIF's own field. Fixed findings are not listed as
    // "absent" results: code scanning would show them as alerts.
    if (Result.baseline)
      R["baselineState"] = Result.baseline->isNew[I] ? "new" : "unchanged";
    Results.push_back(std::move(R));
  }
  Json Notifications = Json::array();
  for (const ParseGapNotice &N : Result.parseGaps)
    Notifications.push_back(parseGapNotification(N, Files));

  Json Driver = {{"name", "occlint"},
                 {"version", OCCLINT_VERSION},
                 {"semanticVersion", OCCLINT_VERSION},
                 {"informationUri", checkIndexUrl()},
                 {"rules", Rules.take()}};
  if (!Notifications.empty())
    Driver["notifications"] = Json::array({parseGapDescriptor()});
  Json Run = {{"tool", {{"driver", std::move(Driver)}}}};
  // An invocation only to carry the notifications: the run itself succeeded.
  if (!Notifications.empty())
    Run["invocations"] =
        Json::array({{{"executionSuccessful", true}, {"toolExecutionNotifications", std::move(Notifications)}}});
  if (Json BaseIds = Files.baseIds(); !BaseIds.is_null())
    Run["originalUriBaseIds"] = std::move(BaseIds);
  Run["artifacts"] = Files.list();
  Run["columnKind"] = "unicodeCodePoints";
  Run["results"] = std::move(Results);

  Json Log = {{"$schema", SarifSchema}, {"version", "2.1.0"}, {"runs", Json::array({std::move(Run)})}};
  // Messages quote source text, which need not be UTF-8: bad bytes become U+FFFD.
  OS << Log.dump(2, ' ', /*ensure_ascii=*/false, Json::error_handler_t::replace) << "\n";
}

} // namespace occlint
