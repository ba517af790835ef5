// `occlint report`: runs the checks like the lint command and writes one page
// about the project: the table of kernels and launches with their occupancy
// and findings, and the occupancy staircases (docs/report.md). The options
// are parsed here by hand (ArgParser): llvm::cl options are global, and the
// lint command's (--gpu, --checks...) are registered in the same binary.
#include "ArgParser.h"
#include "ExitCodes.h"
#include "lint/LintPipeline.h"
#include "lint/ProgressLine.h"
#include "lint/ProjectDatabase.h"
#include "report/ReportHtml.h"
#include "report/ReportMarkdown.h"
#include "report/ReportModel.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <thread>

namespace occlint {

namespace {

const char *const ReportHelp =
    R"(usage: occlint report (-p <build dir> | <files> -- <flags>) (--html FILE | --markdown [FILE]) [options]

Runs the checks and writes one page about the project: every kernel and launch
with registers, shared memory, spills, block, grid, occupancy, what limits it,
waves and findings, and each launch's occupancy staircases (docs/report.md).

  -p DIR               build directory with compile_commands.json: every CUDA
                       translation unit of it (or only the files given)
  FILES -- FLAGS       files, compiled with these flags (no database)
  --html FILE          a self-contained HTML page (inline CSS and SVG)
  --markdown [FILE]    Markdown; stdout without FILE or with '-'
  --gpu GPU            target GPU (H100, a100-40gb, sm_90, sm_90:132); repeatable
  --cuda-path DIR      CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda)
  --root DIR           paths are shown relative to it (default: the git top
                       level of the files, else their common directory)
  --baseline FILE      a saved --format=json output: findings since then are
                       marked new, and the fixed ones listed
  --ptxas-log FILE     build log with ptxas -v output; repeatable
  --no-compile         never run the device compiler: registers unknown
  --no-result-cache    analyse every file, even one occlint's cache holds
                       unchanged findings for (docs/result-cache.md)
  --strict-parse       Clang's errors in files nvcc compiled are errors, as
                       for any file Clang cannot parse (docs/nvcc-parity.md)
  --allow-compiler GLOB  also allow this program to run (realpath glob;
                       repeatable; docs/security.md)
  --checks GLOBS       checks to run, as clang-tidy's --checks
  --config-file FILE   read the configuration from this file
  --jobs N             files analysed in parallel (default: CPU cores)
  --compile-timeout S  seconds a compiler process may run (default: 120)
  --max-memory MB      memory the analysis of one file may use (default: 8192)
  --weights FILE       kernel times (nsys cuda_gpu_kern_sum or ncu CSV, or
                       kernel,time): losses weighted by each kernel's share
  --all-staircases     occupancy staircases for every launch (default: only
                       for the launches with a finding)
  --quiet              print no notes or progress

Exit codes: 0 the page was written (findings do not change it), 2 bad command
line or input (nothing written), 3 internal error.
)";

// An output written whole or not at all: a temporary file next to the
// destination, renamed over it by commit(); removed when not committed.
class PendingOutput {
public:
  explicit PendingOutput(std::string Path) : Path(std::move(Path)) {}
  PendingOutput(const PendingOutput &) = delete;
  PendingOutput &operator=(const PendingOutput &) = delete;
  ~PendingOutput() {
    Stream.reset();
    if (!Temporary.empty())
      llvm::sys::fs::remove(Temporary);
  }

  /// "" or the error, naming the file.
  std::string open() {
    llvm::SmallString<256> Model(Path);
    Model += ".tmp-%%%%%%";
    int FD = -1;
    if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temporary)) {
      Temporary.clear();
      return "cannot write " + Path + ": " + EC.message();
    }
    Stream = std::make_unique<llvm::raw_fd_ostream>(FD, /*shouldClose=*/true);
    return "";
  }

  llvm::raw_ostream &stream() { return *Stream; }

  std::string commit() {
    Stream->close();
    if (Stream->has_error()) {
      const std::string Message = Stream->error().message();
      Stream->clear_error();
      return "cannot write " + Path + ": " + Message;
    }
    Stream.reset();
    if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path))
      return "cannot write " + Path + ": " + EC.message();
    Temporary.clear();
    return "";
  }

private:
  std::string Path;
  llvm::SmallString<256> Temporary;
  std::unique_ptr<llvm::raw_fd_ostream> Stream;
};

