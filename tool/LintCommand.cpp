#include "LintCommand.h"

#include "CudaCompilationDatabase.h"
#include "ExitCodes.h"
#include "GpuDatabase.h"
#include "IncludedTranslationUnits.h"
#include "ResourceCompiler.h"
#include "ShownIncludedFiles.h"
#include "TargetsOption.h"
#include "ToolResourceReports.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

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

// Checks that are off unless named (remarks that would fill every log).
static const char DefaultChecks[] = "-*,cuda-*,-cuda-occupancy-report";

static cl::opt<std::string> Checks("checks", cl::desc(R"(Comma-separated list of globs with optional '-'
prefix, as clang-tidy's --checks. Default: cuda-* except
cuda-occupancy-report (a remark on every launch))"),
                                   cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                             cl::desc("Checks whose warnings are errors (globs)."),
                                             cl::init(""), cl::cat(OcclintCategory));
// clang-tidy 22's default: diagnostics from every non-system header.
static cl::opt<std::string> HeaderFilter("header-filter",
                                         cl::desc(R"(Regex of headers to report diagnostics from
(default '.*', as clang-tidy 22: all non-system headers).)"),
                                         cl::init(".*"), cl::cat(OcclintCategory));
static cl::opt<std::string> Config("config", cl::desc("Configuration in YAML, as clang-tidy's --config."),
                                   cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> ConfigFile("config-file", cl::desc("Read the configuration from this file."),
                                       cl::init(""), cl::cat(OcclintCategory));
static cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks and exit."),
                                cl::init(false), cl::cat(OcclintCategory));
static cl::opt<bool> Fix("fix", cl::desc("Apply the suggested fixes."), cl::init(false),
                         cl::cat(OcclintCategory));
static cl::opt<std::string> ExportFixes("export-fixes",
                                        cl::desc("Write fixes as YAML for clang-apply-replacements."),
                                        cl::init(""), cl::cat(OcclintCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Print no statistics."), cl::init(false),
                           cl::cat(OcclintCategory));
static cl::list<std::string> Gpus("gpu", cl::desc(R"(Target GPU: a product (H100, a100-40gb), an arch
(sm_90) or an arch with an SM count (sm_90:132).
Repeatable. Sets the Targets check option, and each
file is parsed once per distinct arch of the GPUs
(instead of the archs of its compile command).)"),
                                  cl::cat(OcclintCategory));
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
static cl::opt<bool> Verbose("verbose", cl::desc(R"(Per file and arch: the Clang command line, the flags
the nvcc translation dropped and its notes, where the
resource report came from; skipped included .cu files.)"),
                             cl::init(false), cl::cat(OcclintCategory));

// The value of -p (clang-tidy's spelling: -p DIR, -p=DIR, --p=DIR).
static std::string buildPathArgument(int Argc, const char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg = Argv[I];
    if (Arg == "--")
      break;
    if ((Arg == "-p" || Arg == "--p") && I + 1 < Argc)
      return Argv[I + 1];
    if (Arg.consume_front("-p=") || Arg.consume_front("--p="))
      return Arg.str();
  }
  return "";
}

// A translation unit is CUDA when its file ends in .cu or its command says -x cu / -x cuda.
static bool isCudaCommand(const tooling::CompileCommand &Command) {
  if (llvm::sys::path::extension(Command.Filename) == ".cu")
    return true;
  const std::vector<std::string> &Args = Command.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    llvm::StringRef Language;
    if (Arg == "-x" && I + 1 < Args.size())
      Language = Args[I + 1];
    else if (Arg.starts_with("-x"))
      Language = Arg.drop_front(2);
    if (Language == "cu" || Language == "cuda")
      return true;
  }
  return false;
}

static std::vector<std::string> cudaFilesIn(const tooling::CompilationDatabase &Database) {
  std::vector<std::string> Files;
  for (const tooling::CompileCommand &Command : Database.getAllCompileCommands()) {
    if (!isCudaCommand(Command))
      continue;
    llvm::SmallString<256> Path(Command.Filename);
    if (llvm::sys::path::is_relative(Path)) {
      Path = Command.Directory;
      llvm::sys::path::append(Path, Command.Filename);
    }
    if (std::find(Files.begin(), Files.end(), Path.str()) == Files.end())
      Files.push_back(std::string(Path));
  }
  return Files;
}

