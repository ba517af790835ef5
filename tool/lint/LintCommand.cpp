#include "Commands.h"

#include "ExitCodes.h"
#include "checks/CheckRegistry.h"
#include "facts/ProgramTranslationUnits.h"
#include "lint/LintPipeline.h"
#include "lint/ProgressLine.h"
#include "lint/ProjectDatabase.h"
#include "lint/TargetsOption.h"
#include "outputs/CheckCatalog.h"
#include "outputs/OutputFormats.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <thread>

using namespace clang;
using namespace clang::tidy;
namespace cl = llvm::cl;

namespace clang::tidy {
extern volatile int OcclintModuleAnchorSource;
// Keeps the module's registration object in the static link.
[[maybe_unused]] static int OcclintModuleAnchorDestination = OcclintModuleAnchorSource;
} // namespace clang::tidy

namespace occlint {

static cl::OptionCategory OcclintCategory("occlint options");

// --checks' help: the checks off by default, from their declarations.
static const std::string ChecksHelp = [] {
  std::string Help =
      "Comma-separated list of globs with optional '-'\nprefix, as clang-tidy's --checks. Default: cuda-*";
  std::string Off;
  for (const clang::tidy::occlint::CheckDeclaration &D : clang::tidy::occlint::checkDeclarations())
    if (!D.onByDefault)
      Off += (Off.empty() ? "" : ", ") + D.name.str();
  return Off.empty() ? Help : Help + " except\n" + Off + " (off by default)";
}();
static cl::opt<std::string> Checks("checks", cl::desc(ChecksHelp), cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                             cl::desc("Checks whose warnings are errors (globs)."), cl::init(""),
                                             cl::cat(OcclintCategory));
static cl::opt<std::string> HeaderFilter("header-filter", cl::desc(R"(Regex of headers to report diagnostics from
(default '.*', as clang-tidy 22: all non-system headers).)"),
                                         cl::init(".*"), cl::cat(OcclintCategory));
static cl::opt<bool> SystemHeaders("system-headers", cl::desc("Report diagnostics in system headers too."),
                                   cl::init(false), cl::cat(OcclintCategory));
static cl::opt<std::string> Config("config", cl::desc("Configuration in YAML, as clang-tidy's --config."), cl::init(""),
                                   cl::cat(OcclintCategory));
static cl::opt<std::string> ConfigFile("config-file", cl::desc("Read the configuration from this file."), cl::init(""),
                                       cl::cat(OcclintCategory));
static cl::opt<bool> DumpConfig("dump-config", cl::desc(R"(Print the effective configuration (checks, their
options with current values) as YAML and exit.)"),
                                cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks with their documentation and exit."),
                                cl::init(false), cl::cat(OcclintCategory));
static cl::opt<std::string> LineFilter("line-filter", cl::desc(R"(Report only findings on these lines, as
clang-tidy: '[{"name":"file.cu","lines":[[1,3],[5,5]]},...]'.)"),
                                       cl::init(""), cl::cat(OcclintCategory));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes (not when the code has compiler errors)."),
                         cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> FixErrors("fix-errors",
                               cl::desc("Apply the suggested fixes even when the code has compiler errors."),
                               cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> FixNotes("fix-notes",
                              cl::desc("Also apply fixes attached to notes; as in clang-tidy, implies --fix."),
                              cl::init(false), cl::cat(OcclintCategory));
static cl::opt<std::string> ExportFixes("export-fixes", cl::desc("Write fixes as YAML for clang-apply-replacements."),
                                        cl::init(""), cl::cat(OcclintCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Print no statistics, notes or progress."), cl::init(false),
                           cl::cat(OcclintCategory));
static cl::opt<std::string> Format("format", cl::desc(R"(Output: text (clang's layout, the default), json
(docs/output-formats.md) or sarif (SARIF 2.1.0).)"),
                                   cl::init("text"), cl::cat(OcclintCategory));
static cl::opt<std::string> OutputFile("output", cl::desc(R"(Write the json or sarif output to this file instead
of stdout (written whole, or not at all).)"),
                                       cl::init(""), cl::cat(OcclintCategory));
static cl::alias OutputFileShort("o", cl::desc("Alias for --output"), cl::aliasopt(OutputFile));
// --color=auto|always|never: LLVM itself registers a boolean "color" option,
// so occlint's is taken out of argv before the command line is parsed
// (takeColorArgument) and described in the help's overview.
static const char ColorHelp[] = R"(
Colours: --color=auto (the default: on a terminal), --color=always, --color=never
(the text output's colours, as clang's).
)";
// clang-tidy's spelling of the same choice.
static cl::opt<bool> UseColor("use-color", cl::desc(R"(As clang-tidy's: --use-color is --color=always,
--use-color=false is --color=never.)"),
                              cl::init(false), cl::cat(OcclintCategory));
static cl::opt<unsigned> Jobs("jobs", cl::desc(R"(Files analysed in parallel (default: the number of
CPU cores).)"),
                              cl::init(0), cl::cat(OcclintCategory));
