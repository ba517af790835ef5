#include "lsp/LspServer.h"

#include "UserTrust.h"

#include "FileUris.h"
#include "lint/LintPipeline.h"
#include "lsp/LspCompileCommands.h"
#include "lsp/LspUri.h"
#include "outputs/CheckCatalog.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <exception>
#include <optional>

namespace occlint::lsp {

using nlohmann::json;

namespace {

// JSON-RPC's and LSP's error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
};

// window/showMessage and window/logMessage types.
enum MessageType : int { Error = 1, Warning = 2, Info = 3, Log = 4 };

bool isCudaFile(llvm::StringRef Path, llvm::StringRef LanguageId) {
  if (LanguageId == "cuda" || LanguageId == "cuda-cpp")
    return true;
  const llvm::StringRef Extension = llvm::sys::path::extension(Path);
  return Extension == ".cu" || Extension == ".cuh";
}

std::string normalizedPath(llvm::StringRef Path) {
  llvm::SmallString<256> Normal(Path);
  llvm::sys::path::remove_dots(Normal, /*remove_dot_dot=*/true);
  return std::string(Normal);
}

// The documentation address of a check; "" when the catalog has none (or is
// not available: its lookup must never break a diagnostic).
std::string checkDocUrl(llvm::StringRef Check) {
  try {
    if (const CheckDoc *Doc = findCheckDoc(Check))
      return Doc->url;
  } catch (const std::exception &) {
  }
  return "";
}

// Throws nlohmann::json::exception (answered as InvalidParams) when the
// document's URI is missing or not a string.
std::string documentUri(const json &Params) { return Params.at("textDocument").at("uri").get<std::string>(); }

} // namespace

Server::Server(ServerOptions Opts, std::function<void(const json &)> SendFn)
    : Options(std::move(Opts)), Send(std::move(SendFn)) {
  Conversion.uriFor = [this](llvm::StringRef Path) {
    // The editor's own URI for a document it opened (its spelling may differ
    // from ours, e.g. in what it percent-encodes).
    const std::string Normal = normalizedPath(Path);
    for (const auto &[Uri, Document] : Open)
      if (Document.path == Normal)
        return Uri;
    return fileUri(Normal);
  };
  Conversion.docUrlFor = checkDocUrl;
}

void Server::handleMessage(llvm::StringRef Body) {
  json Message = json::parse(Body.begin(), Body.end(), nullptr, /*allow_exceptions=*/false);
  if (Message.is_discarded()) {
    log("a message that is not JSON: answered with a ParseError");
    respondError(nullptr, ParseError, "the message is not valid JSON");
    return;
  }
  const bool HasId = Message.is_object() && Message.contains("id");
  const json Id = HasId ? Message["id"] : json(nullptr);
  if (!Message.is_object() || !Message.contains("method") || !Message["method"].is_string()) {
    if (HasId && !Message.contains("method"))
      return; // a response to a request of ours: we send none that need one
    respondError(Id, InvalidRequest, "not a JSON-RPC request or notification (no \"method\")");
    return;
  }
  if (HasId && !Id.is_number_integer() && !Id.is_string()) {
    respondError(nullptr, InvalidRequest, "a request id must be an integer or a string");
    return;
  }
  const std::string Method = Message["method"];
  const json Params = Message.value("params", json(nullptr));
  try {
    if (HasId)
      handleRequest(Id, Method, Params);
    else
      handleNotification(Method, Params);
  } catch (const json::exception &E) {
    // A field missing or of the wrong type in the params.
    log(Method + ": invalid params: " + E.what());
    if (HasId)
      respondError(Id, InvalidParams, Method + ": invalid params: " + E.what());
  } catch (const std::exception &E) {
    log(Method + ": internal error: " + E.what());
    if (HasId)
      respondError(Id, InternalError, Method + ": internal error: " + E.what());
  }
}