static std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider(const std::string &TargetsValue) {
  ClangTidyGlobalOptions GlobalOptions;
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = DefaultChecks;
  DefaultOptions.WarningsAsErrors = "";
  DefaultOptions.HeaderFilterRegex = HeaderFilter;
  DefaultOptions.SystemHeaders = false;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  if (Checks.getNumOccurrences() > 0)
    OverrideOptions.Checks = Checks;
  if (WarningsAsErrors.getNumOccurrences() > 0)
    OverrideOptions.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences() > 0)
    OverrideOptions.HeaderFilterRegex = HeaderFilter;
  // --gpu: the checks' global `Targets` option, over any configuration's.
  if (!TargetsValue.empty())
    OverrideOptions.CheckOptions[TargetsOptionName] = ClangTidyOptions::ClangTidyValue(TargetsValue);

  auto FromText = [&](llvm::StringRef Text, llvm::StringRef Source)
      -> std::unique_ptr<ClangTidyOptionsProvider> {
    llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      llvm::errs() << "occlint: error: invalid configuration in " << Source << ": "
                   << Parsed.getError().message() << "\n";
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(
        std::move(GlobalOptions), ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
        std::move(*Parsed), std::move(OverrideOptions));
  };
  if (ConfigFile.getNumOccurrences() > 0 && Config.getNumOccurrences() > 0) {
    llvm::errs() << "occlint: error: --config-file and --config are mutually exclusive\n";
    return nullptr;
  }
  if (ConfigFile.getNumOccurrences() > 0) {
    auto Text = llvm::MemoryBuffer::getFile(ConfigFile);
    if (!Text) {
      llvm::errs() << "occlint: error: cannot read config file '" << ConfigFile
                   << "': " << Text.getError().message() << "\n";
      return nullptr;
    }
    return FromText((*Text)->getBuffer(), ConfigFile);
  }
  if (Config.getNumOccurrences() > 0)
    return FromText(Config, "<command-line-config>");
  return std::make_unique<FileOptionsProvider>(std::move(GlobalOptions), std::move(DefaultOptions),
                                               std::move(OverrideOptions));
}

