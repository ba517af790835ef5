#include "lint/ToolResourceReports.h"

#include "toolchain/BuildCapture.h"
#include "toolchain/CompileCommandTranslator.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace occlint {

using clang::tidy::occlint::ResourceReportLookup;

static const char EstimatedNote[] = "resources estimated from the source";

// The value under Key in Map, computed by Compute once: by the first thread
// that asks; a second thread asking meanwhile waits for it (occlint --jobs).
template <class Key, class Value, class ComputeFn>
const Value &onceFor(std::mutex &Lock, std::map<Key, std::shared_future<Value>> &Map, const Key &K, ComputeFn Compute) {
  std::shared_future<Value> Found;
  std::optional<std::promise<Value>> Mine; // set when this thread computes it
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Map.find(K);
    if (It == Map.end()) {
      Mine.emplace();
      It = Map.emplace(K, Mine->get_future().share()).first;
    }
    Found = It->second;
  }
  if (Mine)
    Mine->set_value(Compute());
  return Found.get(); // the shared state lives in the map
}

// A ptxas log read for the checks: its kernels are the main file's.
static PtxasReport reportOfFile(const std::string &Log, const std::string &MainFile) {
  PtxasReport Report = parsePtxasLog(Log);
  for (FunctionResources &F : Report.functions)
    F.sourceFile = MainFile;
  return Report;
}

std::vector<std::string> resourceCompileCommand(const std::vector<std::string> &CommandLine,
                                                const std::string &Toolkit) {
  std::vector<std::string> Args = CommandLine;
  // ResourceCompiler tells the compiler by argv[0]; a launcher hides it.
  static const llvm::StringRef Launchers[] = {"ccache", "sccache", "distcc", "icecc", "buildcache"};
  while (!Args.empty() && llvm::is_contained(Launchers, llvm::sys::path::filename(Args.front())))
    Args.erase(Args.begin());
  // Strict names: "clang-tool" (FixedCompilationDatabase) is not a compiler,
  // though ResourceCompiler's compilerKindOf would take it for clang.
  if (Args.empty() || isNvccCommand(Args) || isClangCommand(Args))
    return Args;
  // Flags meant for the Clang parse: nvcc's own filter keeps what it knows
  // (-I, -D, -U, -isystem, -include, -std, -O...) and drops the rest.
  std::vector<std::string> Out{Toolkit + "/bin/nvcc"};
  for (size_t I = 1; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg.starts_with("-x")) {
      if (Arg == "-x" && I + 1 == Args.size())
        break;
      llvm::StringRef Language = Arg == "-x" ? llvm::StringRef(Args[++I]) : Arg.drop_front(2);
      Out.insert(Out.end(), {"-x", Language == "cuda" ? "cu" : Language.str()});
      continue;
    }
    Out.push_back(Args[I]);
  }
  return Out;
}

ToolResourceReports::ToolResourceReports(const clang::tooling::CompilationDatabase &Commands,
                                         ToolResourceSettings Settings, llvm::raw_ostream &Warnings,
                                         llvm::raw_ostream *Verbose)
    : Commands(Commands), Settings(std::move(Settings)), Warnings(Warnings), Verbose(Verbose) {}

std::string ToolResourceReports::loadPtxasLogs(const std::vector<std::string> &Paths) {
  if (Paths.empty())
    return "";
  PtxasReport Merged;
  for (const std::string &Path : Paths) {
    if (!llvm::sys::fs::is_regular_file(Path))
      return Path + ": no such file";
    auto Text = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Text)
      return Path + ": cannot be read: " + Text.getError().message();
    PtxasReport Report = parsePtxasLog((*Text)->getBuffer());
    if (Report.functions.empty())
      return Path + ": no ptxas resource report in it (was the build run with -Xptxas -v?)";
    Merged.merge(Report);
  }
  LogReport = std::move(Merged);
  LogSource = (Paths.size() == 1 ? "ptxas log " : "ptxas logs ") + llvm::join(Paths, ", ");
  return "";
}