// --markdown takes its file optionally: `--markdown FILE` when the next
// argument is not an option (or is "-"), else stdout. Rewritten to
// --markdown=VALUE so that ArgParser sees one value option.
std::vector<std::string> normalizeMarkdownOption(int Argc, const char **Argv) {
  std::vector<std::string> Out;
  for (int I = 0; I < Argc; ++I) {
    const std::string Arg = Argv[I];
    if (Arg == "--") {
      Out.insert(Out.end(), Argv + I, Argv + Argc);
      break;
    }
    if (Arg != "--markdown" && Arg != "-markdown") {
      Out.push_back(Arg);
      continue;
    }
    const bool NextIsFile =
        I + 1 < Argc && std::string(Argv[I + 1]) != "--" && (Argv[I + 1][0] != '-' || std::string(Argv[I + 1]) == "-");
    Out.push_back("--markdown=" + std::string(NextIsFile ? Argv[++I] : "-"));
  }
  return Out;
}

std::string absolutePath(const std::string &Path) {
  llvm::SmallString<256> P(Path);
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

struct Inputs {
  std::unique_ptr<clang::tooling::CompilationDatabase> database;
  std::vector<std::string> files;
  std::string description; // for the page's header
};

Inputs loadInputs(const ArgParser &Args, LintSettings &Settings) {
  Inputs In;
  std::vector<std::string> Files, Flags;
  bool AfterDashes = false;
  for (const std::string &A : Args.positional()) {
    if (A == "--" && !AfterDashes) {
      AfterDashes = true;
      continue;
    }
    (AfterDashes ? Flags : Files).push_back(A);
  }
  const std::optional<std::string> BuildPath = Args.value("p");
  if (Files.empty() && !BuildPath)
    Args.fail("no input files (give -p <build dir>, or files and -- <compile flags>)");
  if (Files.empty() && AfterDashes)
    Args.fail("no input files before '--'");

  std::string Error;
  if (AfterDashes) {
    std::vector<const char *> Argv = {"occlint", "--"};
    for (const std::string &F : Flags)
      Argv.push_back(F.c_str());
    int Argc = int(Argv.size());
    In.database = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv.data(), Error);
    if (!In.database)
      Args.fail("the flags after '--': " + Error);
  } else if (BuildPath) {
    In.database = loadProjectDatabase(*BuildPath, Error);
    if (!In.database)
      Args.fail("-p " + Error);
  } else {
    In.database = findProjectDatabaseFor(Files.front(), Error);
    if (!In.database)
      Args.fail(Error + "; give -p <build dir>, or -- <compile flags>");
  }

  if (Files.empty()) {
    In.files = cudaTranslationUnits(*In.database, Settings.showDiagnosticsIn, nullptr);
    if (In.files.empty())
      Args.fail("-p " + *BuildPath + ": compile_commands.json has no CUDA translation unit (.cu, -x cu)");
    In.description = "-p " + *BuildPath + " (" + std::to_string(In.files.size()) + " CUDA translation unit" +
                     (In.files.size() == 1 ? ")" : "s)");
  } else {
    In.files = Files;
    In.description = Files.size() == 1 ? Files.front() : std::to_string(Files.size()) + " files";
  }
  return In;
}

LintSettings settingsFrom(const ArgParser &Args) {
  LintSettings S;
  if (auto Checks = Args.value("checks"))
    S.checks = *Checks;
  if (auto ConfigFile = Args.value("config-file"))
    S.configFile = *ConfigFile;
  S.quiet = Args.has("quiet");
  S.gpus = Args.values("gpu");
  S.cudaPath = Args.value("cuda-path").value_or("");
  S.root = Args.value("root").value_or("");
  S.baseline = Args.value("baseline").value_or("");
  S.trustedCudaPath = S.cudaPath;
  S.ptxasLogs = Args.values("ptxas-log");
  S.noCompile = Args.has("no-compile");
  S.resultCache = !Args.has("no-result-cache");
  S.strictParse = Args.has("strict-parse");
  S.allowCompilers = Args.values("allow-compiler");
  const int64_t Jobs = Args.integer("jobs", 1, 1024).value_or(0);
  S.jobs = Jobs > 0 ? unsigned(Jobs) : std::max(1u, std::thread::hardware_concurrency());
  S.compileTimeoutSeconds = unsigned(Args.integer("compile-timeout", 1, 86400).value_or(120));
  S.maxMemoryMB = uint64_t(Args.integer("max-memory", 64, 1 << 20).value_or(8192));
  S.progress = !S.quiet && ProgressLine::stderrIsTerminal();
  return S;
}

} // namespace

