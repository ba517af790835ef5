#include "lint/LintPipeline.h"

#include "ExitCodes.h"
#include "UserTrust.h"
#include "checks/CheckRegistry.h"
#include "facts/RunContext.h"
#include "gpu/GpuDatabase.h"
#include "lint/CheckOptionValidation.h"
#include "lint/CheckoutExtraArgs.h"
#include "lint/CudaCompilationDatabase.h"
#include "lint/IncludedTranslationUnits.h"
#include "lint/LineFilter.h"
#include "lint/LintRun.h"
#include "lint/ShownIncludedFiles.h"
#include "lint/TargetsOption.h"
#include "lint/ToolResourceReports.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompiler.h"
#include "toolchain/ResultCache.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <mutex>

using namespace clang;
using namespace clang::tidy;

namespace occlint {

std::string defaultChecks() { return clang::tidy::occlint::defaultChecksGlob(); }

std::unique_ptr<ClangTidyOptionsProvider> createOptionsProvider(const LintSettings &Settings, std::string &Error) {
  ClangTidyGlobalOptions GlobalOptions;
  if (!Settings.lineFilter.empty())
    if (std::error_code EC = parseJsonLineFilter(Settings.lineFilter, GlobalOptions)) {
      Error = "--line-filter: invalid JSON (" + EC.message() +
              "); expected e.g. "
              "'[{\"name\":\"file.cu\",\"lines\":[[1,3]]}]'";
      return nullptr;
    }
  ClangTidyOptions DefaultOptions;
  DefaultOptions.Checks = defaultChecks();
  DefaultOptions.WarningsAsErrors = "";
  // clang-tidy 22's default: diagnostics from every non-system header.
  DefaultOptions.HeaderFilterRegex = ".*";
  DefaultOptions.SystemHeaders = false;
  DefaultOptions.User = llvm::sys::Process::GetEnv("USER");

  ClangTidyOptions OverrideOptions;
  OverrideOptions.Checks = Settings.checks;
  OverrideOptions.WarningsAsErrors = Settings.warningsAsErrors;
  OverrideOptions.HeaderFilterRegex = Settings.headerFilter;
  OverrideOptions.SystemHeaders = Settings.systemHeaders;
  OverrideOptions.UseColor = Settings.color;
  // --gpu: the checks' global `Targets` option, over any configuration's.
  if (!Settings.gpus.empty())
    OverrideOptions.CheckOptions[TargetsOptionName] = ClangTidyOptions::ClangTidyValue(llvm::join(Settings.gpus, ","));

  auto FromText = [&](llvm::StringRef Text, llvm::StringRef Source) -> std::unique_ptr<ClangTidyOptionsProvider> {
    llvm::ErrorOr<ClangTidyOptions> Parsed = parseConfiguration(llvm::MemoryBufferRef(Text, Source));
    if (!Parsed) {
      Error = "invalid configuration in " + Source.str() + ": " + Parsed.getError().message();
      return nullptr;
    }
    return std::make_unique<ConfigOptionsProvider>(std::move(GlobalOptions),
                                                   ClangTidyOptions::getDefaults().merge(DefaultOptions, 0),
                                                   std::move(*Parsed), std::move(OverrideOptions));
  };
  std::unique_ptr<ClangTidyOptionsProvider> Provider;
  if (Settings.configFile && Settings.config) {
    Error = "--config-file and --config are mutually exclusive";
    return nullptr;
  }
  if (Settings.configFile) {
    auto Text = llvm::MemoryBuffer::getFile(*Settings.configFile);
    if (!Text) {
      Error = "cannot read config file '" + *Settings.configFile + "': " + Text.getError().message();
      return nullptr;
    }
    Provider = FromText((*Text)->getBuffer(), *Settings.configFile);
  } else if (Settings.config) {
    Provider = FromText(*Settings.config, "<command-line-config>");
  } else {
    Provider = std::make_unique<FileOptionsProvider>(std::move(GlobalOptions), std::move(DefaultOptions),
                                                     std::move(OverrideOptions));
  }
  if (!Provider)
    return nullptr;
  // Diagnostics of .cu files linted inside their includer come from that parse.
  Provider = showDiagnosticsInFiles(std::move(Provider), Settings.showDiagnosticsIn);
  // A checkout's .clang-tidy may not load plugins through ExtraArgs.
  return dropUnsafeCheckoutExtraArgs(std::move(Provider), Settings.configFile.value_or(""));
}

// A translation unit is CUDA when its file ends in .cu or its command says -x cu / -x cuda.
bool isCudaCommand(const tooling::CompileCommand &Command) {
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

std::vector<std::string> cudaTranslationUnits(const tooling::CompilationDatabase &Database,
                                              std::vector<std::string> &Included, llvm::raw_ostream *Verbose) {
  std::vector<std::string> Files;
  llvm::StringSet<> Listed;
  for (const tooling::CompileCommand &Command : Database.getAllCompileCommands()) {
    if (!isCudaCommand(Command))
      continue;
    llvm::SmallString<256> Path(Command.Filename);
    if (llvm::sys::path::is_relative(Path)) {
      Path = Command.Directory;
      llvm::sys::path::append(Path, Command.Filename);
    }
    // Once whatever the spelling ("./a.cu", "a.cu", "src/../a.cu"): the
    // analysis of a file runs every command the database has for it.
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (Listed.insert(Path).second)
      Files.push_back(std::string(Path));
  }
  // A .cu that another translation unit #includes is analysed in that one.
  std::vector<SkippedTranslationUnit> Skipped;
  Files = withoutIncludedTranslationUnits(Files, Database, Skipped);
  for (const SkippedTranslationUnit &S : Skipped) {
    Included.push_back(S.file);
    if (Verbose)
      *Verbose << "occlint: " << S.file << ": skipped: #included by " << S.includedBy << "\n";
  }
  return Files;
}

static void initializeTargetsOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmParsers();
  });
}