void Server::reportBadInput(llvm::StringRef Problem) {
  log("unreadable input: " + Problem.str());
  notify("window/logMessage", {{"type", Error}, {"message", "occlint: unreadable input: " + Problem.str()}});
}

void Server::handleRequest(const json &Id, const std::string &Method, const json &Params) {
  if (Method == "initialize") {
    if (Initialized)
      return respondError(Id, InvalidRequest, "initialize was already sent");
    return respond(Id, initialize(Params));
  }
  if (!Initialized)
    return respondError(Id, ServerNotInitialized, Method + ": the server is not initialized yet");
  if (ShutdownRequested)
    return respondError(Id, InvalidRequest, Method + ": the server is shutting down");
  if (Method == "shutdown") {
    ShutdownRequested = true;
    return respond(Id, nullptr);
  }
  if (Method == "textDocument/codeAction")
    return respond(Id, codeAction(Params));
  respondError(Id, MethodNotFound, "unknown method '" + Method + "'");
}

void Server::handleNotification(const std::string &Method, const json &Params) {
  if (Method == "exit") {
    ExitRequested = true;
    return;
  }
  // Before initialize and after shutdown, notifications are dropped (LSP).
  if (!Initialized || ShutdownRequested)
    return;
  if (Method == "textDocument/didOpen")
    return didOpen(Params);
  if (Method == "textDocument/didSave")
    return didSave(Params);
  if (Method == "textDocument/didClose")
    return didClose(Params);
  // initialized, $/cancelRequest (requests are answered in order, at once),
  // didChange (we check files on disk), and anything unknown: nothing to do.
}

json Server::initialize(const json &Params) {
  Initialized = true;
  std::string RootPath;
  if (Params.is_object() && Params.contains("rootUri") && Params["rootUri"].is_string())
    RootPath = filePathFromUri(Params["rootUri"].get<std::string>()).value_or("");
  if (Params.is_object() && Params.contains("initializationOptions"))
    applyInitializationOptions(Params["initializationOptions"], RootPath);
  return {{"capabilities",
           {{"positionEncoding", "utf-16"},
            {"textDocumentSync", {{"openClose", true}, {"change", 0}, {"save", {{"includeText", false}}}}},
            {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}}}},
          {"serverInfo", {{"name", "occlint"}, {"version", Options.version}}}};
}

void Server::applyInitializationOptions(const json &Given, const std::string &RootPath) {
  if (Given.is_null())
    return;
  if (!Given.is_object()) {
    showMessageOnce(Warning, "initializationOptions must be an object; ignored");
    return;
  }
  auto Ignored = [&](const std::string &Key, const std::string &Expected) {
    showMessageOnce(Warning, "initializationOptions." + Key + ": expected " + Expected + "; ignored");
  };
  LintSettings &Settings = Options.settings;
  for (const auto &[Key, Value] : Given.items()) {
    if (Key == "compilationDatabasePath") {
      if (!Value.is_string()) {
        Ignored(Key, "a directory name");
        continue;
      }
      llvm::SmallString<256> Directory(Value.get<std::string>());
      // Relative to the workspace root, as the editor's settings are.
      if (llvm::sys::path::is_relative(Directory) && !RootPath.empty()) {
        llvm::SmallString<256> InRoot(RootPath);
        llvm::sys::path::append(InRoot, Directory);
        Directory = InRoot;
      }
      llvm::sys::fs::make_absolute(Directory);
      Options.buildDirectory = normalizedPath(Directory);
    } else if (Key == "gpu") {
      if (Value.is_string()) {
        Settings.gpus = {Value.get<std::string>()};
      } else if (Value.is_array() &&
                 std::all_of(Value.begin(), Value.end(), [](const json &G) { return G.is_string(); })) {
        Settings.gpus = Value.get<std::vector<std::string>>();
      } else {
        Ignored(Key, "a list of GPU names");
      }
    } else if (Key == "cudaPath") {
      if (Value.is_string())
        Settings.cudaPath = Value.get<std::string>();
      else
        Ignored(Key, "a directory name");
    } else if (Key == "noCompile") {
      if (Value.is_boolean())
        Settings.noCompile = Value.get<bool>();
      else
        Ignored(Key, "true or false");
    } else if (Key == "checks") {
      if (Value.is_string())
        Settings.checks = Value.get<std::string>();
      else
        Ignored(Key, "a string of check globs");
    } else {
      log("initializationOptions." + Key + ": unknown, ignored");
    }
  }
}

