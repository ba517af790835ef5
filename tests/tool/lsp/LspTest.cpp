// `occlint lsp` driven as an editor drives a language server (LspClient.h:
// a child process on pipes): initialize, open a CUDA file, read the
// published diagnostics and compare them with the file's inline
// expectations, ask for the quick fix and apply it, save, see the finding
// go; compile commands from initializationOptions; shutdown/exit codes; and
// garbage on stdin, which must not crash or hang the server. --no-compile
// everywhere: no nvcc runs.
#include "CommandRunner.h"
#include "InlineExpectations.h"
#include "LspClient.h"
#include "TestFiles.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>

namespace fs = std::filesystem;
using namespace occlint::testing;
using nlohmann::json;

namespace {

const fs::path Checks = fs::path(OCCLINT_SOURCE_DIR) / "test-inputs" / "checks";

// A file: URI as VS Code writes one (every byte but unreserved ones and '/'
// percent-encoded): written here independently of the server's.
std::string uriOf(const fs::path &Path) {
  static const char Hex[] = "0123456789ABCDEF";
  std::string Uri = "file://";
  for (unsigned char C : Path.string()) {
    if (std::isalnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Uri += char(C);
    } else {
      Uri += '%';
      Uri += Hex[C >> 4];
      Uri += Hex[C & 15];
    }
  }
  return Uri;
}

// UTF-16 code units in a UTF-8 text: one per character, two for those
// outside the Basic Multilingual Plane (4-byte sequences).
unsigned utf16Length(const std::string &Utf8) {
  unsigned Units = 0;
  for (unsigned char C : Utf8)
    if ((C & 0xC0) != 0x80)
      Units += C >= 0xF0 ? 2 : 1;
  return Units;
}

// The byte offset in `Text` of an LSP position (0-based line, UTF-16 column).
size_t offsetOf(const std::string &Text, const json &Position) {
  size_t Offset = 0;
  for (int Line = Position["line"]; Line > 0; --Line)
    Offset = Text.find('\n', Offset) + 1;
  for (unsigned Units = 0; Units < Position["character"].get<unsigned>(); ++Offset) {
    const unsigned char C = Text[Offset];
    if ((C & 0xC0) != 0x80)
      Units += C >= 0xF0 ? 2 : 1;
  }
  while (Offset < Text.size() && (static_cast<unsigned char>(Text[Offset]) & 0xC0) == 0x80)
    ++Offset;
  return Offset;
}

std::vector<std::string> splitWords(const std::string &Text) {
  std::istringstream In(Text);
  std::vector<std::string> Words;
  for (std::string W; In >> W;)
    Words.push_back(W);
  return Words;
}

bool contains(const std::string &Text, const std::string &Part) { return Text.find(Part) != std::string::npos; }

// The published diagnostics against the file's inline expectations: every
// expected warning at its line (0-based here) with its check as code, every
// expected note as related information at its line, nothing else.
std::string compareWithExpectations(const json &Diagnostics, const std::vector<Diagnostic> &Expected,
                                    const std::string &Uri) {
  std::string Problems;
  size_t Warnings = 0;
  for (const Diagnostic &E : Expected) {
    if (E.level == "warning") {
      ++Warnings;
      const bool Found = std::any_of(Diagnostics.begin(), Diagnostics.end(), [&](const json &D) {
        return D["range"]["start"]["line"] == E.line - 1 && D["severity"] == 2 && D["source"] == "occlint" &&
               contains(D["message"], E.message) && (E.check.empty() || D["code"] == E.check);
      });
      if (!Found)
        Problems += "  missing: " + E.str() + "\n";
    } else if (E.level == "note") {
      const bool Found = std::any_of(Diagnostics.begin(), Diagnostics.end(), [&](const json &D) {
        const json Related = D.value("relatedInformation", json::array());
        return std::any_of(Related.begin(), Related.end(), [&](const json &R) {
          return R["location"]["uri"] == Uri && R["location"]["range"]["start"]["line"] == E.line - 1 &&
                 contains(R["message"], E.message);
        });
      });
      if (!Found)
        Problems += "  missing related information: " + E.str() + "\n";
    }
  }
  if (Diagnostics.size() != Warnings)
    Problems += "  " + std::to_string(Diagnostics.size()) + " diagnostics for " + std::to_string(Warnings) +
                " expected warnings\n";
  for (const json &D : Diagnostics)
    if (!contains(D.value("codeDescription", json::object()).value("href", ""),
                  "/" + D["code"].get<std::string>() + ".md"))
      Problems += "  no documentation link: " + D.dump() + "\n";
  return Problems;
}

json initializeParams(const fs::path &Root, json Options = nullptr) {
  json Params = {{"processId", getpid()}, {"rootUri", uriOf(Root)}, {"capabilities", json::object()}};
  if (!Options.is_null())
    Params["initializationOptions"] = std::move(Options);
  return Params;
}

json openParams(const std::string &Uri, const std::string &Text, const std::string &LanguageId = "cuda-cpp") {
  return {{"textDocument", {{"uri", Uri}, {"languageId", LanguageId}, {"version", 1}, {"text", Text}}}};
}

bool isShowMessage(const json &M) { return M.value("method", "") == "window/showMessage"; }

TEST(Lsp, DiagnosticsQuickFixAndSaveAsAnEditorWould) {
  ScratchDir Dir;
  // The test input with non-ASCII characters before the fixable launch on its
  // line ("ö", "ß": 2 bytes, 1 UTF-16 unit; "𝄞": 4 bytes, 2 units), in a
  // directory whose name needs percent-encoding. The fixable launch is one
  // the block-resize rule proves safe (issue 12): its quick fix comes from the
  // warning's note and rewrites the grid and the block.
  std::string Source = readFile(Checks / "launch-block-resize.cu");
  const std::string Launch = "  guarded<<<(n + 99) / 100, 100>>>(d, n);";
  const size_t LaunchAt = Source.find(Launch);
  ASSERT_NE(LaunchAt, std::string::npos);
  Source.replace(LaunchAt, 2,
                 "  /* Gr\xC3\xB6\xC3\x9F"
                 "e \xF0\x9D\x84\x9E */ ");
  const std::string File = Dir.write("caf\xC3\xA9 kernels/block.cu", Source);
  const std::string Uri = uriOf(File);
  const std::vector<Diagnostic> Expected = parseExpectations(Source);

  std::vector<std::string> Args = {OCCLINT_BINARY, "lsp", "--no-compile"};
  for (const std::string &A : splitWords(parseRunArgs(Source)))
    Args.push_back(A);
  LspClient Server(Args, (Dir.path() / "stderr.log").string());

  const json Init = Server.request("initialize", initializeParams(Dir.path()));
  ASSERT_TRUE(Init.contains("result")) << Init.dump(2);
  const json &Capabilities = Init["result"]["capabilities"];
  EXPECT_EQ(Capabilities["textDocumentSync"]["openClose"], true);
  EXPECT_EQ(Capabilities["textDocumentSync"]["save"]["includeText"], false);
  EXPECT_EQ(Capabilities["codeActionProvider"]["codeActionKinds"], json::array({"quickfix"}));
  EXPECT_EQ(Init["result"]["serverInfo"]["name"], "occlint");
  EXPECT_FALSE(Init["result"]["serverInfo"].value("version", "").empty());
  Server.notify("initialized", json::object());

  Server.notify("textDocument/didOpen", openParams(Uri, Source));
  std::vector<json> Before;
  const json Published = Server.waitForDiagnostics(Uri, &Before);
  ASSERT_FALSE(Published.is_null());
  // No compile_commands.json anywhere above the scratch directory: the
  // fallback command, said once.
  EXPECT_TRUE(std::any_of(Before.begin(), Before.end(), [](const json &M) {
    return isShowMessage(M) && M["params"]["type"] == 2 && contains(M["params"]["message"], "compile_commands.json");
  })) << "no showMessage warning about the missing compile_commands.json";
  const json &Diagnostics = Published["params"]["diagnostics"];
  EXPECT_EQ(compareWithExpectations(Diagnostics, Expected, Uri), "") << Diagnostics.dump(2);

  // An unsafe launch (`unguarded` writes d[idx] with no guard): its note
  // explains, and there is no quick fix.
  ASSERT_NE(Source.find("  unguarded<<<n / 100, 100>>>(d);"), std::string::npos);
  const unsigned UnsafeLine =
      unsigned(std::count(Source.begin(), Source.begin() + Source.find("  unguarded<<<n / 100, 100>>>(d);"), '\n'));
  auto Unsafe = std::find_if(Diagnostics.begin(), Diagnostics.end(),
                             [&](const json &D) { return D["range"]["start"]["line"] == UnsafeLine; });
  ASSERT_NE(Unsafe, Diagnostics.end()) << Diagnostics.dump(2);
  const json NoActions =
      Server.request("textDocument/codeAction", {{"textDocument", {{"uri", Uri}}},
                                                 {"range", (*Unsafe)["range"]},
                                                 {"context", {{"diagnostics", json::array({*Unsafe})}}}});
  ASSERT_TRUE(NoActions["result"].is_array()) << NoActions.dump(2);
  EXPECT_EQ(NoActions["result"].size(), 0u) << NoActions.dump(2);

  // The fixable launch: its range in UTF-16 units, after the comment.
  const unsigned LaunchLine = unsigned(std::count(Source.begin(), Source.begin() + LaunchAt, '\n'));
  const size_t LineStart = Source.rfind('\n', LaunchAt) + 1;
  const size_t Block = Source.find("100>>>", LaunchAt);
  const unsigned BlockColumn = utf16Length(Source.substr(LineStart, Block - LineStart));
  const size_t Grid = Source.find("(n + 99) / 100", LaunchAt);
  const unsigned GridColumn = utf16Length(Source.substr(LineStart, Grid - LineStart));
  auto Fixable = std::find_if(Diagnostics.begin(), Diagnostics.end(),
                              [&](const json &D) { return D["range"]["start"]["line"] == LaunchLine; });
  ASSERT_NE(Fixable, Diagnostics.end()) << Diagnostics.dump(2);
  EXPECT_EQ((*Fixable)["range"]["start"]["character"], BlockColumn);
  EXPECT_EQ((*Fixable)["range"]["end"]["character"], BlockColumn + 3);

  const json Actions =
      Server.request("textDocument/codeAction", {{"textDocument", {{"uri", Uri}}},
                                                 {"range", (*Fixable)["range"]},
                                                 {"context", {{"diagnostics", json::array({*Fixable})}}}});
  ASSERT_TRUE(Actions["result"].is_array()) << Actions.dump(2);
  ASSERT_EQ(Actions["result"].size(), 1u) << Actions.dump(2);
  const json &Action = Actions["result"][0];
  EXPECT_EQ(Action["kind"], "quickfix");
  EXPECT_EQ(Action["diagnostics"], json::array({*Fixable}));
  // A note's fix: offered, not preferred (it is what --fix-notes applies, not --fix).
  EXPECT_FALSE(Action.contains("isPreferred")) << Action.dump(2);
  EXPECT_TRUE(contains(Action["title"], "rounding the block up to 128 threads")) << Action["title"];
  ASSERT_TRUE(Action["edit"]["changes"].contains(Uri)) << Action.dump(2);
  const json &Edits = Action["edit"]["changes"][Uri];
  ASSERT_EQ(Edits.size(), 2u) << Action.dump(2);
  auto EditWith = [&](const std::string &Text) {
    auto It = std::find_if(Edits.begin(), Edits.end(), [&](const json &E) { return E["newText"] == Text; });
    return It == Edits.end() ? json() : *It;
  };
  const json BlockEdit = EditWith("128"), GridEdit = EditWith("(n + 127) / 128");
  ASSERT_FALSE(BlockEdit.is_null()) << Action.dump(2);
  ASSERT_FALSE(GridEdit.is_null()) << Action.dump(2);
  EXPECT_EQ(BlockEdit["range"], (*Fixable)["range"]);
  EXPECT_EQ(GridEdit["range"]["start"]["line"], LaunchLine);
  EXPECT_EQ(GridEdit["range"]["start"]["character"], GridColumn);
  EXPECT_EQ(GridEdit["range"]["end"]["character"], GridColumn + 14);

  // Apply the edits as the editor would (the later one first), save, and the
  // finding is gone.
  std::string Fixed = Source;
  for (const json &Edit : {BlockEdit, GridEdit}) {
    const size_t EditBegin = offsetOf(Source, Edit["range"]["start"]);
    const size_t EditEnd = offsetOf(Source, Edit["range"]["end"]);
    Fixed.replace(EditBegin, EditEnd - EditBegin, Edit["newText"].get<std::string>());
  }
  ASSERT_TRUE(contains(Fixed, "*/ guarded<<<(n + 127) / 128, 128>>>(d, n);")) << Fixed.substr(LineStart, 80);
  Dir.write("caf\xC3\xA9 kernels/block.cu", Fixed);
  Server.notify("textDocument/didSave", {{"textDocument", {{"uri", Uri}}}});
  const json AfterSave = Server.waitForDiagnostics(Uri);
  ASSERT_FALSE(AfterSave.is_null());
  const json &Left = AfterSave["params"]["diagnostics"];
  EXPECT_EQ(Left.size(), Diagnostics.size() - 1) << Left.dump(2);
  EXPECT_TRUE(std::none_of(Left.begin(), Left.end(), [&](const json &D) {
    return D["range"]["start"]["line"] == LaunchLine;
  })) << Left.dump(2);

  // A second file without a compile_commands.json: no second warning.
  const std::string Other = Dir.write("caf\xC3\xA9 kernels/other.cu", readFile(Checks / "launch-tiny-grid.cu"));
  Server.notify("textDocument/didOpen", openParams(uriOf(Other), readFile(Other), "cuda"));
  std::vector<json> BeforeOther;
  ASSERT_FALSE(Server.waitForDiagnostics(uriOf(Other), &BeforeOther).is_null());
  EXPECT_TRUE(std::none_of(BeforeOther.begin(), BeforeOther.end(), isShowMessage)) << json(BeforeOther).dump(2);

  // Closing the file clears its diagnostics.
  Server.notify("textDocument/didClose", {{"textDocument", {{"uri", Uri}}}});
  const json AfterClose = Server.waitForDiagnostics(Uri);
  ASSERT_FALSE(AfterClose.is_null());
  EXPECT_EQ(AfterClose["params"]["diagnostics"], json::array());

  const json Shutdown = Server.request("shutdown", nullptr);
  EXPECT_TRUE(Shutdown.contains("result") && Shutdown["result"].is_null()) << Shutdown.dump();
  Server.notify("exit", nullptr);
  EXPECT_EQ(Server.waitForExit(), 0) << Server.stderrText();
}

TEST(Lsp, CompileCommandsFromInitializationOptions) {
  ScratchDir Dir;
  // The build directory is beside the sources, not above them: only the
  // configured path finds it. Its command defines a macro the file needs.
  std::string Source = readFile(Checks / "launch-tiny-grid.cu");
  Source +=
      "void fromTheDatabase(const float *in, float *out) { stream<<<OCCLINT_LSP_TEST_GRID, 256>>>(in, out, 1 << 24); }"
      " // expect-warning {{grid of 8 blocks on H200}} [cuda-launch-tiny-grid]\n";
  const std::string File = Dir.write("src/tiny.cu", Source);
  const json Database =
      json::array({{{"directory", (Dir.path() / "build").string()},
                    {"file", File},
                    {"arguments", {"clang++", "-x", "cuda", "-DOCCLINT_LSP_TEST_GRID=8", "-c", File}}}});
  Dir.write("build/compile_commands.json", Database.dump(2));
  const std::string Uri = uriOf(File);

  LspClient Server({OCCLINT_BINARY, "lsp"}, (Dir.path() / "stderr.log").string());
  const json Options = {{"compilationDatabasePath", "build"}, // relative to the workspace root
                        {"gpu", {"H200"}},
                        {"checks", "-*,cuda-launch-tiny-grid"},
                        {"noCompile", true}};
  const json Init = Server.request("initialize", initializeParams(Dir.path(), Options));
  ASSERT_TRUE(Init.contains("result")) << Init.dump(2);
  Server.notify("initialized", json::object());
  Server.notify("textDocument/didOpen", openParams(Uri, Source, "cuda"));
  std::vector<json> Before;
  const json Published = Server.waitForDiagnostics(Uri, &Before);
  ASSERT_FALSE(Published.is_null());
  EXPECT_TRUE(std::none_of(Before.begin(), Before.end(), isShowMessage)) << json(Before).dump(2);
  EXPECT_EQ(compareWithExpectations(Published["params"]["diagnostics"], parseExpectations(Source), Uri), "")
      << Published.dump(2);

  EXPECT_TRUE(Server.request("shutdown", nullptr).contains("result"));
  Server.notify("exit", nullptr);
  EXPECT_EQ(Server.waitForExit(), 0) << Server.stderrText();
}

TEST(Lsp, TheServerAnalysesTheFileWhateverTheResultCacheHolds) {
  // A command-line run stores the file's analysis in the result cache; the
  // entry is then altered ("block of 777 threads"), and a second run, a hit,
  // prints the altered text: the server, given the same cache, prints what
  // the file says and stores nothing.
  ScratchDir Dir;
  const fs::path Cache = Dir.path() / "cache";
  const std::string File = Dir.write("k.cu", "__global__ void k(float *p) { p[threadIdx.x] = 1; }\n"
                                             "void launch(float *p) { k<<<4096, 100>>>(p); }\n");
  const std::string Checks = "--checks=-*,cuda-launch-block-not-warp-multiple";
  const std::string Cli = "OCCLINT_CACHE_DIR=" + shellQuote(Cache.string()) + " " + shellQuote(OCCLINT_BINARY) +
                          " --no-compile --gpu H100 " + Checks + " -v " + shellQuote(File) + " --";
  ASSERT_TRUE(contains(runCommand(Cli).output, "result cache: miss, analysed and stored"));
  std::vector<fs::path> Entries;
  for (const fs::directory_entry &E : fs::directory_iterator(Cache / "v1"))
    Entries.push_back(E.path());
  ASSERT_EQ(Entries.size(), 1u);
  std::string Entry = readFile(Entries[0]);
  ASSERT_NE(Entry.find("block of 100 threads"), std::string::npos);
  Entry.replace(Entry.find("block of 100 threads"), 20, "block of 777 threads");
  writeFile(Entries[0].string(), Entry);
  const CommandResult Hit = runCommand(Cli);
  ASSERT_TRUE(contains(Hit.output, "result cache: hit")) << Hit.output;
  ASSERT_TRUE(contains(Hit.output, "block of 777 threads")) << Hit.output;

  LspClient Server({"/usr/bin/env", "OCCLINT_CACHE_DIR=" + Cache.string(), OCCLINT_BINARY, "lsp", "--no-compile",
                    "--gpu", "H100", Checks},
                   (Dir.path() / "stderr.log").string());
  ASSERT_TRUE(Server.request("initialize", initializeParams(Dir.path())).contains("result"));
  Server.notify("initialized", json::object());
  Server.notify("textDocument/didOpen", openParams(uriOf(File), readFile(File), "cuda"));
  const json Published = Server.waitForDiagnostics(uriOf(File));
  ASSERT_FALSE(Published.is_null());
  const json &Diagnostics = Published["params"]["diagnostics"];
  ASSERT_EQ(Diagnostics.size(), 1u) << Published.dump(2);
  EXPECT_TRUE(contains(Diagnostics[0]["message"], "block of 100 threads")) << Published.dump(2);
  EXPECT_EQ(std::distance(fs::directory_iterator(Cache / "v1"), fs::directory_iterator()), 1);

  EXPECT_TRUE(Server.request("shutdown", nullptr).contains("result"));
  Server.notify("exit", nullptr);
  EXPECT_EQ(Server.waitForExit(), 0) << Server.stderrText();
}

TEST(Lsp, ExitCodes) {
  ScratchDir Dir;
  {
    // exit without shutdown: 1.
    LspClient Server({OCCLINT_BINARY, "lsp"}, (Dir.path() / "1.log").string());
    ASSERT_TRUE(Server.request("initialize", initializeParams(Dir.path())).contains("result"));
    Server.notify("exit", nullptr);
    EXPECT_EQ(Server.waitForExit(), 1) << Server.stderrText();
  }
  {
    // The end of the input after shutdown: 0.
    LspClient Server({OCCLINT_BINARY, "lsp"}, (Dir.path() / "2.log").string());
    ASSERT_TRUE(Server.request("initialize", initializeParams(Dir.path())).contains("result"));
    ASSERT_TRUE(Server.request("shutdown", nullptr).contains("result"));
    EXPECT_EQ(Server.waitForExit(/*CloseInput=*/true), 0) << Server.stderrText();
  }
  {
    // The end of the input with no shutdown (the editor died): 1.
    LspClient Server({OCCLINT_BINARY, "lsp"}, (Dir.path() / "3.log").string());
    EXPECT_EQ(Server.waitForExit(/*CloseInput=*/true), 1) << Server.stderrText();
  }
}

TEST(Lsp, GarbageInputIsAnsweredOrLoggedNeverACrash) {
  ScratchDir Dir;
  const std::string File = Dir.write("a.cu", readFile(Checks / "launch-tiny-grid.cu"));
  LspClient Server({OCCLINT_BINARY, "lsp", "--no-compile", "--gpu=H200"}, (Dir.path() / "stderr.log").string());
  auto ErrorCode = [](const json &Response) {
    return Response.contains("error") ? Response["error"].value("code", 0) : 0;
  };
  auto NextError = [&](const std::string &What) {
    return Server.waitFor([](const json &M) { return M.contains("error"); }, What);
  };

  // Not a frame at all (logged: there is no id to answer).
  Server.sendRaw("hello, server\r\n\r\n");
  Server.sendRaw("Content-Length: many\r\n\r\n");
  // Frames whose bodies are not JSON-RPC.
  Server.sendBody("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
  json E = NextError("a ParseError for truncated JSON");
  EXPECT_EQ(ErrorCode(E), -32700);
  EXPECT_TRUE(E["id"].is_null());
  Server.sendBody("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"x\",\"params\":\"\xFF\xFE\"}");
  EXPECT_EQ(ErrorCode(NextError("a ParseError for invalid UTF-8")), -32700);
  Server.sendBody("[1, 2, 3]");
  EXPECT_EQ(ErrorCode(NextError("an InvalidRequest for an array")), -32600);
  Server.sendBody("{\"jsonrpc\":\"2.0\",\"id\":{\"an\":\"object\"},\"method\":\"initialize\"}");
  EXPECT_EQ(ErrorCode(NextError("an InvalidRequest for an object id")), -32600);
  // A request before initialize.
  EXPECT_EQ(ErrorCode(Server.request("textDocument/codeAction", json::object())), -32002);

  const json Init = Server.request("initialize", initializeParams(Dir.path(), "not an object"));
  ASSERT_TRUE(Init.contains("result")) << Init.dump();
  EXPECT_EQ(ErrorCode(Server.request("initialize", initializeParams(Dir.path()))), -32600);
  Server.notify("initialized", json::object());
  // Unknown requests are errors; unknown notifications, cancellations and
  // notifications with nonsense params are ignored.
  EXPECT_EQ(ErrorCode(Server.request("occlint/noSuchMethod", json::object())), -32601);
  Server.notify("$/cancelRequest", {{"id", 99}});
  Server.notify("occlint/noSuchNotification", json::object());
  Server.notify("textDocument/didOpen", {{"textDocument", 5}});
  Server.notify("textDocument/didOpen", openParams("untitled:Untitled-1", "__global__ void k();", "cuda"));
  Server.notify("textDocument/didSave", json::object());
  EXPECT_EQ(ErrorCode(Server.request("textDocument/codeAction", json::object())), -32602);
  EXPECT_EQ(ErrorCode(Server.request("textDocument/codeAction",
                                     {{"textDocument", {{"uri", uriOf(File)}}}, {"range", "everywhere"}})),
            -32602);

  // Still serving: a real file gets its diagnostics.
  Server.notify("textDocument/didOpen", openParams(uriOf(File), readFile(File)));
  const json Published = Server.waitForDiagnostics(uriOf(File));
  ASSERT_FALSE(Published.is_null());
  EXPECT_FALSE(Published["params"]["diagnostics"].empty());

  EXPECT_TRUE(Server.request("shutdown", nullptr).contains("result"));
  EXPECT_EQ(ErrorCode(Server.request("textDocument/codeAction", json::object())), -32600); // after shutdown
  Server.notify("exit", nullptr);
  EXPECT_EQ(Server.waitForExit(), 0) << Server.stderrText();
  EXPECT_TRUE(contains(Server.stderrText(), "unreadable input")) << Server.stderrText();
}

TEST(Lsp, BadCommandLines) {
  const std::string Binary = OCCLINT_BINARY;
  CommandResult R = runCommand(shellQuote(Binary) + " lsp --gpu=NoSuchGpu </dev/null");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_TRUE(contains(R.output, "--gpu")) << R.output;
  R = runCommand(shellQuote(Binary) + " lsp -p /nonexistent/build </dev/null");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_TRUE(contains(R.output, "/nonexistent/build")) << R.output;
  R = runCommand(shellQuote(Binary) + " lsp --cuda-path=/nonexistent/cuda </dev/null");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  EXPECT_TRUE(contains(R.output, "--cuda-path")) << R.output;
  R = runCommand(shellQuote(Binary) + " lsp file.cu </dev/null");
  EXPECT_EQ(R.exitCode, 2) << R.output;
  R = runCommand(shellQuote(Binary) + " lsp --help </dev/null");
  EXPECT_EQ(R.exitCode, 0) << R.output;
  EXPECT_TRUE(contains(R.output, "initializationOptions")) << R.output;
}

} // namespace
