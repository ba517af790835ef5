#include "outputs/DiagnosticRecords.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace occlint {

// The columns of Offset, on the line that starts at LineStart.
static SourcePosition columnsAt(llvm::StringRef Text, size_t LineStart, unsigned Line, uint64_t Offset) {
  SourcePosition P;
  P.offset = Offset;
  P.line = Line;
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

SourcePosition positionAt(llvm::StringRef Text, uint64_t Offset) {
  if (Offset > Text.size()) {
    SourcePosition P;
    P.offset = Offset;
    return P;
  }
  const size_t LineStart = Offset == 0 ? 0 : Text.rfind('\n', Offset - 1) + 1; // npos + 1 == 0
  return columnsAt(Text, LineStart, 1 + unsigned(Text.take_front(LineStart).count('\n')), Offset);
}

SourcePosition positionAtLine(llvm::StringRef Text, const std::vector<size_t> &LineStarts, uint64_t Offset) {
  if (Offset > Text.size() || LineStarts.empty()) {
    SourcePosition P;
    P.offset = Offset;
    return P;
  }
  const auto Next = std::upper_bound(LineStarts.begin(), LineStarts.end(), size_t(Offset));
  const size_t Line = size_t(Next - LineStarts.begin()); // 1-based: LineStarts[0] == 0 <= Offset
  return columnsAt(Text, LineStarts[Line - 1], unsigned(Line), Offset);
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
    // The line from the file's table of line starts (built once per file):
    // counting newlines from the start for every diagnostic would cost the
    // number of diagnostics times the size of the file.
    auto [It, New] = LineStarts.try_emplace(Path);
    std::vector<size_t> &Starts = It->second;
    if (New) {
      llvm::StringRef Buffer = Text->getBuffer();
      Starts.push_back(0);
      for (size_t I = Buffer.find('\n'); I != llvm::StringRef::npos; I = Buffer.find('\n', I + 1))
        Starts.push_back(I + 1);
    }
    return positionAtLine(Text->getBuffer(), Starts, Offset);
  }

  SourceSpan span(llvm::StringRef Path, uint64_t Offset, uint64_t Length) {
    return {Path.str(), position(Path, Offset), position(Path, Offset + Length)};
  }

private:
  llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> Texts;
  llvm::StringMap<std::vector<size_t>> LineStarts;
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
