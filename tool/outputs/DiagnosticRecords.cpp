#include "outputs/DiagnosticRecords.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <memory>

namespace occlint {

SourcePosition positionAt(llvm::StringRef Text, uint64_t Offset) {
  SourcePosition P;
  P.offset = Offset;
  if (Offset > Text.size())
    return P;
  const size_t LineStart = Offset == 0 ? 0 : Text.rfind('\n', Offset - 1) + 1; // npos + 1 == 0
  P.line = 1 + unsigned(Text.take_front(LineStart).count('\n'));
  P.column = unsigned(Offset - LineStart) + 1;
  unsigned CodePoints = 0, Utf16 = 0;
  for (size_t I = LineStart; I < Offset; ++I) {
    const unsigned char C = Text[I];
    if ((C & 0xC0) == 0x80)
      continue; // a continuation byte
    ++CodePoints;
    Utf16 += C >= 0xF0 ? 2 : 1; // 4-byte sequences are surrogate pairs
  }
  P.codePointColumn = CodePoints + 1;
  P.utf16Column = Utf16 + 1;
  return P;
}

namespace {

class FileTexts {
public:
  /// The file's text, or null when it cannot be read.
  const llvm::MemoryBuffer *get(llvm::StringRef Path) {
    auto [It, New] = Texts.try_emplace(Path);
    if (New) {
      if (auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false))
        It->second = std::move(*Buffer);
    }
    return It->second.get();
  }

  SourcePosition position(llvm::StringRef Path, uint64_t Offset) {
    const llvm::MemoryBuffer *Text = get(Path);
    if (!Text) {
      SourcePosition P;
      P.offset = Offset;
      return P;
    }
    return positionAt(Text->getBuffer(), Offset);
  }

  SourceSpan span(llvm::StringRef Path, uint64_t Offset, uint64_t Length) {
    return {Path.str(), position(Path, Offset), position(Path, Offset + Length)};
  }

private:
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Texts;
};

// Paths in clang-tidy's messages are as the parse opened them; relative ones
// are relative to the build directory.
std::string absolutePath(llvm::StringRef Path, llvm::StringRef BuildDirectory) {
  if (Path.empty() || llvm::sys::path::is_absolute(Path))
    return Path.str();
  llvm::SmallString<256> Absolute(BuildDirectory);
  llvm::sys::path::append(Absolute, Path);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

std::vector<FixRecord> fixesOf(const clang::tooling::DiagnosticMessage &Message, llvm::StringRef BuildDirectory,
                               FileTexts &Texts) {
  std::vector<FixRecord> Fixes;
  for (const auto &[FilePath, Replacements] : Message.Fix)
    for (const clang::tooling::Replacement &R : Replacements) {
      const std::string Path = absolutePath(R.getFilePath(), BuildDirectory);
      Fixes.push_back({Texts.span(Path, R.getOffset(), R.getLength()), R.getReplacementText().str()});
    }
  return Fixes;
}

std::vector<SourceSpan> rangesOf(const clang::tooling::DiagnosticMessage &Message, llvm::StringRef BuildDirectory,
                                 FileTexts &Texts) {
  std::vector<SourceSpan> Ranges;
  for (const clang::tooling::FileByteRange &R : Message.Ranges)
    Ranges.push_back(Texts.span(absolutePath(R.FilePath, BuildDirectory), R.FileOffset, R.Length));
  return Ranges;
}

const char *severityName(const clang::tidy::ClangTidyError &E) {
  if (E.IsWarningAsError)
    return "error";
  switch (E.DiagLevel) {
  case clang::tooling::Diagnostic::Remark:
    return "remark";
  case clang::tooling::Diagnostic::Warning:
    return "warning";
  case clang::tooling::Diagnostic::Error:
    return "error";
  }
  return "warning";
}

} // namespace

std::vector<DiagnosticRecord> toDiagnosticRecords(const std::vector<clang::tidy::ClangTidyError> &Errors) {
  FileTexts Texts;
  std::vector<DiagnosticRecord> Records;
  for (const clang::tidy::ClangTidyError &E : Errors) {
    DiagnosticRecord R;
    R.check = E.DiagnosticName;
    R.severity = severityName(E);
    R.warningAsError = E.IsWarningAsError;
    R.message = E.Message.Message;
    R.file = absolutePath(E.Message.FilePath, E.BuildDirectory);
    if (!R.file.empty())
      R.position = Texts.position(R.file, E.Message.FileOffset);
    R.ranges = rangesOf(E.Message, E.BuildDirectory, Texts);
    R.fixes = fixesOf(E.Message, E.BuildDirectory, Texts);
    for (const clang::tooling::DiagnosticMessage &Note : E.Notes) {
      NoteRecord N;
      N.message = Note.Message;
      N.file = absolutePath(Note.FilePath, E.BuildDirectory);
      if (!N.file.empty())
        N.position = Texts.position(N.file, Note.FileOffset);
      N.ranges = rangesOf(Note, E.BuildDirectory, Texts);
      N.fixes = fixesOf(Note, E.BuildDirectory, Texts);
      R.notes.push_back(std::move(N));
    }
    Records.push_back(std::move(R));
  }
  return Records;
}

} // namespace occlint