int runReportCommand(int OriginalArgc, const char **OriginalArgv) {
  const std::vector<std::string> Normalized = normalizeMarkdownOption(OriginalArgc, OriginalArgv);
  std::vector<const char *> Argv;
  for (const std::string &A : Normalized)
    Argv.push_back(A.c_str());
  ArgParser Args("report",
                 {"p", "gpu", "cuda-path", "ptxas-log", "checks", "config-file", "jobs", "html", "markdown",
                  "allow-compiler", "compile-timeout", "max-memory", "root", "baseline", "weights"},
                 {"no-compile", "no-result-cache", "strict-parse", "quiet", "help", "all-staircases"});
  Args.parse(int(Argv.size()), Argv.data());
  if (Args.has("help")) {
    llvm::outs() << ReportHelp;
    return ExitOk;
  }
  const std::optional<std::string> Html = Args.value("html"), Markdown = Args.value("markdown");
  if (Html && Markdown)
    Args.fail("give one of --html FILE and --markdown [FILE], not both");
  if (!Html && !Markdown)
    Args.fail("--html FILE or --markdown [FILE] is required (see --help)");
  if (Html && (Html->empty() || *Html == "-"))
    Args.fail("--html needs a file name");
  const std::optional<std::string> OutputPath = Html ? Html : (*Markdown == "-" ? std::nullopt : Markdown);
  const char *OutputOption = Html ? "--html" : "--markdown";

  LintSettings Settings = settingsFrom(Args);
  Inputs In = loadInputs(Args, Settings);
  if (OutputPath) {
    // Never write the page over a file being linted.
    const std::string Output = absolutePath(*OutputPath);
    for (const std::string &File : In.files)
      if (absolutePath(File) == Output)
        Args.fail(std::string(OutputOption) + ": " + *OutputPath + " is one of the input files");
  }

  // The options that read files, before the analysis: a bad one stops the
  // run at once, and nothing is written.
  ReportOptions Options;
  Options.allStaircases = Args.has("all-staircases");
  KernelWeights Weights;
  if (std::optional<std::string> File = Args.value("weights")) {
    if (std::string Problem = Weights.read(*File); !Problem.empty()) {
      llvm::errs() << "occlint report: error: --weights: " << Problem << "\n";
      return ExitUsageOrInput;
    }
    Options.weights = &Weights;
  }

  // The output file is created (as a temporary) before the run, so that an
  // unwritable path is said at once, and renamed into place at the end.
  std::optional<PendingOutput> Output;
  if (OutputPath) {
    Output.emplace(*OutputPath);
    if (std::string Error = Output->open(); !Error.empty()) {
      llvm::errs() << "occlint report: error: " << OutputOption << ": " << Error << "\n";
      return ExitUsageOrInput;
    }
  }

  LintResult Result = runLint(Settings, *In.database, In.files, OriginalArgv[0], llvm::errs());
  if (Result.setupExitCode != ExitOk) {
    llvm::errs() << "occlint report: error: " << Result.error << "\n";
    return ExitUsageOrInput;
  }
  const ReportModel Model = buildReportModel(Result, In.description, Options);
  llvm::raw_ostream &OS = Output ? Output->stream() : llvm::outs();
  if (Html)
    writeReportHtml(Model, OS);
  else
    writeReportMarkdown(Model, OS);
  if (Output) {
    if (std::string Error = Output->commit(); !Error.empty()) {
      llvm::errs() << "occlint report: error: " << OutputOption << ": " << Error << "\n";
      return ExitUsageOrInput;
    }
  } else {
    llvm::outs().flush();
  }

  if (!Settings.quiet) {
    if (Result.compilerErrors())
      llvm::errs() << "occlint report: note: some files did not compile (clang-diagnostic-error); the page lists "
                      "the errors and shows what could be analysed\n";
    size_t Launches = 0;
    for (const ReportKernelRow &K : Model.kernels)
      Launches += K.launches.size();
    llvm::errs() << "occlint report: " << (OutputPath ? "wrote " + *OutputPath : std::string("wrote the page")) << ": "
                 << Model.kernelCount << (Model.kernelCount == 1 ? " kernel, " : " kernels, ") << Launches
                 << (Launches == 1 ? " launch row, " : " launch rows, ") << Result.diagnostics.size()
                 << (Result.diagnostics.size() == 1 ? " finding, " : " findings, ") << Model.staircases.size()
                 << (Model.staircases.size() == 1 ? " staircase\n" : " staircases\n");
  }
  // Findings do not change the exit code: the page was written.
  return ExitOk;
}

} // namespace occlint