void Server::didOpen(const json &Params) {
  const std::string Uri = documentUri(Params);
  const std::string LanguageId = Params.at("textDocument").value("languageId", "");
  std::optional<std::string> Path = filePathFromUri(Uri);
  if (!Path)
    return log(Uri + ": not a file: URI, not checked");
  OpenDocument &Document = Open[Uri];
  Document.path = normalizedPath(*Path);
  Document.cuda = isCudaFile(Document.path, LanguageId);
  if (Document.cuda)
    checkAndPublish(Document.path, Uri);
}

void Server::didSave(const json &Params) {
  const std::string Uri = documentUri(Params);
  auto It = Open.find(Uri);
  if (It != Open.end()) {
    if (It->second.cuda)
      checkAndPublish(It->second.path, Uri);
    return;
  }
  // Saved without being open (clients may do that): its extension decides.
  if (std::optional<std::string> Path = filePathFromUri(Uri); Path && isCudaFile(*Path, ""))
    checkAndPublish(normalizedPath(*Path), Uri);
}

void Server::didClose(const json &Params) {
  const std::string Uri = documentUri(Params);
  auto It = Open.find(Uri);
  if (It == Open.end())
    return;
  const std::string Path = It->second.path;
  Open.erase(It);
  // The file's findings go, in it and in the headers they were in.
  std::set<std::string> Affected = {Uri};
  if (auto Found = Findings.find(Path); Found != Findings.end()) {
    for (const auto &[InUri, Records] : Found->second)
      Affected.insert(InUri);
    Findings.erase(Found);
  }
  for (const std::string &InUri : Affected)
    publish(InUri);
}

json Server::codeAction(const json &Params) {
  const std::string Uri = documentUri(Params);
  const Range Requested = rangeFromJson(Params.at("range"));
  // context.only: the kinds the client wants ("quickfix", or a parent kind).
  if (Params.contains("context") && Params["context"].contains("only")) {
    const json &Only = Params["context"]["only"];
    const bool WantsQuickFix = Only.is_array() && std::any_of(Only.begin(), Only.end(), [](const json &Kind) {
                                 return Kind.is_string() && (Kind == "" || Kind == "quickfix");
                               });
    if (!WantsQuickFix)
      return json::array();
  }
  return codeActionsFor(recordsIn(Uri), Requested, Conversion);
}