static cl::alias JobsShort("j", cl::desc("Alias for --jobs"), cl::aliasopt(Jobs));
static cl::opt<unsigned> CompileTimeout("compile-timeout",
                                        cl::desc(R"(Seconds one compiler process (nvcc, ptxas) may run
for a resource report before it is killed with its
child processes; the file is then checked without
one (default: 120).)"),
                                        cl::init(120), cl::cat(OcclintCategory));
static cl::opt<unsigned> MaxMemory("max-memory", cl::desc(R"(Megabytes of memory the analysis of one file may
use; past it that file gets an occlint-internal-error
diagnostic and the run exits 3 (default: 8192).)"),
                                   cl::init(8192), cl::cat(OcclintCategory));
static cl::list<std::string> Gpus("gpu", cl::desc(R"(Target GPU: a product (H100, a100-40gb), an arch
(sm_90) or an arch with an SM count (sm_90:132).
Repeatable. Sets the Targets check option, and each
file is parsed once per distinct arch of the GPUs
(instead of the archs of its compile command).)"),
                                  cl::cat(OcclintCategory));
static cl::opt<std::string> RootOption("root", cl::desc(R"(The project's root: paths in JSON ("path"), SARIF and
the report are shown relative to it (default: the git
top level of the files, else their common directory).)"),
                                       cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> BaselineOption("baseline",
                                           cl::desc(R"(A saved --format=json output: JSON and SARIF mark each
finding new or unchanged since then, and JSON lists the
saved findings that are fixed.)"),
                                           cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> CudaPathOption("cuda-path",
                                           cl::desc("CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda)."),
                                           cl::init(""), cl::cat(OcclintCategory));
static cl::list<std::string> PtxasLogs("ptxas-log", cl::desc(R"(A build log with ptxas -v output (nvcc -Xptxas -v,
clang -Xcuda-ptxas -v): the checks take the kernels'
resources from it instead of compiling. Repeatable.)"),
                                       cl::cat(OcclintCategory));
static cl::opt<bool> NoCompile("no-compile", cl::desc(R"(Never run the device compiler for resource reports:
the checks estimate resources from the source.)"),
                               cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> StrictParse("strict-parse", cl::desc(R"(Report Clang's errors in a file that nvcc compiled as
errors (exit 2), as for any file Clang cannot parse. By
default they are occlint's gap: one warning per file and
arch, and the findings in the functions with errors are
dropped (docs/nvcc-parity.md).)"),
                                 cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> ParseEachArch("parse-each-arch", cl::desc(R"(Parse every file once per arch of its command. By
default a file whose own files never depend on the
arch (__CUDA_ARCH__) is parsed once and the checks run
for each arch on that parse (docs/build-integration.md).)"),
                                   cl::init(false), cl::cat(OcclintCategory));
static cl::list<std::string> AllowCompilers("allow-compiler",
                                            cl::desc(R"(Also allow occlint to run this program (a glob,
matched against the realpath; repeatable). By default
it runs only the CUDA toolkit's programs and
/usr/bin/{gcc,g++,cc,c++,clang,clang++}[-N]: a compile
database or .clang-tidy never widens that
(docs/security.md).)"),
                                            cl::cat(OcclintCategory));
static cl::opt<bool> NoResultCache("no-result-cache", cl::desc(R"(Analyse every file, even one whose findings occlint's
cache holds for its unchanged content, headers, command,
configuration and resource reports (docs/result-cache.md).)"),
                                   cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> Verbose("verbose", cl::desc(R"(Per file and arch: the Clang command line, the flags
the nvcc translation dropped and its notes, where the
resource report came from; skipped included .cu files;
per file, whether its findings came from the result cache.)"),
                             cl::init(false), cl::cat(OcclintCategory));
static cl::alias VerboseShort("v", cl::desc("Alias for --verbose"), cl::aliasopt(Verbose));

// The values of an option CommonOptionsParser owns, read again from argv
// (spellings -opt V, -opt=V, --opt V, --opt=V; none after "--").
static std::vector<std::string> argumentValues(int Argc, const char **Argv, llvm::StringRef Name) {
  std::vector<std::string> Values;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--")
      break;
    if (!Arg.consume_front("-"))
      continue;
    Arg.consume_front("-");
    if (Arg == Name && I + 1 < Argc)
      Values.push_back(Argv[++I]);
    else if (Arg.consume_front(Name) && Arg.consume_front("="))
      Values.push_back(Arg.str());
  }
  return Values;
}

// The database with --extra-arg-before/--extra-arg applied, as
// CommonOptionsParser applies them to the one it loads.
static std::unique_ptr<tooling::CompilationDatabase>
withExtraArguments(std::unique_ptr<tooling::CompilationDatabase> Database, int Argc, const char **Argv) {
  auto Adjusted = std::make_unique<tooling::ArgumentsAdjustingCompilations>(std::move(Database));
  Adjusted->appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(argumentValues(Argc, Argv, "extra-arg-before"),
                                                                       tooling::ArgumentInsertPosition::BEGIN));
  Adjusted->appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(argumentValues(Argc, Argv, "extra-arg"),
                                                                       tooling::ArgumentInsertPosition::END));
  return Adjusted;
}

