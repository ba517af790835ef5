// `occlint wrap --lint` (Commands.h says what it does): the compile through the
// launcher, then the lint of the unit with the build's own command.
#include "Commands.h"
#include "ExitCodes.h"
#include "OcclintVersion.h"
#include "lint/LintPipeline.h"
#include "lint/SingleCommandDatabase.h"
#include "lint/WorkerMessages.h"
#include "outputs/DiagnosticsFromJson.h"
#include "outputs/OutputFormats.h"

#include "toolchain/BuildCapture.h"
#include "toolchain/CompilerLauncher.h"
#include "toolchain/LauncherCommand.h"

#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string_view>

namespace occlint {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

struct WrapLintOptions {
  LintSettings settings;
  std::vector<std::string> launcherArgs; // the launcher's own options, then the command
  std::vector<std::string> command;      // the command alone
  bool sidecar = true;
};

bool isLintOption(std::string_view A) {
  return A == "--lint" || A == "--gpu" || A.starts_with("--gpu=") || A.starts_with("--checks=");
}

WrapLintOptions readOptions(int Argc, const char **Argv) {
  WrapLintOptions O;
  int I = 1;
  for (; I < Argc; ++I) {
    std::string_view A = Argv[I];
    if (A == "--lint") {
      continue;
    } else if (A == "--gpu" && I + 1 < Argc) {
      O.settings.gpus.push_back(Argv[++I]);
    } else if (A.starts_with("--gpu=")) {
      O.settings.gpus.emplace_back(A.substr(6));
    } else if (A.starts_with("--checks=")) {
      O.settings.checks = std::string(A.substr(9));
    } else if (A == "--no-sidecar" || A == "--no-cache") {
      O.sidecar = O.sidecar && A != "--no-sidecar";
      O.launcherArgs.emplace_back(A);
    } else {
      break; // "--" or the compiler
    }
  }
  for (int J = I; J < Argc; ++J)
    O.launcherArgs.emplace_back(Argv[J]);
  O.command.assign(Argv + I + (I < Argc && std::string_view(Argv[I]) == "--" ? 1 : 0), Argv + Argc);
  return O;
}

std::string currentDirectory() {
  const char *Pwd = std::getenv("PWD");
  std::error_code EC;
  const fs::path Real = fs::current_path(EC);
  if (Pwd && Pwd[0] == '/' && fs::equivalent(Pwd, Real, EC) && !EC)
    return Pwd; // as the build named it
  return Real.string();
}

/// What the sidecar keeps: the lint's JSON output, with what it was run with,
/// and the facts records in full (for `occlint merge --html`).
std::string lintRecord(const LintResult &Result, const LintSettings &Settings) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeJsonOutput(Result, OS);
  OS.flush();
  Json Record = {
      {"occlintVersion", OCCLINT_VERSION},
      {"gpus", Settings.gpus},
      {"checks", Settings.checks ? Json(*Settings.checks) : Json(nullptr)},
      {"output", Json::parse(Text, nullptr, false)},
      {"units",
       Json::parse(unitRecordsToJson(Result.units).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))}};
  return Record.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void say(const std::string &Line) { llvm::errs() << "occlint wrap: " << Line << "\n"; }

} // namespace

bool wrapAsksForLint(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    std::string_view A = Argv[I];
    if (A == "--lint")
      return true;
    if (A == "--gpu")
      ++I;
    else if (!isLintOption(A) && A != "--no-sidecar" && A != "--no-cache")
      return false;
  }
  return false;
}

int runWrapLintCommand(int Argc, const char **Argv, const char *Argv0) {
  WrapLintOptions O = readOptions(Argc, Argv);
  const LauncherOutcome Compiled = runCompilerLauncher(O.launcherArgs);
  if (Compiled.termSignal != 0 || Compiled.exitCode != 0 || O.command.empty())
    return endLikeTheCompiler(Compiled);

  const std::string Directory = currentDirectory();
  const CompileInvocation Invocation = analyzeCompileCommand(O.command, Directory);
  if (!Invocation.capturable)
    return Compiled.exitCode; // a link step, -E, a host file...: nothing to lint
  std::string Source = Invocation.source;
  if (!fs::path(Source).is_absolute())
    Source = (fs::path(Directory) / Source).lexically_normal().string();
  std::vector<std::string> Command(O.command.begin() + long(Invocation.compilerIndex), O.command.end());
  SingleCommandDatabase Database({Directory, Source, Command, Invocation.output});

  LintSettings &Settings = O.settings;
  Settings.quiet = true;
  Settings.jobs = 1;
  std::string Notes;
  llvm::raw_string_ostream Log(Notes);
  const LintResult Result = runLint(Settings, Database, {Source}, Argv0, Log);
  if (Result.setupExitCode != ExitOk) {
    say("error: the lint did not run: " + Result.error);
    return Compiled.exitCode;
  }
  for (const DiagnosticRecord &D : Result.diagnostics)
    llvm::errs() << clangStyleText(D);
  for (const ParseGapNotice &Gap : Result.parseGaps)
    say("warning: " + Gap.message());

  if (!O.sidecar || Invocation.output.empty())
    return Compiled.exitCode;
  auto Path = sidecarPathForCommand(O.command, Directory);
  std::string Error;
  auto Capture = Path ? readBuildCapture(*Path, &Error) : std::nullopt;
  if (!Capture)
    return Compiled.exitCode; // nothing captured (a PTX-only build): the findings are in the log only
  Capture->lint = lintRecord(Result, Settings);
  if (!writeBuildCapture(*Path, *Capture, &Error))
    say("warning: the findings are not kept for occlint merge: " + Error);
  return Compiled.exitCode;
}

} // namespace occlint