void Server::checkAndPublish(const std::string &Path, const std::string &Uri) {
  CompileCommandsForFile Commands = compileCommandsFor(Path, Options.buildDirectory);
  if (Commands.fallback) {
    log(Commands.why + "; using `-x cuda -I<its directory>`");
    // Shown once per session: every file of a project without a database
    // would repeat it.
    if (!FallbackShown)
      showMessageOnce(Warning, Commands.why +
                                   "; checking files with `-x cuda -I<their directory>`. Give the build directory "
                                   "with `occlint lsp -p DIR` or initializationOptions.compilationDatabasePath.");
    FallbackShown = true;
  }
  LintSettings Settings = Options.settings;
  Settings.startProcesses = trusted(Path);
  // Said only where trust would change something: noCompile runs nothing anyway.
  if (!Settings.startProcesses && !Settings.noCompile)
    showMessageOnce(Info,
                    "this workspace is not trusted, so occlint runs no compiler for it: resource reports come "
                    "from occlint's cache or are estimated from the source. To trust it, add its directory to "
                    "trusted-workspaces in " +
                        (userConfigPath().empty() ? std::string("~/.config/occlint/config.yaml") : userConfigPath()) +
                        ", or pass --trust-workspace to `occlint lsp` in your editor's user settings "
                        "(docs/security.md).");
  Settings.quiet = true; // no progress line or summary: stderr is a log here
  Settings.progress = false;
  Settings.verbose = false;
  Settings.resultCache = false; // each open and save analyses the saved file anew, whatever the cache holds
  Settings.jobs = 1;

  LintResult Result;
  try {
    Result = runLint(Settings, *Commands.database, {Path}, Options.argv0.c_str(), llvm::errs());
  } catch (const std::exception &E) {
    showMessageOnce(Error, "internal error while checking " + Path + ": " + E.what());
    return;
  }
  if (Result.setupExitCode != 0) {
    // Bad settings or an unreadable file: the last findings stay.
    log(Path + ": " + Result.error);
    showMessageOnce(Error, Result.error);
    return;
  }

  std::map<std::string, std::vector<DiagnosticRecord>> ByUri;
  for (DiagnosticRecord &R : Result.diagnostics) {
    const std::string InUri = R.file.empty() ? Uri : Conversion.uriFor(R.file);
    ByUri[InUri].push_back(std::move(R));
  }
  std::set<std::string> Affected = {Uri};
  auto &Last = Findings[Path];
  for (const auto &[InUri, Records] : Last)
    Affected.insert(InUri);
  for (const auto &[InUri, Records] : ByUri)
    Affected.insert(InUri);
  log(Path + ": " + std::to_string(Result.diagnostics.size()) + " diagnostic(s)" +
      (Commands.fallback ? " (fallback compile command)" : ""));
  Last = std::move(ByUri);
  for (const std::string &InUri : Affected)
    publish(InUri);
}

std::vector<DiagnosticRecord> Server::recordsIn(const std::string &Uri) const {
  std::vector<DiagnosticRecord> Records;
  for (const auto &[Path, ByUri] : Findings)
    if (auto It = ByUri.find(Uri); It != ByUri.end())
      Records.insert(Records.end(), It->second.begin(), It->second.end());
  return Records;
}

void Server::publish(const std::string &Uri) {
  json Diagnostics = json::array();
  for (const DiagnosticRecord &R : recordsIn(Uri)) {
    json D = toDiagnostic(R, Conversion);
    // A header's finding seen from two files that include it: shown once.
    if (std::find(Diagnostics.begin(), Diagnostics.end(), D) == Diagnostics.end())
      Diagnostics.push_back(std::move(D));
  }
  notify("textDocument/publishDiagnostics", {{"uri", Uri}, {"diagnostics", std::move(Diagnostics)}});
}

void Server::respond(const json &Id, json Result) {
  Send({{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
}

void Server::respondError(const json &Id, int Code, const std::string &Message) {
  Send({{"jsonrpc", "2.0"}, {"id", Id}, {"error", {{"code", Code}, {"message", Message}}}});
}

void Server::notify(const std::string &Method, json Params) {
  Send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
}

void Server::log(const std::string &Message) { llvm::errs() << "occlint lsp: " << Message << "\n"; }

bool Server::trusted(const std::string &Path) {
  if (Options.trustAllWorkspaces)
    return true;
  std::string Error;
  const UserTrust Trust = readUserTrust(Error); // read each time: the user may have just trusted it
  if (!Error.empty())
    log(Error);
  return isUnderTrustedRoot(llvm::sys::path::parent_path(Path).str(), Trust.trustedWorkspaces);
}

void Server::showMessageOnce(int Type, const std::string &Message) {
  if (!Shown.insert(Message).second)
    return;
  log(Message);
  notify("window/showMessage", {{"type", Type}, {"message", "occlint: " + Message}});
}

} // namespace occlint::lsp