// Removes every --color=V / --color V / -color... from argv; returns the last value.
static std::optional<std::string> takeColorArgument(std::vector<const char *> &Args) {
  std::optional<std::string> Value;
  std::vector<const char *> Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      Kept.insert(Kept.end(), Args.begin() + I, Args.end());
      break;
    }
    llvm::StringRef Name = Arg;
    if (Name.consume_front("-")) {
      Name.consume_front("-");
      if (Name == "color" && I + 1 < Args.size()) {
        Value = Args[++I];
        continue;
      }
      if (Name.consume_front("color=")) {
        Value = Name.str();
        continue;
      }
    }
    Kept.push_back(Args[I]);
  }
  Args = std::move(Kept);
  return Value;
}

static LintSettings settingsFromCommandLine(const std::string &Color) {
  LintSettings S;
  auto Given = [](const auto &Option) { return Option.getNumOccurrences() > 0; };
  if (Given(Checks))
    S.checks = Checks;
  if (Given(WarningsAsErrors))
    S.warningsAsErrors = WarningsAsErrors;
  if (Given(HeaderFilter))
    S.headerFilter = HeaderFilter;
  if (Given(SystemHeaders))
    S.systemHeaders = SystemHeaders;
  if (Given(Config))
    S.config = Config;
  if (Given(ConfigFile))
    S.configFile = ConfigFile;
  S.lineFilter = LineFilter;
  if (Color == "always")
    S.color = true;
  else if (Color == "never")
    S.color = false;
  else if (UseColor.getNumOccurrences() > 0)
    S.color = bool(UseColor);
  S.quiet = Quiet;
  S.gpus = std::vector<std::string>(Gpus.begin(), Gpus.end());
  S.cudaPath = CudaPathOption;
  S.root = RootOption;
  S.baseline = BaselineOption;
  S.trustedCudaPath = CudaPathOption;
  S.ptxasLogs = std::vector<std::string>(PtxasLogs.begin(), PtxasLogs.end());
  S.noCompile = NoCompile;
  S.strictParse = StrictParse;
  S.parseEachArch = ParseEachArch;
  S.allowCompilers = std::vector<std::string>(AllowCompilers.begin(), AllowCompilers.end());
  S.verbose = Verbose;
  S.resultCache = !NoResultCache;
  S.jobs = Jobs > 0 ? Jobs : std::max(1u, std::thread::hardware_concurrency());
  S.compileTimeoutSeconds = CompileTimeout;
  S.maxMemoryMB = MaxMemory;
  // The progress line goes where the findings do not (stderr), and only
  // when a person watches it.
  S.progress = !Quiet && !Verbose && ProgressLine::stderrIsTerminal();
  return S;
}

static int usageError(const std::string &Message) {
  llvm::errs() << "occlint: error: " << Message << "\n";
  return ExitUsageOrInput;
}

// --list-checks: the enabled checks, each with its documentation page.
static int listChecks(const std::vector<std::string> &Enabled) {
  llvm::outs() << "Enabled checks:";
  for (const std::string &Name : Enabled) {
    llvm::outs() << "\n    " << Name;
    if (const CheckDoc *Doc = findCheckDoc(Name))
      llvm::outs() << "\n        " << Doc->summary << "\n        " << Doc->url;
  }
  llvm::outs() << "\n\n";
  return ExitOk;
}