LintResult runLint(const LintSettings &Settings, const tooling::CompilationDatabase &Database,
                   const std::vector<std::string> &Files, const char *Argv0, llvm::raw_ostream &Log) {
  LintResult Result;
  auto Fail = [&Result](std::string Error) -> LintResult {
    Result.setupExitCode = ExitUsageOrInput;
    Result.error = std::move(Error);
    return std::move(Result);
  };
  Result.fileCount = Files.size();

  // --gpu: every name must resolve; they become the `Targets` check option,
  // whose GPUs' archs are the archs each file is parsed for (TargetsOption).
  for (const std::string &Spec : Settings.gpus) {
    std::string Error;
    if (!GpuDatabase::builtin().resolve(Spec, Error))
      return Fail("--gpu: " + Error);
  }
  CudaParseSettings Parse;
  Parse.cudaPath = findCudaToolkit(Settings.cudaPath);
  if (!Parse.cudaPath && !Settings.cudaPath.empty())
    return Fail("--cuda-path: no CUDA toolkit at '" + Settings.cudaPath + "' (no bin/ptxas there)");
  Parse.builtinHeaders = builtinCudaHeadersDir(Argv0);
  // The nvcc compatibility layer (docs/nvcc-parity.md).
  if (std::string Warning = enableNvccCompatibility(Parse, Argv0); !Warning.empty())
    Log << "occlint: warning: " << Warning << "\n";
  // The programs this run may start: the toolkit, the system host compilers
  // and what the user (never the checkout) allowed. docs/security.md.
  std::string TrustError;
  const UserTrust Trust = readUserTrust(TrustError);
  if (!TrustError.empty())
    return Fail(TrustError);
  ProgramAllowlist Allowed = ProgramAllowlist::defaults(findCudaToolkit(Settings.trustedCudaPath).value_or(""));
  for (const std::string &Glob : Trust.allowCompilers)
    Allowed.allow(Glob);
  for (const std::string &Glob : Settings.allowCompilers)
    Allowed.allow(Glob);
  setProcessAllowlist(std::move(Allowed));
  Result.sourceOnly = !Parse.cudaPath;
  // The compiler's and the system's include directories, and occlint's own
  // headers, are shown as <system>/... in every output.
  Result.roots =
      choosePathRoots(Settings.root, Files, Parse.cudaPath.value_or(""),
                      {"/usr/include", "/usr/local/include", "/usr/lib/gcc", OCCLINT_CLANG_RESOURCE_DIR "/include",
                       Parse.builtinHeaders, llvm::sys::path::parent_path(Parse.compatPrelude).str()});
  // A bad baseline stops the run before any analysis (exit 2, nothing written).
  std::vector<BaselineFinding> Baseline;
  if (!Settings.baseline.empty())
    if (std::string Problem = readBaseline(Settings.baseline, Result.roots, Baseline); !Problem.empty())
      return Fail("--baseline: " + Problem);
  if (Result.sourceOnly && !Settings.quiet)
    Log << "occlint: note: no CUDA toolkit found (--cuda-path, CUDA_PATH, /usr/local/cuda); "
           "running in source-only mode\n";

  std::string Error;
  std::unique_ptr<ClangTidyOptionsProvider> Provider = createOptionsProvider(Settings, Error);
  if (!Provider)
    return Fail(Error);
  TargetsOption Targets(*Provider, Settings.configFile.value_or(""));
  if (Files.empty())
    return Fail("no input files (give files, or -p <build dir>)");
  llvm::SmallString<256> FirstFile(Files.front());
  llvm::sys::fs::make_absolute(FirstFile);
  Result.firstFile = std::string(FirstFile);
  if (getCheckNames(Provider->getOptions(FirstFile), false, false).empty())
    return Fail("no checks enabled");
  const CheckOptionValidator OptionValues(Settings.configFile.value_or(""));
  for (const std::string &File : Files) {
    if (!llvm::sys::fs::exists(File))
      return Fail(File + ": no such file");
    if (llvm::sys::fs::is_directory(File))
      return Fail(File + ": is a directory, not a source file");
    // An unknown GPU in a configuration's Targets: a usage error, up front.
    Targets.archsFor(File, Error);
    if (!Error.empty())
      return Fail(Error);
    llvm::SmallString<256> Absolute(File);
    llvm::sys::fs::make_absolute(Absolute);
    if (std::string Bad = OptionValues.validate(*Provider, Absolute); !Bad.empty())
      return Fail(Bad);
  }

  // Resource reports for the checks: --ptxas-log, else compile (cached).
  ToolResourceSettings ResourceSettings;
  ResourceSettings.cudaPath = Parse.cudaPath;
  ResourceSettings.noCompile = Settings.noCompile;
  ResourceSettings.cacheOnly = !Settings.startProcesses;
  ResourceSettings.compileTimeout = std::chrono::seconds(Settings.compileTimeoutSeconds);
  ToolResourceReports Reports(Database, ResourceSettings, Log, Settings.verbose ? &Log : nullptr);
  if (std::string LogError = Reports.loadPtxasLogs(Settings.ptxasLogs); !LogError.empty())
    return Fail("--ptxas-log: " + LogError);

  initializeTargetsOnce();
  CudaCompilationDatabase Compilations(
      Database, Parse,
      [&Targets](llvm::StringRef File) {
        std::string Ignored; // reported above for every file linted
        return Targets.archsFor(File, Ignored);
      },
      Settings.verbose ? &Log : nullptr);

  ProgressLine Progress(llvm::errs(), Settings.progress);
  LintJob Job;
  Job.files = Files;
  Job.compilations = &Compilations;
  Job.makeOptionsProvider = [&Settings] {
    std::string Ignored; // the same settings succeeded above
    return createOptionsProvider(Settings, Ignored);
  };
  Job.jobs = Settings.jobs;
  Job.quiet = Settings.quiet;
  Job.oneParseForArchs = !Settings.parseEachArch;
  std::mutex ParseNotesLock;
  if (Settings.verbose)
    Job.parseNote = [&Log, &ParseNotesLock](const std::string &Line) {
      std::lock_guard<std::mutex> Guard(ParseNotesLock);
      Log << "occlint: " << Line << "\n";
      Log.flush();
    };
  Job.progress = &Progress;
  // OCCLINT_IN_PROCESS=1: everything in this process, for debugging occlint
  // itself under gdb, perf or heaptrack (docs/crash-isolation.md).
  Job.isolate = Settings.isolateFiles && !llvm::sys::Process::GetEnv("OCCLINT_IN_PROCESS");
  Job.maxMemoryMB = Settings.maxMemoryMB;
  // A child's once-per-run notes come back with its findings and are printed
  // here, once for the whole run.
  Job.childStarts = [&Reports] { Reports.deferNotes(); };
  Job.childNotes = [&Reports] {
    nlohmann::json Notes = nlohmann::json::array();
    for (auto &[Key, Line] : Reports.takeDeferredNotes())
      Notes.push_back({Key, Line});
    return Notes;
  };
  Job.parentNotes = [&Reports](const nlohmann::json &Notes) {
    for (const nlohmann::json &Note : Notes)
      Reports.printNoteOnce(Note.at(0).get<std::string>(), Note.at(1).get<std::string>());
  };
  // Each file's findings from the result cache while nothing they depend
  // on changed (lint/UnitResultCache.h): the settings below, with the
  // file's commands and configuration, make its key.
  if (Settings.resultCache && Job.isolate) {
    LintJob::ResultCacheUse Cache;
    Cache.runSettings = nlohmann::json({{"strictParse", Settings.strictParse},
                                        {"parseEachArch", Settings.parseEachArch},
                                        {"lineFilter", Settings.lineFilter},
                                        {"showDiagnosticsIn", Settings.showDiagnosticsIn},
                                        {"cudaPath", Parse.cudaPath.value_or("")},
                                        {"builtinHeaders", Parse.builtinHeaders},
                                        {"compatPrelude", Parse.compatPrelude}})
                            .dump();
    if (Settings.verbose)
      Cache.verbose = [&Log, &ParseNotesLock](const std::string &Line) {
        std::lock_guard<std::mutex> Guard(ParseNotesLock);
        Log << Line << "\n";
        Log.flush();
      };
    if (!Settings.quiet)
      Cache.notice = [&Log](const std::string &Line) {
        Log << Line << "\n";
        Log.flush();
      };
    Job.resultCache = std::move(Cache);
  }
  // Clang's errors in a file nvcc compiled are occlint's gap: asked only
  // for a parse with errors, answered by that file's resource compile.
  if (!Settings.strictParse)
    Job.nvccAccepted = [&Reports](const std::string &File, const std::string &Arch) {
      llvm::SmallString<256> Absolute(File); // as the facts asked for its report
      llvm::sys::fs::make_absolute(Absolute);
      return Reports.nvccAccepted(Absolute, Arch);
    };
  // A file is parsed once per arch, or once with the checks run for each
  // arch; the job sorts the findings of all runs and drops exact repeats,
  // so a finding that is the same for two archs, or in a header two files
  // include, prints once.
  Progress.start(Files.size());
  LintOutcome Outcome;
  {
    clang::tidy::occlint::RunContext Context = clang::tidy::occlint::runContext();
    Context.resourceReports = &Reports;
    const clang::tidy::occlint::RunContextScope Installed(Context);
    Outcome = runLintJob(Job);
  }
  Progress.finish();
  // occlint's cache (resource reports, results) kept within its size: the
  // least recently used entries go (docs/result-cache.md).
  uint64_t DefaultMaxBytes = 0;
  const std::optional<uint64_t> MaxBytes = ::occlint::ResultCache::maxBytesFromEnvironment(&DefaultMaxBytes);
  if (!MaxBytes && !Settings.quiet)
    Log << "occlint: warning: OCCLINT_CACHE_MAX_MB is not a positive whole number of megabytes; the cache keeps "
           "to "
        << (DefaultMaxBytes >> 20) << " MB\n";
  ::occlint::ResultCache().evictLeastRecentlyUsed(MaxBytes.value_or(DefaultMaxBytes));

  Result.errors = std::move(Outcome.errors);
  Result.units = std::move(Outcome.units);
  for (ParseGap &Gap : Outcome.parseGaps) {
    ParseGapNotice Notice;
    Notice.file = Gap.file;
    Notice.arch = Gap.arch;
    Notice.firstError = toDiagnosticRecords({Gap.firstError}).front();
    Notice.functionsNotAnalysed = Gap.functionsNotAnalysed;
    Notice.findingsDropped = Gap.findingsDropped;
    Log << "occlint: warning: " << Notice.message() << "\n";
    Result.parseGaps.push_back(std::move(Notice));
  }
  Log.flush();
  Result.diagnostics = toDiagnosticRecords(Result.errors);
  if (!Settings.baseline.empty()) {
    Result.baseline = compareWithBaseline(Result.diagnostics, Result.roots, Baseline);
    Result.baseline->file = Settings.baseline;
  }
  Result.context = std::make_unique<ClangTidyContext>(std::move(Provider), false, false, false);
  Result.context->setCurrentFile(Result.firstFile);
  return Result;
}

} // namespace occlint
