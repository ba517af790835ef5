#include "LintCommand.h"

#include "CudaCompilationDatabase.h"
#include "ExitCodes.h"
#include "GpuDatabase.h"
#include "ResourceCompiler.h"

#include "clang-tidy/ClangTidy.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyOptions.h"
#include "clang/Tooling/CommonOptionsParser.h"
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
static const char DefaultChecks[] = "-*,cuda-*";

static cl::opt<std::string> Checks("checks", cl::desc(R"(Comma-separated list of globs with optional '-'
prefix, as clang-tidy's --checks. Default: cuda-*)"),
                                   cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                             cl::desc("Checks whose warnings are errors (globs)."),
                                             cl::init(""), cl::cat(OcclintCategory));
static cl::opt<std::string> HeaderFilter("header-filter",
                                         cl::desc("Regex of headers to report diagnostics from."),
                                         cl::init(""), cl::cat(OcclintCategory));
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
Repeatable.)"),
                                  cl::cat(OcclintCategory));
static cl::opt<std::string> CudaPathOption("cuda-path",
                                           cl::desc("CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda)."),
                                           cl::init(""), cl::cat(OcclintCategory));

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

static std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider() {
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

  // Targets: the first --gpu chooses the arch to parse for (more in the frontend issue).
  CudaParseSettings Parse;
  for (const std::string &Spec : Gpus) {
    std::string Error;
    std::optional<TargetGpu> Gpu = GpuDatabase::builtin().resolve(Spec, Error);
    if (!Gpu) {
      llvm::errs() << "occlint: error: --gpu: " << Error << "\n";
      return ExitUsageOrInput;
    }
    if (&Spec == &Gpus.front())
      Parse.defaultArch = Gpu->arch.name;
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

  auto OptionsProvider = createOptionsProvider();
  if (!OptionsProvider)
    return ExitUsageOrInput;

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
  for (const std::string &File : Files)
    if (!llvm::sys::fs::exists(File)) {
      llvm::errs() << "occlint: error: " << File << ": no such file\n";
      return ExitUsageOrInput;
    }

  llvm::InitializeAllTargetInfos();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmParsers();

  CudaCompilationDatabase Compilations(Database, Parse);

  auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
  ClangTidyContext Context(std::move(OptionsProvider), false, false, false);
  std::vector<ClangTidyError> Errors =
      runClangTidy(Context, Compilations, Files, BaseFS, /*ApplyAnyFix=*/false,
                   /*EnableCheckProfile=*/false, /*StoreCheckProfile=*/"", Quiet);
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