// --dump-config: as clang-tidy's, the effective options with every enabled
// check's options at their current values.
static int dumpConfig(const LintSettings &Settings, llvm::StringRef File) {
  std::string Error;
  auto Provider = createOptionsProvider(Settings, Error);
  if (!Provider)
    return usageError(Error);
  ClangTidyOptions Effective = Provider->getOptions(File);
  ClangTidyOptions::OptionMap Stored = getCheckOptions(Effective, false, false);
  // Global options (no "check." prefix: Targets, PtxasLog) stay as configured.
  for (const auto &Option : Effective.CheckOptions)
    if (!Option.getKey().contains('.'))
      Stored.insert_or_assign(Option.getKey(), Option.getValue());
  Effective.CheckOptions = std::move(Stored);
  llvm::outs() << configurationAsText(ClangTidyOptions::getDefaults().merge(Effective, 0)) << "\n";
  return ExitOk;
}

// Writes `Write`'s output to `Path` through a temporary file renamed at the
// end, so a failure leaves no partial file.
template <typename WriteFn> static int writeOutputFile(const std::string &Path, WriteFn Write) {
  llvm::SmallString<256> Temporary;
  int FD = -1;
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%";
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Temporary))
    return usageError("--output: cannot write " + Path + ": " + EC.message());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    Write(OS);
    OS.close();
    if (OS.has_error()) {
      llvm::sys::fs::remove(Temporary);
      return usageError("--output: cannot write " + Path + ": " + OS.error().message());
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    return usageError("--output: cannot write " + Path + ": " + EC.message());
  }
  return ExitOk;
}

