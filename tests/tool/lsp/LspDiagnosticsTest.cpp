// Findings as the Language Server Protocol's diagnostics and code actions
// (tool/lsp/LspDiagnostics.h), from clang-tidy errors at byte offsets in real
// files, through DiagnosticRecords: 0-based lines, UTF-16 columns, severity,
// code and its documentation link, notes as related information, fixes as
// quick fixes with workspace edits. And the file: URIs of documents
// (tool/lsp/LspUri.h).
#include "lsp/LspDiagnostics.h"
#include "FileUris.h"
#include "lsp/LspUri.h"
#include "outputs/DiagnosticRecords.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/Core/Replacement.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

using namespace occlint;
using namespace occlint::lsp;
using nlohmann::json;
using occlint::testing::ScratchDir;

namespace {

// Line 2 (LSP line 1) has non-ASCII characters before the launch:
// "ö" and "ß" are 2 bytes and 1 UTF-16 unit each, "𝄞" is 4 bytes and a
// surrogate pair (2 units).
const std::string Source = "__global__ void k(int *p);\n"
                           "void f(int *p) { /* Gr\xC3\xB6\xC3\x9F"
                           "e \xF0\x9D\x84\x9E */ k<<<2, 100>>>(p); }\n"
                           "constexpr int kBlock = 96;\n";
// UTF-16 units before "100" on line 2: "void f(int *p) { /* " (20) + "Größe" (5)
// + " " (1) + "𝄞" (2) + " */ k<<<1, " (11).
constexpr unsigned Utf16ColumnOf100 = 39;

clang::tidy::ClangTidyError error(const std::string &File, const std::string &Check,
                                  clang::tooling::Diagnostic::Level Level, const std::string &Message, size_t Offset,
                                  size_t Length) {
  clang::tidy::ClangTidyError E(Check, Level, llvm::sys::path::parent_path(File), /*IsWarningAsError=*/false);
  E.Message.Message = Message;
  E.Message.FilePath = File;
  E.Message.FileOffset = unsigned(Offset);
  clang::tooling::FileByteRange Range;
  Range.FilePath = File;
  Range.FileOffset = unsigned(Offset);
  Range.Length = unsigned(Length);
  E.Message.Ranges.push_back(Range);
  return E;
}

void addFix(clang::tooling::DiagnosticMessage &M, const std::string &File, size_t Offset, size_t Length,
            const std::string &Text) {
  llvm::cantFail(M.Fix[File].add(clang::tooling::Replacement(File, unsigned(Offset), unsigned(Length), Text)));
}

ConversionContext plainContext() {
  ConversionContext C;
  C.uriFor = [](llvm::StringRef Path) { return fileUri(Path); };
  C.docUrlFor = [](llvm::StringRef Check) {
    return Check.starts_with("cuda-") ? "https://example.org/checks/" + Check.str() + ".md" : std::string();
  };
  return C;
}

class LspDiagnostics : public ::testing::Test {
protected:
  ScratchDir Dir;
  std::string File = Dir.write("kernels with space/launch\xC3\xA9.cu", Source);
  size_t Offset100 = Source.find("100>>>");
  std::string Uri = fileUri(File);

