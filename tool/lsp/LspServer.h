// `occlint lsp`'s server: the state of one editor session and the dispatch of
// its JSON-RPC messages. It checks the CUDA files the editor opens and saves
// (as they are on disk: runLint), publishes the findings as diagnostics, and
// answers codeAction requests with their fixes. Single-threaded: a message is
// handled before the next is read.
#pragma once

#include "lint/LintSettings.h"
#include "lsp/LspDiagnostics.h"
#include "outputs/DiagnosticRecords.h"

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace occlint::lsp {

/// What the command line gives the server; initializationOptions may
/// override it.
struct ServerOptions {
  LintSettings settings;
  std::string buildDirectory; // -p: where compile_commands.json is ("" = search)
  std::string argv0;          // finds the built-in CUDA headers
  std::string version;        // serverInfo.version
  /// `occlint lsp --trust-workspace` (the user's editor configuration):
  /// every workspace may run the allowed compilers. Otherwise only those
  /// under a trusted-workspaces entry of the user config file may; the others
  /// start no process at all (docs/security.md).
  bool trustAllWorkspaces = false;
};

class Server {
public:
  /// `Send` writes one message to the client.
  Server(ServerOptions Options, std::function<void(const nlohmann::json &)> Send);

  /// Handles one message body, whatever it holds: malformed JSON gets a
  /// ParseError response, a bad request an error response; nothing throws.
  void handleMessage(llvm::StringRef Body);
  /// Input the transport could not frame (logged: there is no id to answer).
  void reportBadInput(llvm::StringRef Problem);

  /// The client sent `exit`: stop reading.
  bool exitRequested() const { return ExitRequested; }
  /// LSP: 0 when `shutdown` came before `exit` (or the end of the input), else 1.
  int exitCode() const { return ShutdownRequested ? 0 : 1; }

private:
  /// May this file's checks start processes (its workspace trusted by the user)?
  bool trusted(const std::string &Path);
  void handleRequest(const nlohmann::json &Id, const std::string &Method, const nlohmann::json &Params);
  void handleNotification(const std::string &Method, const nlohmann::json &Params);

  nlohmann::json initialize(const nlohmann::json &Params);
  void applyInitializationOptions(const nlohmann::json &Options, const std::string &RootPath);
  void didOpen(const nlohmann::json &Params);
  void didSave(const nlohmann::json &Params);
  void didClose(const nlohmann::json &Params);
  nlohmann::json codeAction(const nlohmann::json &Params);

  /// Checks the file and publishes the diagnostics of every document whose
  /// list changed (the file's, and headers it reported findings in).
  void checkAndPublish(const std::string &Path, const std::string &Uri);
  void publish(const std::string &Uri);
  /// The records reported in `Uri` by the last check of every file.
  std::vector<DiagnosticRecord> recordsIn(const std::string &Uri) const;

  void respond(const nlohmann::json &Id, nlohmann::json Result);
  void respondError(const nlohmann::json &Id, int Code, const std::string &Message);
  void notify(const std::string &Method, nlohmann::json Params);
  void log(const std::string &Message);
  /// window/showMessage ("occlint: " + Message), each distinct text once per
  /// session; logged too.
  void showMessageOnce(int Type, const std::string &Message);

  ServerOptions Options;
  std::function<void(const nlohmann::json &)> Send;
  ConversionContext Conversion;

  bool Initialized = false; // `initialize` answered
  bool ShutdownRequested = false;
  bool ExitRequested = false;

  struct OpenDocument {
    std::string path;
    bool cuda = false;
  };
  std::map<std::string, OpenDocument> Open; // by URI
  /// Per checked file (path): the records its last check found, by the URI
  /// of the document they are in.
  std::map<std::string, std::map<std::string, std::vector<DiagnosticRecord>>> Findings;
  std::set<std::string> Shown; // showMessage texts already shown
  bool FallbackShown = false;  // the warning about the fallback compile command
};

} // namespace occlint::lsp