int runLintCommand(int OriginalArgc, const char **OriginalArgv) {
  std::vector<const char *> Arguments(OriginalArgv, OriginalArgv + OriginalArgc);
  const std::string Color = takeColorArgument(Arguments).value_or("auto");
  // make's spelling -j4 (LLVM's parser takes only -j 4 and -j=4 for a
  // one-letter alias).
  std::vector<std::string> JobsSpellings;
  JobsSpellings.reserve(Arguments.size());
  for (const char *&Arg : Arguments) {
    llvm::StringRef A = Arg;
    if (A == "--")
      break;
    if (A.size() > 2 && A.starts_with("-j") && llvm::all_of(A.drop_front(2), llvm::isDigit)) {
      JobsSpellings.push_back("--jobs=" + A.drop_front(2).str());
      Arg = JobsSpellings.back().c_str();
    }
  }
  int Argc = int(Arguments.size());
  const char **Argv = Arguments.data();
  // CommonOptionsParser takes the words after "--" (and Argc with them).
  const bool FlagsAfterDashes = llvm::any_of(Arguments, [](const char *Arg) { return llvm::StringRef(Arg) == "--"; });
  cl::HideUnrelatedOptions(OcclintCategory);
  const std::string Overview = std::string("occlint: occupancy and launch checks for CUDA\n") + ColorHelp;
  // --version names occlint, then the Clang it parses with.
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "occlint version " OCCLINT_VERSION "\n  with LLVM/Clang " LLVM_VERSION_STRING "\n";
  });
  auto Parser = tooling::CommonOptionsParser::create(Argc, Argv, OcclintCategory, cl::ZeroOrMore, Overview.c_str());
  if (!Parser)
    return usageError(llvm::toString(Parser.takeError()));
  if (CompileTimeout == 0 || CompileTimeout > 86400)
    return usageError("--compile-timeout: " + std::to_string(CompileTimeout) + " is not in [1, 86400] seconds");
  if (MaxMemory < 64 || MaxMemory > (1u << 20))
    return usageError("--max-memory: " + std::to_string(MaxMemory) + " is not in [64, 1048576] MB");
  if (Format != "text" && Format != "json" && Format != "sarif")
    return usageError("--format: unknown format '" + Format + "' (text, json or sarif)");
  if (Color != "auto" && Color != "always" && Color != "never")
    return usageError("--color: unknown value '" + Color + "' (auto, always or never)");
  if ((Fix || FixErrors) && Format != "text")
    return usageError("--fix/--fix-errors: only with --format=text (run once with --fix, then with --format)");
  if (!OutputFile.empty() && Format == "text")
    return usageError("--output: only with --format=json or --format=sarif (text goes to stdout, as clang-tidy's)");

  LintSettings Settings = settingsFromCommandLine(Color);
  std::vector<std::string> Files = Parser->getSourcePathList();
  // The project's database is loaded by loadProjectDatabase (response files
  // of a sensible size only), not by CommonOptionsParser: for `-p build` with
  // no files (CommonOptionsParser loads none then), with -p and files, and
  // for files alone (the database above the first one). A malformed one is an
  // error; when there is none, CommonOptionsParser's stays, which has said
  // why and runs without flags, as clang-tidy does. The flags after "--" are
  // CommonOptionsParser's too.
  std::unique_ptr<tooling::CompilationDatabase> ProjectDatabase;
  const std::vector<std::string> BuildPaths = argumentValues(Argc, Argv, "p");
  if (Files.empty() && !ListChecks && !DumpConfig) {
    if (BuildPaths.empty())
      return usageError("no input files (give files, or -p <build dir>)");
    const std::string &BuildPath = BuildPaths.back();
    std::string Error;
    ProjectDatabase = loadProjectDatabase(BuildPath, Error);
    if (!ProjectDatabase)
      return usageError(Error);
    ProjectDatabase = withExtraArguments(std::move(ProjectDatabase), Argc, Argv);
    Files = cudaTranslationUnits(*ProjectDatabase, Settings.showDiagnosticsIn, Verbose ? &llvm::errs() : nullptr);
    if (Files.empty())
      return usageError(BuildPath + ": compile_commands.json has no CUDA translation unit (.cu, -x cu)");
  } else if (!Files.empty() && !FlagsAfterDashes && !ListChecks && !DumpConfig) {
    std::string Error;
    ProjectDatabase = projectDatabaseInOrAbove(
        BuildPaths.empty() ? llvm::sys::path::parent_path(Files.front()) : llvm::StringRef(BuildPaths.back()), Error);
    if (!Error.empty())
      return usageError(Error);
    if (ProjectDatabase)
      ProjectDatabase = withExtraArguments(std::move(ProjectDatabase), Argc, Argv);
  }

  if (ListChecks || DumpConfig) {
    llvm::SmallString<256> File(Files.empty() ? "dummy.cu" : Files.front());
    llvm::sys::fs::make_absolute(File);
    if (DumpConfig)
      return dumpConfig(Settings, File);
    std::string Error;
    auto Provider = createOptionsProvider(Settings, Error);
    if (!Provider)
      return usageError(Error);
    return listChecks(getCheckNames(Provider->getOptions(File), false, false));
  }

  tooling::CompilationDatabase &Database = ProjectDatabase ? *ProjectDatabase : Parser->getCompilations();
  // The project's database is the program: a helper no other of its files
  // names has all its callers in its own file (facts/ProgramTranslationUnits.h).
  if (ProjectDatabase)
    clang::tidy::occlint::ProgramTranslationUnits::set(ProjectDatabase->getAllFiles());
  LintResult Result = runLint(Settings, Database, Files, Argv[0], llvm::errs());
  if (Result.setupExitCode != ExitOk)
    return usageError(Result.error);

  if (Format == "text") {
    // clang's layout on stdout; --fix/--fix-errors apply the fixes here.
    // As clang-tidy: --fix-notes implies --fix.
    const bool ApplyFixes = FixErrors || ((Fix || FixNotes) && !Result.compilerErrors());
    if (Fix && !FixErrors && Result.compilerErrors())
      llvm::errs()
          << "occlint: note: fixes not applied: the code has compiler errors (use --fix-errors to apply them anyway)\n";
    unsigned WarningsAsErrorsCount = 0;
    handleErrors(Result.errors, *Result.context, ApplyFixes ? (FixNotes ? FB_FixNotes : FB_Fix) : FB_NoFix,
                 WarningsAsErrorsCount, llvm::vfs::getRealFileSystem());
  } else {
    auto Write = [&](llvm::raw_ostream &OS) {
      if (Format == "json")
        writeJsonOutput(Result, OS);
      else
        writeSarifOutput(Result, OS);
    };
    if (OutputFile.empty()) {
      Write(llvm::outs());
    } else if (int Code = writeOutputFile(OutputFile, Write); Code != ExitOk) {
      return Code;
    }
  }

  if (!ExportFixes.empty()) {
    int Code = writeOutputFile(ExportFixes,
                               [&](llvm::raw_ostream &OS) { exportReplacements(Result.firstFile, Result.errors, OS); });
    if (Code != ExitOk)
      return Code;
  }
  if (!Quiet) {
    const size_t Count = Result.errors.size();
    llvm::errs() << Count << (Count == 1 ? " diagnostic" : " diagnostics") << " in " << Result.fileCount
                 << (Result.fileCount == 1 ? " file" : " files") << "\n";
    if (Result.baseline)
      llvm::errs() << "against the baseline " << Result.baseline->file << ": " << Result.baseline->newCount()
                   << " new, " << Result.baseline->fixed.size() << " fixed\n";
  }
  return Result.exitCode();
}

} // namespace occlint
