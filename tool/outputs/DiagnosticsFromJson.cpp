#include "outputs/DiagnosticsFromJson.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <memory>

namespace occlint {

namespace {

using Json = nlohmann::ordered_json;

/// The text of each file a diagnostic names, read once, with its line starts.
class FileTexts {
public:
  /// The full position of (line, byte column) in `File`; line and column
  /// only when the file cannot be read or the place is past its end.
  SourcePosition at(const std::string &File, unsigned Line, unsigned Column) {
    SourcePosition P;
    P.line = Line;
    P.column = Column;
    const Entry *E = entry(File);
    if (!E || Line == 0 || Column == 0 || Line > E->lineStarts.size())
      return P;
    const uint64_t Offset = E->lineStarts[Line - 1] + (Column - 1);
    if (Offset > E->buffer->getBufferSize())
      return P;
    return positionAtLine(E->buffer->getBuffer(), E->lineStarts, Offset);
  }

private:
  struct Entry {
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    std::vector<size_t> lineStarts;
  };
  const Entry *entry(const std::string &File) {
    auto [It, New] = Files.try_emplace(File);
    if (New) {
      auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (Buffer) {
        It->second = std::make_unique<Entry>();
        It->second->buffer = std::move(*Buffer);
        llvm::StringRef Text = It->second->buffer->getBuffer();
        It->second->lineStarts.push_back(0);
        for (size_t I = 0; I < Text.size(); ++I)
          if (Text[I] == '\n')
            It->second->lineStarts.push_back(I + 1);
      }
    }
    return It->second.get();
  }
  std::map<std::string, std::unique_ptr<Entry>> Files;
};

FileTexts &texts() {
  thread_local FileTexts Texts;
  return Texts;
}

std::string stringField(const Json &J, const char *Key) {
  auto It = J.find(Key);
  return It != J.end() && It->is_string() ? It->get<std::string>() : std::string();
}

unsigned unsignedField(const Json &J, const char *Key) {
  auto It = J.find(Key);
  return It != J.end() && It->is_number_unsigned() ? It->get<unsigned>() : 0;
}

SourceSpan spanFromJson(const Json &J, const std::string &DefaultFile) {
  SourceSpan S;
  S.file = stringField(J, "file");
  if (S.file.empty())
    S.file = DefaultFile;
  auto Point = [&](const char *Key) {
    auto It = J.find(Key);
    if (It == J.end() || !It->is_object())
      return SourcePosition{};
    return texts().at(S.file, unsignedField(*It, "line"), unsignedField(*It, "column"));
  };
  S.begin = Point("begin");
  S.end = Point("end");
  return S;
}

std::vector<SourceSpan> spansFromJson(const Json &J, const char *Key, const std::string &DefaultFile) {
  std::vector<SourceSpan> Out;
  auto It = J.find(Key);
  if (It != J.end() && It->is_array())
    for (const Json &S : *It)
      if (S.is_object())
        Out.push_back(spanFromJson(S, DefaultFile));
  return Out;
}

std::vector<FixRecord> fixesFromJson(const Json &J, const std::string &DefaultFile) {
  std::vector<FixRecord> Out;
  auto It = J.find("fixes");
  if (It != J.end() && It->is_array())
    for (const Json &F : *It)
      if (F.is_object())
        Out.push_back({spanFromJson(F, DefaultFile), stringField(F, "replacement")});
  return Out;
}

} // namespace

std::optional<DiagnosticRecord> diagnosticFromJson(const Json &J) {
  if (!J.is_object())
    return std::nullopt;
  for (const char *Key : {"check", "severity", "message"})
    if (!J.contains(Key) || !J[Key].is_string())
      return std::nullopt;
  DiagnosticRecord D;
  D.check = J["check"].get<std::string>();
  D.severity = J["severity"].get<std::string>();
  D.message = J["message"].get<std::string>();
  D.warningAsError =
      J.contains("warningAsError") && J["warningAsError"].is_boolean() && J["warningAsError"].get<bool>();
  D.file = stringField(J, "file");
  D.position = texts().at(D.file, unsignedField(J, "line"), unsignedField(J, "column"));
  D.ranges = spansFromJson(J, "ranges", D.file);
  D.fixes = fixesFromJson(J, D.file);
  if (auto Notes = J.find("notes"); Notes != J.end() && Notes->is_array())
    for (const Json &N : *Notes) {
      if (!N.is_object())
        continue;
      NoteRecord Note;
      Note.message = stringField(N, "message");
      Note.file = stringField(N, "file");
      Note.position = texts().at(Note.file, unsignedField(N, "line"), unsignedField(N, "column"));
      Note.ranges = spansFromJson(N, "ranges", Note.file);
      Note.fixes = fixesFromJson(N, Note.file);
      D.notes.push_back(std::move(Note));
    }
  return D;
}

std::string clangStyleText(const DiagnosticRecord &D) {
  auto Where = [](const std::string &File, const SourcePosition &P) {
    if (File.empty())
      return std::string();
    return File + ":" + std::to_string(P.line) + ":" + std::to_string(P.column) + ": ";
  };
  std::string Out = Where(D.file, D.position) + D.severity + ": " + D.message + " [" + D.check +
                    (D.warningAsError ? ",-warnings-as-errors" : "") + "]\n";
  for (const NoteRecord &N : D.notes)
    Out += Where(N.file, N.position) + "note: " + N.message + "\n";
  return Out;
}

} // namespace occlint