  DiagnosticRecord blockWarning() {
    auto E = error(File, "cuda-launch-block-not-warp-multiple", clang::tooling::Diagnostic::Warning,
                   "block of 100 threads is not a multiple of the warp size (32)", Offset100, 3);
    addFix(E.Message, File, Offset100, 3, "128");
    return toDiagnosticRecords({E}).front();
  }
};

TEST_F(LspDiagnostics, ColumnsAreUtf16CodeUnitsFromZero) {
  const json D = toDiagnostic(blockWarning(), plainContext());
  EXPECT_EQ(D["range"]["start"]["line"], 1);
  EXPECT_EQ(D["range"]["start"]["character"], Utf16ColumnOf100);
  EXPECT_EQ(D["range"]["end"]["line"], 1);
  EXPECT_EQ(D["range"]["end"]["character"], Utf16ColumnOf100 + 3);
  // Not the byte column: the line's multi-byte characters are 6 bytes more.
  const size_t LineStart = Source.rfind('\n', Offset100) + 1;
  EXPECT_EQ(Offset100 - LineStart, Utf16ColumnOf100 + 4);
}

TEST_F(LspDiagnostics, SeverityCodeSourceAndDocumentation) {
  const json D = toDiagnostic(blockWarning(), plainContext());
  EXPECT_EQ(D["severity"], 2);
  EXPECT_EQ(D["code"], "cuda-launch-block-not-warp-multiple");
  EXPECT_EQ(D["source"], "occlint");
  EXPECT_EQ(D["message"], "block of 100 threads is not a multiple of the warp size (32)");
  EXPECT_EQ(D["codeDescription"]["href"], "https://example.org/checks/cuda-launch-block-not-warp-multiple.md");
  EXPECT_FALSE(D.contains("relatedInformation"));

  auto Error =
      error(File, "clang-diagnostic-error", clang::tooling::Diagnostic::Error, "use of undeclared identifier", 0, 1);
  auto Remark = error(File, "cuda-occupancy-report", clang::tooling::Diagnostic::Remark, "occupancy 50%", 0, 1);
  auto Promoted = error(File, "cuda-launch-tiny-grid", clang::tooling::Diagnostic::Warning, "tiny", 0, 1);
  Promoted.IsWarningAsError = true;
  const auto Records = toDiagnosticRecords({Error, Remark, Promoted});
  const json ErrorD = toDiagnostic(Records[0], plainContext());
  EXPECT_EQ(ErrorD["severity"], 1);
  EXPECT_FALSE(ErrorD.contains("codeDescription")); // no page for compiler errors
  EXPECT_EQ(toDiagnostic(Records[1], plainContext())["severity"], 3);
  EXPECT_EQ(toDiagnostic(Records[2], plainContext())["severity"], 1);
}

TEST_F(LspDiagnostics, NotesBecomeRelatedInformation) {
  auto E = error(File, "cuda-launch-block-not-warp-multiple", clang::tooling::Diagnostic::Warning, "block of 100",
                 Offset100, 3);
  const size_t KBlock = Source.find("kBlock");
  clang::tooling::DiagnosticMessage Located("'kBlock' is defined here as 96");
  Located.FilePath = File;
  Located.FileOffset = unsigned(KBlock);
  clang::tooling::DiagnosticMessage Unlocated("assuming the default arch sm_75");
  E.Notes = {Located, Unlocated};
  const json D = toDiagnostic(toDiagnosticRecords({E}).front(), plainContext());
  ASSERT_EQ(D["relatedInformation"].size(), 1u) << D.dump(2);
  const json &Related = D["relatedInformation"][0];
  EXPECT_EQ(Related["message"], "'kBlock' is defined here as 96");
  EXPECT_EQ(Related["location"]["uri"], Uri);
  EXPECT_EQ(Related["location"]["range"]["start"]["line"], 2);
  EXPECT_EQ(Related["location"]["range"]["start"]["character"], KBlock - Source.rfind('\n', KBlock) - 1);
  // A note with no place to point at is kept in the message.
  EXPECT_EQ(D["message"], "block of 100\nassuming the default arch sm_75");
}

TEST_F(LspDiagnostics, FileUrisArePercentEncodedAndDecodedBack) {
  EXPECT_NE(Uri.find("kernels%20with%20space/launch%C3%A9.cu"), std::string::npos) << Uri;
  EXPECT_EQ(filePathFromUri(Uri), File);
  EXPECT_EQ(filePathFromUri("file://localhost/tmp/a%2Bb.cu"), "/tmp/a+b.cu");
  EXPECT_EQ(filePathFromUri("FILE:///tmp/x.cu"), "/tmp/x.cu");
  EXPECT_EQ(filePathFromUri("file:/tmp/x.cu"), "/tmp/x.cu");
  EXPECT_EQ(filePathFromUri("untitled:Untitled-1"), std::nullopt);
  EXPECT_EQ(filePathFromUri("file://otherhost/tmp/x.cu"), std::nullopt);
  EXPECT_EQ(filePathFromUri("file:///tmp/bad%2"), std::nullopt);
  EXPECT_EQ(filePathFromUri("file:///tmp/bad%zz.cu"), std::nullopt);
}

TEST_F(LspDiagnostics, CodeActionEditsTheFixedRangeInUtf16) {
  const DiagnosticRecord R = blockWarning();
  // A cursor inside "100".
  const Range Cursor{{1, Utf16ColumnOf100 + 1}, {1, Utf16ColumnOf100 + 1}};
  const json Actions = codeActionsFor({R}, Cursor, plainContext());
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(2);
  const json &A = Actions[0];
  EXPECT_EQ(A["kind"], "quickfix");
  EXPECT_EQ(A["isPreferred"], true);
  EXPECT_NE(A["title"].get<std::string>().find("'128'"), std::string::npos) << A["title"];
  ASSERT_EQ(A["diagnostics"].size(), 1u);
  EXPECT_EQ(A["diagnostics"][0], toDiagnostic(R, plainContext()));
  ASSERT_TRUE(A["edit"]["changes"].contains(Uri)) << A.dump(2);
  const json &Edits = A["edit"]["changes"][Uri];
  ASSERT_EQ(Edits.size(), 1u);
  EXPECT_EQ(Edits[0]["newText"], "128");
  EXPECT_EQ(Edits[0]["range"], toJson(Range{{1, Utf16ColumnOf100}, {1, Utf16ColumnOf100 + 3}}));
}

TEST_F(LspDiagnostics, CodeActionsOnlyForDiagnosticsTouchingTheRange) {
  const DiagnosticRecord R = blockWarning();
  // Just after the diagnostic's end still touches it (the cursor after "100").
  EXPECT_EQ(codeActionsFor({R}, Range{{1, Utf16ColumnOf100 + 3}, {1, Utf16ColumnOf100 + 3}}, plainContext()).size(),
            1u);
  EXPECT_EQ(codeActionsFor({R}, Range{{0, 0}, {0, 5}}, plainContext()).size(), 0u);
  EXPECT_EQ(codeActionsFor({R}, Range{{1, Utf16ColumnOf100 + 4}, {2, 0}}, plainContext()).size(), 0u);
  // A selection across several lines that contains it.
  EXPECT_EQ(codeActionsFor({R}, Range{{0, 3}, {2, 1}}, plainContext()).size(), 1u);
}

TEST_F(LspDiagnostics, NoteFixesAreActionsOfTheirOwnAndUnfixableDiagnosticsHaveNone) {
  auto E = error(File, "cuda-launch-block-not-warp-multiple", clang::tooling::Diagnostic::Warning, "block of 100",
                 Offset100, 3);
  clang::tooling::DiagnosticMessage Note("round down to 96 threads");
  Note.FilePath = File;
  Note.FileOffset = unsigned(Offset100);
  addFix(Note, File, Offset100, 3, "96");
  E.Notes = {Note};
  auto NoFix =
      error(File, "cuda-launch-tiny-grid", clang::tooling::Diagnostic::Warning, "tiny grid", Source.find("1, 100"), 1);
  const json Actions = codeActionsFor(toDiagnosticRecords({E, NoFix}), Range{{1, 0}, {1, 60}}, plainContext());
  ASSERT_EQ(Actions.size(), 1u) << Actions.dump(2);
  EXPECT_EQ(Actions[0]["title"], "round down to 96 threads (cuda-launch-block-not-warp-multiple)");
  EXPECT_FALSE(Actions[0].contains("isPreferred"));
  EXPECT_EQ(Actions[0]["edit"]["changes"][Uri][0]["newText"], "96");
}

TEST_F(LspDiagnostics, FixesInAnUnreadableFileAreLeftOut) {
  const std::string Gone = (Dir.path() / "gone.cu").string();
  auto E = error(File, "cuda-launch-block-not-warp-multiple", clang::tooling::Diagnostic::Warning, "block of 100",
                 Offset100, 3);
  addFix(E.Message, Gone, 10, 3, "128");
  EXPECT_EQ(codeActionsFor(toDiagnosticRecords({E}), Range{{1, 0}, {1, 60}}, plainContext()).size(), 0u);
}

TEST_F(LspDiagnostics, DocumentUrisComeFromTheContext) {
  ConversionContext C = plainContext();
  C.uriFor = [](llvm::StringRef Path) { return "file:///editor/spelling/" + llvm::sys::path::filename(Path).str(); };
  const json Actions = codeActionsFor({blockWarning()}, Range{{1, 0}, {1, 60}}, C);
  ASSERT_EQ(Actions.size(), 1u);
  EXPECT_TRUE(Actions[0]["edit"]["changes"].contains("file:///editor/spelling/launch\xC3\xA9.cu"))
      << Actions[0]["edit"].dump(2);
}

} // namespace