int runLintCommand(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(OcclintCategory);
  auto Parser = tooling::CommonOptionsParser::create(Argc, Argv, OcclintCategory, cl::ZeroOrMore,
                                                     "occlint: occupancy and launch checks for CUDA");
  if (!Parser) {
    llvm::errs() << "occlint: error: " << llvm::toString(Parser.takeError()) << "\n";
    return ExitUsageOrInput;
  }

  // --gpu: every name must resolve; they become the `Targets` check option,
  // whose GPUs' archs are the archs each file is parsed for (TargetsOption).
  CudaParseSettings Parse;
  for (const std::string &Spec : Gpus) {
    std::string Error;
    if (!GpuDatabase::builtin().resolve(Spec, Error)) {
      llvm::errs() << "occlint: error: --gpu: " << Error << "\n";
      return ExitUsageOrInput;
    }
  }
  Parse.cudaPath = findCudaToolkit(CudaPathOption);
  if (!Parse.cudaPath && CudaPathOption.getNumOccurrences() > 0) {
    llvm::errs() << "occlint: error: --cuda-path: no CUDA toolkit at '" << CudaPathOption
                 << "' (no bin/ptxas there)\n";
    return ExitUsageOrInput;
  }
  Parse.builtinHeaders = builtinCudaHeadersDir(Argv[0]);
  if (!Parse.cudaPath && !ListChecks && !Quiet)
    llvm::errs() << "occlint: note: no CUDA toolkit found (--cuda-path, CUDA_PATH, /usr/local/cuda); "
                    "running in source-only mode\n";

  auto OptionsProvider = createOptionsProvider(llvm::join(Gpus, ","));
  if (!OptionsProvider)
    return ExitUsageOrInput;
  // Context will own the provider; TargetsOption only asks it for options.
  TargetsOption Targets(*OptionsProvider, ConfigFile);

  std::vector<std::string> Files = Parser->getSourcePathList();
  // `-p build` with no files: every CUDA translation unit of the database.
  // (CommonOptionsParser loads no database when it has no files.)
  std::unique_ptr<tooling::CompilationDatabase> ProjectDatabase;
  if (Files.empty() && !ListChecks) {
    const std::string BuildPath = buildPathArgument(Argc, Argv);
    if (BuildPath.empty()) {
      llvm::errs() << "occlint: error: no input files (give files, or -p <build dir>)\n";
      return ExitUsageOrInput;
    }
    std::string Error;
    ProjectDatabase = tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath, Error);
    if (!ProjectDatabase) {
      llvm::errs() << "occlint: error: " << BuildPath
                   << ": no compile_commands.json there or in a parent directory\n";
      return ExitUsageOrInput;
    }
    Files = cudaFilesIn(*ProjectDatabase);
    if (Files.empty()) {
      llvm::errs() << "occlint: error: " << BuildPath
                   << ": compile_commands.json has no CUDA translation unit (.cu, -x cu)\n";
      return ExitUsageOrInput;
    }
    // A .cu that another translation unit #includes is analysed in that one.
    std::vector<SkippedTranslationUnit> Skipped;
    Files = withoutIncludedTranslationUnits(Files, *ProjectDatabase, Skipped);
    std::vector<std::string> SkippedFiles;
    for (const SkippedTranslationUnit &S : Skipped) {
      SkippedFiles.push_back(S.file);
      if (Verbose)
        llvm::errs() << "occlint: " << S.file << ": skipped: #included by " << S.includedBy << "\n";
    }
    // Their diagnostics come from the includer's parse, where they are in a "header".
    OptionsProvider = showDiagnosticsInFiles(std::move(OptionsProvider), SkippedFiles);
  }
  tooling::CompilationDatabase &Database = ProjectDatabase ? *ProjectDatabase : Parser->getCompilations();
  llvm::SmallString<256> FirstFile(Files.empty() ? "dummy" : Files.front());
  llvm::sys::fs::make_absolute(FirstFile);
  ClangTidyOptions Effective = OptionsProvider->getOptions(FirstFile);
  std::vector<std::string> Enabled = getCheckNames(Effective, false, false);
  if (ListChecks) {
    llvm::outs() << "Enabled checks:";
    for (const std::string &Name : Enabled)
      llvm::outs() << "\n    " << Name;
    llvm::outs() << "\n\n";
    return ExitOk;
  }
  if (Enabled.empty()) {
    llvm::errs() << "occlint: error: no checks enabled\n";
    return ExitUsageOrInput;
  }
  for (const std::string &File : Files) {
    if (!llvm::sys::fs::exists(File)) {
      llvm::errs() << "occlint: error: " << File << ": no such file\n";
      return ExitUsageOrInput;
    }
    // An unknown GPU in a configuration's Targets: a usage error, up front.
    std::string Error;
    Targets.archsFor(File, Error);
    if (!Error.empty()) {
      llvm::errs() << "occlint: error: " << Error << "\n";
      return ExitUsageOrInput;
    }
  }

  // Resource reports for the checks: --ptxas-log, else compile (cached).
  ToolResourceSettings ResourceSettings;
  ResourceSettings.cudaPath = Parse.cudaPath;
  ResourceSettings.noCompile = NoCompile;
  ToolResourceReports Reports(Database, ResourceSettings, llvm::errs(), Verbose ? &llvm::errs() : nullptr);
  if (std::string Error = Reports.loadPtxasLogs(PtxasLogs); !Error.empty()) {
    llvm::errs() << "occlint: error: --ptxas-log: " << Error << "\n";
    return ExitUsageOrInput;
  }

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  CudaCompilationDatabase Compilations(
      Database, Parse,
      [&Targets](llvm::StringRef File) {
        std::string Error; // reported above for every file linted
        return Targets.archsFor(File, Error);
      },
      Verbose ? &llvm::errs() : nullptr);

  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  ClangTidyContext Context(std::move(OptionsProvider), false, false, false);
  // Every file is parsed once per arch; runClangTidy's diagnostic consumer
  // collects the diagnostics of all parses and take() sorts them and drops
  // exact repeats (same file, offset, check and message), so a finding that
  // is the same for two archs, or in a header two files include, prints once.
  clang::tidy::occlint::setResourceReportSource(&Reports);
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Compilations, Files, BaseFS, /*ApplyAnyFix=*/false,
                   /*EnableCheckProfile=*/false, /*StoreCheckProfile=*/"", Quiet);
  clang::tidy::occlint::setResourceReportSource(nullptr);
  const bool CompilerErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
  });
  const bool CheckErrors = llvm::any_of(Errors, [](const ClangTidyError &E) {
    return E.DiagLevel == ClangTidyError::Error && !llvm::StringRef(E.DiagnosticName).starts_with("clang-diagnostic-");
  });
  unsigned WarningsAsErrorsCount = 0;
  handleErrors(Errors, Context, Fix && !CompilerErrors ? FB_Fix : FB_NoFix, WarningsAsErrorsCount, BaseFS);

  if (!ExportFixes.empty()) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(ExportFixes, EC, llvm::sys::fs::OF_None);
    if (EC) {
      llvm::errs() << "occlint: error: cannot write " << ExportFixes << ": " << EC.message() << "\n";
      return ExitUsageOrInput;
    }
    exportReplacements(FirstFile.str(), Errors, OS);
  }
  if (!Quiet) {
    unsigned Count = Errors.size();
    llvm::errs() << Count << (Count == 1 ? " diagnostic" : " diagnostics") << " in " << Files.size()
                 << (Files.size() == 1 ? " file" : " files") << "\n";
  }
  if (CompilerErrors)
    return ExitUsageOrInput;
  if (CheckErrors || WarningsAsErrorsCount > 0)
    return ExitFindings;
  return ExitOk;
}

} // namespace occlint
