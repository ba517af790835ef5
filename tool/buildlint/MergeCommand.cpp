// `occlint merge BUILD [--format text|json|sarif] [--html FILE] [--checks GLOBS]
// [--line-filter JSON] [-o FILE] [--quiet]`: the findings of a build linted
// step by step (`occlint wrap --lint`), combined from the sidecars without
// parsing again. docs/build-integration.md, "Lint inside the build".
#include "ArgParser.h"
#include "Commands.h"
#include "ExitCodes.h"
#include "OcclintVersion.h"
#include "buildlint/MergedLint.h"
#include "outputs/DiagnosticsFromJson.h"
#include "outputs/OutputFormats.h"
#include "outputs/PathRoots.h"
#include "report/ReportHtml.h"
#include "report/ReportModel.h"
#include "toolchain/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <iostream>

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
  --html FILE         also write the report page of `occlint report --html`
                      (kernels, launches, occupancy, staircases) from the
                      same findings and the facts the build kept
  --quiet             no summary and no skipped-unit notes on stderr

Exit codes: 0 no finding at error level, 1 findings at error level,
2 bad command line or database, or an output that cannot be written.
)";

Json jsonOutput(const MergedLint &M, const std::string &BuildDirectory) {
  Json Skipped = Json::array();
  for (const SkippedUnit &S : M.skipped)
    Skipped.push_back({{"file", S.file}, {"why", S.why}});
  return {
      {"version", JsonSchemaVersion},
      {"tool", {{"name", "occlint"}, {"version", OCCLINT_VERSION}}},
      {"merged", {{"buildDirectory", BuildDirectory}, {"units", M.units}, {"linted", M.linted}, {"skipped", Skipped}}},
      {"fileCount", M.linted},
      {"diagnostics", M.diagnosticsJson},
      {"launches", M.launches},
      {"kernels", M.kernels},
      {"notifications", M.notifications}};
}

std::string absolutePath(const std::string &Path) {
  llvm::SmallString<256> Absolute(Path);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  return std::string(Absolute);
}

/// Stdout, or the file written whole or not at all (toolchain/AtomicFile.h).
bool writeFileOrStdout(const std::string &Path, const std::string &Text) {
  if (Path.empty()) {
    llvm::outs() << Text;
    return true;
  }
  return writeFileAtomically(Path, Text);
}

} // namespace

int runMergeCommand(int Argc, const char **Argv) {
  ArgParser Args("merge", {"format", "checks", "line-filter", "output", "o", "html"}, {"help", "quiet"});
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
  const std::string HtmlFile = Args.value("html").value_or("");
  if (Args.value("html") && HtmlFile.empty())
    Args.fail("--html: give the page's file name");
  if (!HtmlFile.empty() && !OutputFile.empty() && absolutePath(HtmlFile) == absolutePath(OutputFile))
    Args.fail("--html and --output name the same file: " + HtmlFile);

  MergeRequest Request;
  Request.buildDirectory = Args.positional().front();
  Request.checks = Args.value("checks");
  Request.lineFilter = Args.value("line-filter").value_or("");
  const MergedLint Merged = mergeBuildLint(Request);
  if (!Merged.error.empty()) {
    std::cerr << "occlint merge: error: " << Merged.error << "\n";
    return ExitUsageOrInput;
  }

  LintResult Result;
  Result.diagnostics = Merged.diagnostics;
  Result.units = Merged.unitRecords;
  Result.fileCount = Merged.linted;
  Result.roots = choosePathRoots("", Merged.sources, "", {});

  std::string Text;
  if (Format == "text") {
    for (const DiagnosticRecord &D : Merged.diagnostics)
      Text += clangStyleText(D);
  } else if (Format == "json") {
    Text = jsonOutput(Merged, Request.buildDirectory).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  } else {
    llvm::raw_string_ostream OS(Text);
    writeSarifOutput(Result, OS);
    OS.flush();
  }
  std::string Page;
  if (!HtmlFile.empty()) {
    llvm::raw_string_ostream OS(Page);
    writeReportHtml(buildReportModel(Result, "merge " + Request.buildDirectory + " (" + std::to_string(Merged.linted) +
                                                 " of " + std::to_string(Merged.units) +
                                                 " CUDA translation units linted in the build)"),
                    OS);
    OS.flush();
    if (!writeFileOrStdout(HtmlFile, Page)) {
      std::cerr << "occlint merge: error: --html: cannot write " << HtmlFile << "\n";
      return ExitUsageOrInput;
    }
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