ResourceReportLookup ToolResourceReports::reportFor(llvm::StringRef MainFile, llvm::StringRef Arch) {
  // The logs answer for every file and arch: the checks look kernels up by
  // name and arch in them.
  if (LogReport) {
    std::lock_guard<std::mutex> Guard(MemoLock);
    auto [It, New] = Memo.try_emplace({MainFile.str(), Arch.str()});
    if (New && Verbose)
      *Verbose << "occlint: " << MainFile << " [" << Arch << "]: resources: " << LogSource << "\n";
    return {&*LogReport, LogSource};
  }
  const Entry &E = entryFor(MainFile, Arch);
  return {E.report ? &*E.report : nullptr, E.source, E.maxRegisterCount, E.origin};
}

std::optional<bool> ToolResourceReports::nvccAccepted(llvm::StringRef MainFile, llvm::StringRef Arch) {
  if (LogReport)
    return std::nullopt; // a build log says nothing about this file's compile
  return entryFor(MainFile, Arch).nvccAccepted;
}

const ToolResourceReports::Entry &ToolResourceReports::entryFor(llvm::StringRef MainFile, llvm::StringRef Arch) {
  // One entry, and so one compile, per file and arch whatever the spelling:
  // a database may name it "./a.cu" in one command and "a.cu" in another.
  llvm::SmallString<256> File(MainFile);
  llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  // The map keeps the shared state (and so the report) alive.
  return onceFor(MemoLock, Memo, std::make_pair(File.str().str(), Arch.str()), [&] {
    Entry Looked = lookUp(File.str().str(), Arch.str());
    if (Verbose)
      *Verbose << "occlint: " << File << " [" << Arch << "]: resources: " << Looked.source << "\n";
    return Looked;
  });
}

ToolResourceReports::Entry ToolResourceReports::lookUp(const std::string &MainFile, const std::string &Arch) {
  if (Settings.noCompile)
    return {std::nullopt, std::string("--no-compile: ") + EstimatedNote};
  std::vector<clang::tooling::CompileCommand> Found = Commands.getCompileCommands(MainFile);
  std::optional<BuildCommand> Build;
  if (!Found.empty())
    Build = BuildCommand{Found.front(), translateCompileCommand(Found.front().CommandLine, Found.front().Directory)};
  // The report the build's own compile left (occlint-wrap's sidecar next to
  // the object), when it is still current: no compiler runs.
  if (Build)
    if (std::optional<Entry> Captured = fromBuild(MainFile, Arch, *Build))
      return std::move(*Captured);
  if (Build)
    if (std::optional<Entry> AtLink = leftToTheDeviceLink(Arch, *Build))
      return std::move(*AtLink);
  if (!Settings.cudaPath)
    return {std::nullopt, std::string("no CUDA toolkit: ") + EstimatedNote};
  if (Settings.cacheOnly) {
    // The latest report a trusted run (or the build) left for this file, still current.
    if (std::optional<std::string> Log = latestCachedPtxasLog(MainFile, Arch, Settings.cacheDir)) {
      return {reportOfFile(*Log, MainFile), "ptxas, " + Arch + ", cached (untrusted workspace: no compiler run)"};
    }
    return {std::nullopt, std::string("untrusted workspace, nothing cached: ") + EstimatedNote};
  }
  if (!Build)
    return {std::nullopt, std::string("no compile command: ") + EstimatedNote};
  return compile(MainFile, Arch, *Build);
}

std::optional<ToolResourceReports::Entry>
ToolResourceReports::fromBuild(const std::string &MainFile, const std::string &Arch, const BuildCommand &Build) {
  const clang::tooling::CompileCommand &Command = Build.command;
  const std::shared_ptr<const LoadedBuildCapture> Loaded = buildCaptureOf(MainFile, Command);
  const LoadedBuildCapture &Capture = *Loaded;
  if (!Capture.found)
    return std::nullopt;
  auto Log = Capture.ptxasLogs.find(Arch);
  if (!Capture.current || Log == Capture.ptxasLogs.end()) {
    if (Verbose)
      *Verbose << "occlint: " << MainFile << " [" << Arch << "]: the build's report is not used: "
               << (Capture.current ? "it has no " + Arch + " report" : Capture.reason) << "\n";
    return std::nullopt;
  }
  return Entry{reportOfFile(Log->second, MainFile), "ptxas, " + Arch + ", from the build",
               Build.translated.maxRegisterCount, /*nvccAccepted=*/true, "from the build"};
}

