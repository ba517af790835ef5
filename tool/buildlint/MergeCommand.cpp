// `occlint merge BUILD [--format text|json|sarif] [--checks GLOBS]
// [--line-filter JSON] [-o FILE] [--quiet]`: the findings of a build linted
// step by step (`occlint wrap --lint`), combined from the sidecars without
// parsing again. docs/build-integration.md, "Lint inside the build".
#include "ArgParser.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "buildlint/MergedLint.h"
#include "outputs/DiagnosticsFromJson.h"
#include "outputs/OutputFormats.h"
#include "outputs/PathRoots.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>

#ifndef OCCLINT_VERSION
#define OCCLINT_VERSION "unknown"
#endif

namespace occlint {

namespace {

using Json = nlohmann::ordered_json;

const char *const kUsage = R"(Usage: occlint merge BUILD [options]

Combines the findings that `occlint wrap --lint` kept next to each object of
a build (<object>.occlint.json) for every CUDA translation unit of
BUILD/compile_commands.json. Only current sidecars count (a source, a header,
the command or the compiler changed since: the unit is listed as skipped).
A finding in a header several units include is shown once. Nothing is
parsed again; NOLINT was applied in the build.

  --format FORMAT     text (clang's layout, the default), json or sarif
  --checks GLOBS      keep only these checks (clang-tidy's glob list)
  --line-filter JSON  keep only these lines (clang-tidy's --line-filter)
  -o, --output FILE   write json or sarif to FILE instead of stdout
  --quiet             no summary and no skipped-unit notes on stderr

Exit codes: 0 no finding at error level, 1 findings at error level,
2 bad command line or database (nothing written).
)";

Json jsonOutput(const MergedLint &M, const std::string &BuildDirectory) {
  Json Skipped = Json::array();
  for (const SkippedUnit &S : M.skipped)
    Skipped.push_back({{"file", S.file}, {"why", S.why}});
  return {{"version", 2},
          {"tool", {{"name", "occlint"}, {"version", OCCLINT_VERSION}}},
          {"merged",
           {{"buildDirectory", BuildDirectory}, {"units", M.units}, {"linted", M.linted}, {"skipped", Skipped}}},
          {"fileCount", M.linted},
          {"diagnostics", M.diagnosticsJson},
          {"launches", M.launches},
          {"kernels", M.kernels},
          {"notifications", M.notifications}};
}

/// Writes through a temporary file and a rename: a failed run leaves no partial file.
bool writeFileOrStdout(const std::string &Path, const std::string &Text) {
  if (Path.empty()) {
    llvm::outs() << Text;
    return true;
  }
  const std::string Temporary = Path + ".occlint-tmp";
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Temporary, EC);
    if (EC)
      return false;
    OS << Text;
    if (OS.has_error()) {
      OS.clear_error();
      llvm::sys::fs::remove(Temporary);
      return false;
    }
  }
  if (llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return false;
  }
  return true;
}

} // namespace

int runMergeCommand(int Argc, const char **Argv) {
  ArgParser Args("merge", {"format", "checks", "line-filter", "output", "o"}, {"help", "quiet"});
  Args.parse(Argc, Argv);
  if (Args.has("help")) {
    std::cout << kUsage;
    return ExitOk;
  }
  if (Args.positional().size() != 1)
    Args.fail(Args.positional().empty() ? "give the build directory (with compile_commands.json)"
                                        : "one build directory, not " + std::to_string(Args.positional().size()));
  const std::string Format = Args.value("format").value_or("text");
  if (Format != "text" && Format != "json" && Format != "sarif")
    Args.fail("--format: unknown format '" + Format + "' (text, json or sarif)");
  const std::string OutputFile = Args.value("output").value_or(Args.value("o").value_or(""));
  if (!OutputFile.empty() && Format == "text")
    Args.fail("--output: only with --format=json or --format=sarif");

  MergeRequest Request;
  Request.buildDirectory = Args.positional().front();
  Request.checks = Args.value("checks");
  Request.lineFilter = Args.value("line-filter").value_or("");
  const MergedLint Merged = mergeBuildLint(Request);
  if (!Merged.error.empty()) {
    std::cerr << "occlint merge: error: " << Merged.error << "\n";
    return ExitUsageOrInput;
  }

  std::string Text;
  if (Format == "text") {
    for (const DiagnosticRecord &D : Merged.diagnostics)
      Text += clangStyleText(D);
  } else if (Format == "json") {
    Text = jsonOutput(Merged, Request.buildDirectory).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  } else {
    LintResult Result;
    Result.diagnostics = Merged.diagnostics;
    Result.fileCount = Merged.linted;
    Result.roots = choosePathRoots("", Merged.sources, "", {});
    llvm::raw_string_ostream OS(Text);
    writeSarifOutput(Result, OS);
    OS.flush();
  }
  if (!writeFileOrStdout(OutputFile, Text)) {
    std::cerr << "occlint merge: error: --output: cannot write " << OutputFile << "\n";
    return ExitUsageOrInput;
  }
  if (!Args.has("quiet")) {
    for (const SkippedUnit &S : Merged.skipped)
      std::cerr << "occlint merge: note: " << S.file << ": " << S.why << "\n";
    std::cerr << Merged.diagnostics.size() << (Merged.diagnostics.size() == 1 ? " diagnostic" : " diagnostics")
              << " from " << Merged.linted << " of " << Merged.units << " translation units\n";
  }
  return Merged.anyError() ? ExitFindings : ExitOk;
}

} // namespace occlint
