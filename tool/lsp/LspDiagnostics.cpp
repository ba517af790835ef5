#include "lsp/LspDiagnostics.h"

#include <map>

namespace occlint::lsp {

using nlohmann::json;

Position toPosition(const SourcePosition &P) {
  // Line 0: the file could not be read; the start of the file is all we know.
  return {P.line > 0 ? P.line - 1 : 0, P.utf16Column > 0 ? P.utf16Column - 1 : 0};
}

json toJson(const Position &P) { return {{"line", P.line}, {"character", P.character}}; }

json toJson(const Range &R) { return {{"start", toJson(R.start)}, {"end", toJson(R.end)}}; }

Range rangeFromJson(const json &J) {
  auto PositionOf = [](const json &P) {
    return Position{P.at("line").get<unsigned>(), P.at("character").get<unsigned>()};
  };
  return {PositionOf(J.at("start")), PositionOf(J.at("end"))};
}

int toSeverity(llvm::StringRef RecordSeverity) {
  if (RecordSeverity == "error")
    return 1;
  if (RecordSeverity == "remark")
    return 3;
  return 2;
}

// The first of `Ranges` in `File` that contains `At`, else an empty range at `At`.
static Range rangeAround(const std::string &File, const SourcePosition &At, const std::vector<SourceSpan> &Ranges) {
  for (const SourceSpan &S : Ranges)
    if (S.file == File && S.begin.line > 0 && S.begin.offset <= At.offset && At.offset <= S.end.offset)
      return {toPosition(S.begin), toPosition(S.end)};
  return {toPosition(At), toPosition(At)};
}

Range diagnosticRange(const DiagnosticRecord &R) { return rangeAround(R.file, R.position, R.ranges); }

json toDiagnostic(const DiagnosticRecord &R, const ConversionContext &C) {
  json D = {{"range", toJson(diagnosticRange(R))},
            {"severity", toSeverity(R.severity)},
            {"code", R.check},
            {"source", "occlint"}};
  if (C.docUrlFor)
    if (std::string Url = C.docUrlFor(R.check); !Url.empty())
      D["codeDescription"] = {{"href", Url}};
  std::string Message = R.message;
  json Related = json::array();
  for (const NoteRecord &N : R.notes) {
    if (N.file.empty()) {
      Message += "\n" + N.message;
      continue;
    }
    Related.push_back(
        {{"location", {{"uri", C.uriFor(N.file)}, {"range", toJson(rangeAround(N.file, N.position, N.ranges))}}},
         {"message", N.message}});
  }
  D["message"] = Message;
  if (!Related.empty())
    D["relatedInformation"] = std::move(Related);
  return D;
}

namespace {

// At most `Max` characters of `Text` on one line, for a title.
std::string shortened(llvm::StringRef Text, size_t Max = 40) {
  std::string Out;
  for (char Ch : Text)
    Out += (Ch == '\n' || Ch == '\r' || Ch == '\t') ? ' ' : Ch;
  if (Out.size() > Max) {
    Out.resize(Max);
    // Do not cut a UTF-8 sequence in two.
    while (!Out.empty() && (static_cast<unsigned char>(Out.back()) & 0xC0) == 0x80)
      Out.pop_back();
    if (!Out.empty() && static_cast<unsigned char>(Out.back()) >= 0xC0)
      Out.pop_back();
    Out += "...";
  }
  return Out;
}

// What a fix does, in a few words: "Replace with '128'", "Insert 'x'", "Delete code".
std::string describeFix(const std::vector<FixRecord> &Fixes) {
  if (Fixes.size() != 1)
    return "Apply the suggested fix";
  const FixRecord &F = Fixes.front();
  const bool Empty = F.span.begin.offset == F.span.end.offset;
  if (Empty)
    return "Insert '" + shortened(F.text) + "'";
  if (F.text.empty())
    return "Delete code";
  return "Replace with '" + shortened(F.text) + "'";
}

// The WorkspaceEdit of `Fixes` ({"changes": {uri: [TextEdit...]}}), or null
// when a fix's file could not be read.
json workspaceEdit(const std::vector<FixRecord> &Fixes, const ConversionContext &C) {
  std::map<std::string, json> Changes;
  for (const FixRecord &F : Fixes) {
    if (F.span.begin.line == 0 || F.span.end.line == 0)
      return nullptr;
    json &Edits = Changes[C.uriFor(F.span.file)];
    if (Edits.is_null())
      Edits = json::array();
    Edits.push_back({{"range", toJson(Range{toPosition(F.span.begin), toPosition(F.span.end)})}, {"newText", F.text}});
  }
  json Object = json::object();
  for (auto &[Uri, Edits] : Changes)
    Object[Uri] = std::move(Edits);
  return {{"changes", std::move(Object)}};
}

} // namespace

json codeActionsFor(const std::vector<DiagnosticRecord> &Records, const Range &Requested, const ConversionContext &C) {
  json Actions = json::array();
  for (const DiagnosticRecord &R : Records) {
    if (!diagnosticRange(R).touches(Requested))
      continue;
    const json Diagnostic = toDiagnostic(R, C);
    auto Add = [&](const std::vector<FixRecord> &Fixes, const std::string &Title, bool Preferred) {
      if (Fixes.empty())
        return;
      json Edit = workspaceEdit(Fixes, C);
      if (Edit.is_null())
        return;
      json Action = {{"title", Title},
                     {"kind", "quickfix"},
                     {"diagnostics", json::array({Diagnostic})},
                     {"edit", std::move(Edit)}};
      if (Preferred)
        Action["isPreferred"] = true;
      Actions.push_back(std::move(Action));
    };
    // The diagnostic's own fix is what `occlint --fix` applies: preferred.
    Add(R.fixes, describeFix(R.fixes) + " (" + R.check + ")", /*Preferred=*/true);
    for (const NoteRecord &N : R.notes)
      Add(N.fixes, shortened(N.message, 80) + " (" + R.check + ")", /*Preferred=*/false);
  }
  return Actions;
}

} // namespace occlint::lsp