std::optional<ToolResourceReports::Entry> ToolResourceReports::leftToTheDeviceLink(const std::string &Arch,
                                                                                   const BuildCommand &Build) {
  // `code=lto_90` or `-dlto`: the compile leaves LTO-IR, and ptxas runs at
  // the device link, on the whole program; a compile of this file alone
  // would give other figures. Unknown, saying why (issue 17).
  if (!llvm::is_contained(Build.translated.linkTimeArchs, Arch))
    return std::nullopt;
  return Entry{std::nullopt, "registers decided at the device link (the build leaves " + Arch +
                                 " as LTO-IR: code=lto_XX or -dlto): " + EstimatedNote};
}

std::shared_ptr<const LoadedBuildCapture>
ToolResourceReports::buildCaptureOf(const std::string &MainFile, const clang::tooling::CompileCommand &Command) {
  return onceFor(CaptureLock, Captures, MainFile, [&] {
    return std::make_shared<const LoadedBuildCapture>(
        loadBuildCaptureForCommand(Command.CommandLine, Command.Directory, MainFile));
  });
}

ToolResourceReports::Entry ToolResourceReports::compile(const std::string &MainFile, const std::string &Arch,
                                                        const BuildCommand &Build) {
  const clang::tooling::CompileCommand &Command = Build.command;
  CompileRequest Request;
  Request.sourceFile = MainFile;
  Request.command = resourceCompileCommand(Command.CommandLine, *Settings.cudaPath);
  Request.directory = Command.Directory;
  Request.archs = {Arch};
  Request.cudaPath = *Settings.cudaPath;
  Request.cacheDir = Settings.cacheDir;
  Request.timeout = Settings.compileTimeout;
  CompileOutcome Outcome = compileForResources(Request);
  for (const std::string &Program : Outcome.refusedPrograms)
    noteOnce("refused " + Program,
             "occlint: note: did not run " + Program + ", named by the compile command of " + MainFile +
                 ": it is not an allowed program (a checkout's compile database is data, not a program to run;"
                 " docs/security.md); to trust it, pass " +
                 ProgramAllowlist::allowLineFor(Program) +
                 (Outcome.hostCompilerSubstituted ? "; /usr/bin/g++ used as nvcc's host compiler instead" : ""));
  for (const std::string &Flag : Outcome.droppedUnsafeFlags)
    noteOnce("dropped " + Flag, "occlint: note: dropped '" + Flag + "' from the device compile of " + MainFile +
                                    ": it would make the compiler run or load other code (docs/security.md)");
  if (!Outcome.ok) {
    // Once per (file, arch): the caller memoizes the entry.
    llvm::StringRef FirstLine = llvm::StringRef(Outcome.error).split('\n').first.trim();
    Warnings << "occlint: warning: " << MainFile << ": no resource report for " << Arch << ": " << FirstLine
             << (Outcome.rejectionRemembered
                     ? " (an earlier run's verdict: the file, its headers and its command are unchanged)"
                     : "")
             << "\n";
    Warnings.flush();
    Entry Failed{std::nullopt, Outcome.rejectionRemembered ? "device compile failed, cached" : "device compile failed"};
    if (Outcome.compilerRejected)
      Failed.nvccAccepted = false;
    return Failed;
  }
  // -maxrregcount of the build command: the spills check names it as a cause.
  const std::optional<int> MaxRegisters = Build.translated.maxRegisterCount;
  return {std::move(Outcome.report),
          "ptxas, " + Arch + (Outcome.fromCache ? ", cached" : "") +
              (Outcome.hostCompilerSubstituted ? ", host compiler substituted (register counts can differ)" : ""),
          MaxRegisters, /*nvccAccepted=*/true};
}

void ToolResourceReports::noteOnce(const std::string &Key, const std::string &Line) {
  std::lock_guard<std::mutex> Guard(NotedLock);
  if (!Noted.insert(Key).second)
    return;
  if (Deferring) {
    Deferred.emplace_back(Key, Line);
    return;
  }
  Warnings << Line << "\n";
  Warnings.flush();
}

std::vector<std::pair<std::string, std::string>> ToolResourceReports::takeDeferredNotes() {
  std::lock_guard<std::mutex> Guard(NotedLock);
  return std::move(Deferred);
}

} // namespace occlint
