#include "lint/LintRun.h"
#include "lint/CheckParse.h"
#include "lint/SharedDeclarationOverlay.h"
#include "lint/SingleCommandDatabase.h"

#include "facts/RunContext.h"
#include "lint/IsolatedAnalysis.h"
#include "lint/UnitResultCache.h"
#include "toolchain/ResultCache.h"

#include "clang-tidy/ClangTidy.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

namespace occlint {

namespace {

class CollectingSink final : public clang::tidy::occlint::FactsRecordSink {
public:
  void record(clang::tidy::occlint::TranslationUnitRecord Record) override {
    std::lock_guard<std::mutex> Guard(Lock);
    Records.push_back(std::move(Record));
  }
  std::vector<clang::tidy::occlint::TranslationUnitRecord> take() {
    std::lock_guard<std::mutex> Guard(Lock);
    return std::move(Records);
  }
  /// Forgets the records of a parse that is run again: those of MainFile
  /// (one worker parses a file at a time) on Arch.
  void forget(const std::string &MainFile, const std::string &Arch) {
    std::lock_guard<std::mutex> Guard(Lock);
    llvm::erase_if(Records, [&](const clang::tidy::occlint::TranslationUnitRecord &R) {
      return R.arch == Arch && (R.mainFile == MainFile || llvm::sys::fs::equivalent(R.mainFile, MainFile));
    });
  }

private:
  std::mutex Lock;
  std::vector<clang::tidy::occlint::TranslationUnitRecord> Records;
};

// clang-tidy's own order and identity of findings (ClangTidyDiagnosticConsumer::take).
// The same finding whatever the spelling of its file's path: a file the
// database names twice ("./a.cu", "a.cu") is parsed once per command.
auto errorKey(const clang::tidy::ClangTidyError &E) {
  llvm::SmallString<256> File(E.Message.FilePath);
  llvm::sys::path::remove_dots(File, /*remove_dot_dot=*/true);
  return std::make_tuple(std::string(File), E.Message.FileOffset, E.DiagnosticName, E.Message.Message);
}

// The run's context with `Sink` as its records' destination, installed for
// the run (and removed even when a check throws).
clang::tidy::occlint::RunContext withRecords(clang::tidy::occlint::FactsRecordSink *Sink) {
  clang::tidy::occlint::RunContext Context = clang::tidy::occlint::runContext();
  Context.records = Sink;
  return Context;
}

// Keeps the function extents of the parse running in this thread (the first
// that TranslationUnitFacts hands over), for degradeParse.
class ExtentsOfOneParse final : public clang::tidy::occlint::FunctionExtentSink {
public:
  void record(std::vector<clang::tidy::occlint::FunctionExtent> Found) override {
    if (!Extents)
      Extents = std::move(Found);
  }
  std::optional<std::vector<clang::tidy::occlint::FunctionExtent>> Extents;
};

clang::tidy::occlint::ParseContext withExtents(clang::tidy::occlint::FunctionExtentSink *Sink) {
  clang::tidy::occlint::ParseContext Context = clang::tidy::occlint::parseContext();
  Context.extents = Sink;
  return Context;
}

// What the parses of one file found.
struct FileFindings {
  std::vector<clang::tidy::ClangTidyError> errors;
  std::vector<ParseGap> parseGaps;
};

bool sameFix(const llvm::StringMap<clang::tooling::Replacements> &A,
             const llvm::StringMap<clang::tooling::Replacements> &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &File : A) {
    auto Other = B.find(File.getKey());
    if (Other == B.end() || !(Other->getValue() == File.getValue()))
      return false;
  }
  return true;
}

// The same finding from another parse (another arch, or another file that
// includes the same header) is printed once, but a kernel's body can differ
// between parses (#if __CUDA_ARCH__), and a fix-it must be safe for all of
// them. So a fix-it is kept only where every parse proposed it; where the
// parses' notes at one place differ, the note without a fix-it (the parse
// that could not prove the edit safe) is the one kept; a note only the
// repeat has is added, without its fix-it.
void mergeRepeat(clang::tidy::ClangTidyError &Kept, const clang::tidy::ClangTidyError &Repeat) {
  if (!sameFix(Kept.Message.Fix, Repeat.Message.Fix))
    Kept.Message.Fix.clear();
  auto SamePlace = [](const clang::tooling::DiagnosticMessage &A, const clang::tooling::DiagnosticMessage &B) {
    return A.FilePath == B.FilePath && A.FileOffset == B.FileOffset;
  };
  for (clang::tooling::DiagnosticMessage &Note : Kept.Notes) {
    auto Other =
        std::find_if(Repeat.Notes.begin(), Repeat.Notes.end(), [&](const clang::tooling::DiagnosticMessage &N) {
          return SamePlace(N, Note) && N.Message == Note.Message;
        });
    if (Other != Repeat.Notes.end()) {
      if (!sameFix(Other->Fix, Note.Fix))
        Note.Fix.clear();
      continue;
    }
    auto Differing =
        std::find_if(Repeat.Notes.begin(), Repeat.Notes.end(),
                     [&](const clang::tooling::DiagnosticMessage &N) { return SamePlace(N, Note) && N.Fix.empty(); });
    if (Differing != Repeat.Notes.end() && !Note.Fix.empty())
      Note = *Differing;
    Note.Fix.clear();
  }
  for (const clang::tooling::DiagnosticMessage &Note : Repeat.Notes) {
    const bool Known = std::any_of(Kept.Notes.begin(), Kept.Notes.end(),
                                   [&](const auto &N) { return SamePlace(N, Note) && N.Message == Note.Message; });
    const bool Replaced = std::any_of(Kept.Notes.begin(), Kept.Notes.end(),
                                      [&](const auto &N) { return SamePlace(N, Note) && !Note.Fix.empty(); });
    if (!Known && !Replaced) {
      Kept.Notes.push_back(Note);
      Kept.Notes.back().Fix.clear();
    }
  }
}

// Fix-its of different findings that edit the same place: clang-tidy would
// apply them all, one after the other (two archs' notes each inserting
// __launch_bounds__ before one kernel give the attribute twice). In the
// findings' order, a fix-it (a warning's own or a note's) that overlaps one
// kept before it, or inserts at the same offset, is dropped: each place is
// edited once.
void dropCollidingFixes(std::vector<clang::tidy::ClangTidyError> &Errors) {
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Taken; // file -> [begin, end) edited
  auto Collide = [](unsigned B1, unsigned E1, unsigned B2, unsigned E2) {
    return B1 == B2 || (B1 < E2 && B2 < E1) || (B1 == E1 && B2 < B1 && B1 < E2) || (B2 == E2 && B1 < B2 && B2 < E1);
  };
  auto Keep = [&](llvm::StringMap<clang::tooling::Replacements> &Fix) {
    for (const auto &File : Fix)
      for (const clang::tooling::Replacement &R : File.getValue())
        for (const auto &[Begin, End] : Taken[File.getKey().str()])
          if (Collide(R.getOffset(), R.getOffset() + R.getLength(), Begin, End)) {
            Fix.clear();
            return;
          }
    for (const auto &File : Fix)
      for (const clang::tooling::Replacement &R : File.getValue())
        Taken[File.getKey().str()].push_back({R.getOffset(), R.getOffset() + R.getLength()});
  };
  for (clang::tidy::ClangTidyError &E : Errors) {
    Keep(E.Message.Fix);
    for (clang::tooling::DiagnosticMessage &Note : E.Notes)
      Keep(Note.Fix);
  }
}

// The diagnostic a file gets when the process that analysed it did not come
// back with findings: what happened, the check if known, how to report it.
clang::tidy::ClangTidyError internalError(const IsolatedFile &F, const std::string &CrashFile, uint64_t MaxMemoryMB) {
  clang::tidy::ClangTidyError E(InternalErrorCheckName, clang::tidy::ClangTidyError::Error, "", false);
  std::string Text;
  if (F.failure.outOfMemory) {
    Text = "occlint stopped analysing this file: it used more than " + std::to_string(MaxMemoryMB) +
           " MB of memory (--max-memory); no findings for it (the other files were analysed). Raise "
           "--max-memory for a file this large; if the file is small, this is a bug in occlint: please report it "
           "with this file or a reduced copy";
  } else {
    Text = "occlint " + F.failure.what + " while analysing this file";
    if (!F.failure.check.empty())
      Text += ", in check '" + F.failure.check + "'";
    Text += "; no findings for it (the other files were analysed). This is a bug in occlint: please report it "
            "with this file or a reduced copy";
    if (!CrashFile.empty())
      Text += " and the crash log " + CrashFile;
  }
  E.Message.Message = Text;
  E.Message.FilePath = F.file;
  E.Message.FileOffset = 0;
  return E;
}

// The stack dump of a crashed analysis, kept for the bug report; "" when
// it cannot be written.
// What a file's analysis said, less occlint's own --verbose progress lines
// (parse archs, clang command, resources): a run that hits the result cache
// prints those itself before it looks the entry up, so keeping them in the
// entry printed them twice under --verbose.
std::string withoutProgressLines(const std::string &Said) {
  std::string Out;
  llvm::StringRef Rest(Said);
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    const bool Progress =
        Line.starts_with("occlint: ") &&
        (Line.contains(": parse archs ") || Line.contains("]: clang command: ") || Line.contains("]: resources: "));
    if (!Progress)
      Out += Line.str() + (Tail.data() ? "\n" : ""); // a split at a newline gives a non-null tail
    Rest = Tail;
  }
  return Out;
}

std::string saveCrashLog(const IsolatedFile &F) {
  if (F.failure.crashLog.empty())
    return "";
  llvm::SmallString<256> Dir(::occlint::ResultCache::defaultDirectory());
  llvm::sys::path::append(Dir, "crashes");
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  llvm::SmallString<256> Path;
  int Fd = -1;
  llvm::SmallString<256> Model(Dir);
  llvm::sys::path::append(Model, "crash-%%%%%%%%.txt");
  if (llvm::sys::fs::createUniqueFile(Model, Fd, Path))
    return "";
  llvm::raw_fd_ostream OS(Fd, /*shouldClose=*/true);
  OS << "file: " << F.file << "\nwhat: " << F.failure.what
     << "\ncheck: " << (F.failure.check.empty() ? "(not known)" : F.failure.check) << "\n\n"
     << F.failure.crashLog;
  return std::string(Path);
}

// Two per-arch commands of one file that differ only in the arch they parse
// for (CudaCompilationDatabase gives one per arch of a compile command).
bool sameCommandButArch(const clang::tooling::CompileCommand &A, const clang::tooling::CompileCommand &B) {
  if (A.Filename != B.Filename || A.Directory != B.Directory || A.CommandLine.size() != B.CommandLine.size())
    return false;
  for (size_t I = 0; I < A.CommandLine.size(); ++I) {
    llvm::StringRef X = A.CommandLine[I], Y = B.CommandLine[I];
    if (X != Y && !(X.starts_with("--cuda-gpu-arch=") && Y.starts_with("--cuda-gpu-arch=")))
      return false;
  }
  return true;
}

} // namespace

LintOutcome runLintJob(const LintJob &Job) {
  CollectingSink Sink;
  const clang::tidy::occlint::RunContextScope Installed(withRecords(&Sink));
  std::mutex ResultsLock;
  std::vector<clang::tidy::ClangTidyError> All;
  std::vector<ParseGap> Gaps;
  std::atomic<size_t> Next{0};

  std::exception_ptr Failure; // a worker's first exception, rethrown once all have joined

  // Every parse of one file (one for all its archs, or one per arch), with
  // clang-tidy's engine.
  // Given FilesRead and Inputs (the result cache), every file the parses
  // read and every nvcc verdict asked go there.
  auto AnalyseFile = [&Job, &Sink](const std::string &File,
                                   llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                                   std::vector<std::string> *FilesRead = nullptr, AnalysisInputs *Inputs = nullptr) {
    FileFindings Found;
    auto Run = [&](const clang::tooling::CompilationDatabase &Commands, const std::string &Arch, OtherArchs *Others) {
      ExtentsOfOneParse Extents;
      std::vector<std::vector<clang::tidy::ClangTidyError>> Runs;
      // A parse in which Clang rejected a __shared__ object for its
      // constructor runs again with those declarations rewritten
      // (lint/SharedDeclarationOverlay.h); its findings replace the first's.
      std::vector<RejectedSharedDeclaration> Rejected;
      llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FS = BaseFS;
      for (bool FirstParse = true;; FirstParse = false) {
        clang::tidy::ClangTidyContext Context(Job.makeOptionsProvider(), false, false, false);
        Extents.Extents.reset();
        std::string HeldStats; // Clang's "N errors generated" of a parse that may be run again
        {
          const clang::tidy::occlint::ParseContextScope Installed(withExtents(Job.nvccAccepted ? &Extents : nullptr));
          Runs = runChecksOnFile(Context, Commands, File, FS, Job.quiet, Others, FirstParse ? &Rejected : nullptr,
                                 FirstParse ? &HeldStats : nullptr, FilesRead);
        }
        if (!FirstParse || Rejected.empty() || !(FS = overlayRejectedSharedDeclarations(Rejected, BaseFS))) {
          llvm::errs() << HeldStats;
          break;
        }
        Sink.forget(File, Arch);
        if (Others) {
          Others->covered.clear();
          Others->whyNot.clear();
        }
      }
      // The other archs' runs (a parse without errors) only add findings.
      for (size_t I = 1; I < Runs.size(); ++I)
        for (clang::tidy::ClangTidyError &E : Runs[I])
          Found.errors.push_back(std::move(E));
      std::vector<clang::tidy::ClangTidyError> Errors = std::move(Runs.front());
      // Compiler errors in code nvcc compiled: occlint's gap (ParseGaps.h).
      // nvcc is asked only here, so a clean parse never waits for it.
      if (Job.nvccAccepted && !Arch.empty() && std::any_of(Errors.begin(), Errors.end(), isCompilerError)) {
        const std::optional<bool> Accepted = Job.nvccAccepted(File, Arch);
        if (Inputs)
          Inputs->add("verdict", File, Arch, answerOf(Accepted));
        if (Accepted && *Accepted) {
          ParseGap Gap = degradeParse(Errors, Extents.Extents);
          Gap.file = File;
          Gap.arch = Arch;
          Found.parseGaps.push_back(std::move(Gap));
        }
      }
      for (clang::tidy::ClangTidyError &E : Errors)
        Found.errors.push_back(std::move(E));
    };
    std::vector<clang::tooling::CompileCommand> PerArch = Job.compilations->getCompileCommands(File);
    if (PerArch.empty())
      Run(*Job.compilations, "", nullptr); // clang-tidy says the file has no command
    std::vector<bool> Done(PerArch.size(), false);
    for (size_t I = 0; I < PerArch.size(); ++I) {
      if (Done[I])
        continue;
      const std::string Arch = parseArchOf(PerArch[I].CommandLine);
      // The later commands that differ from this one only in the arch: this
      // parse may stand for them (CheckParse.h).
      OtherArchs Others;
      Others.parseArch = Arch;
      std::vector<size_t> Alike;
      if (Job.oneParseForArchs && !Arch.empty())
        for (size_t J = I + 1; J < PerArch.size(); ++J)
          if (!Done[J] && sameCommandButArch(PerArch[I], PerArch[J])) {
            Alike.push_back(J);
            Others.archs.push_back(parseArchOf(PerArch[J].CommandLine));
          }
      Run(SingleCommandDatabase(PerArch[I]), Arch, &Others);
      Done[I] = true;
      if (!Others.covered.empty())
        for (size_t J : Alike)
          Done[J] = true;
      if (Job.parseNote && !Others.archs.empty())
        Job.parseNote(Others.covered.empty()
                          ? File + ": one parse per arch: " + Others.whyNot
                          : File + ": one parse for " + Arch + ", " + llvm::join(Others.covered, ", ") +
                                ": its own files never depend on the arch");
    }
    return Found;
  };

  if (Job.isolate) {
    // One process per file (lint/IsolatedAnalysis.h): the child runs
    // AnalyseFile and sends back what it found.
    auto InChild = [&](const std::string &File) {
      if (Job.childStarts)
        Job.childStarts();
      // The child is a fork of the parent: its sink holds every record the
      // parent collected so far. Sent back, they would be collected again,
      // doubling with each file (memory and time).
      (void)Sink.take();
      // The result cache, asked here: the resource reports an entry used are
      // asked again as this process would ask them for its analysis.
      std::optional<std::string> Key;
      bool Corrupt = false;
      llvm::SmallString<256> Absolute(File);
      llvm::sys::fs::make_absolute(Absolute);
      llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
      if (Job.resultCache) {
        const auto Asked = std::chrono::steady_clock::now(); // the key and the check of an entry, timed
        Key = unitResultKey(std::string(Absolute), Job.compilations->getCompileCommands(File),
                            clang::tidy::configurationAsText(Job.makeOptionsProvider()->getOptions(Absolute)),
                            Job.resultCache->runSettings);
        auto CurrentAnswer = [&Job](const nlohmann::json &Use) -> std::string {
          const std::string What = Use.at("what"), UseFile = Use.at("file"), Arch = Use.at("arch");
          if (What == "report") {
            clang::tidy::occlint::ResourceReportSource *Source = clang::tidy::occlint::runContext().resourceReports;
            return Source ? answerOf(Source->reportFor(UseFile, Arch)) : "no report source";
          }
          if (What == "verdict")
            return answerOf(Job.nvccAccepted ? Job.nvccAccepted(UseFile, Arch) : std::nullopt);
          return "not known: " + What;
        };
        if (std::optional<CachedResult> Hit =
                UnitResultCache(Job.resultCache->directory).lookup(*Key, CurrentAnswer, Corrupt)) {
          const std::chrono::duration<double, std::milli> Took = std::chrono::steady_clock::now() - Asked;
          Hit->result.cache = {{"hit", true}, {"milliseconds", Took.count()}};
          // Said again as the analysis said it (this process's stderr is
          // the parent's pipe): Clang's "N warnings generated." included.
          llvm::errs() << Hit->said;
          llvm::errs().flush();
          return std::move(Hit->result);
        }
      }
      AnalysisInputs Inputs;
      std::optional<RecordingReportSource> Recording;
      std::optional<clang::tidy::occlint::RunContextScope> RecordingInstalled;
      if (Key)
        if (clang::tidy::occlint::ResourceReportSource *Source = clang::tidy::occlint::runContext().resourceReports) {
          Recording.emplace(*Source, Inputs);
          clang::tidy::occlint::RunContext Context = clang::tidy::occlint::runContext();
          Context.resourceReports = &*Recording;
          RecordingInstalled.emplace(Context); // this process ends with the file
        }
      std::vector<std::string> FilesRead;
      auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
      WorkerResult R;
      FileFindings Found = AnalyseFile(File, BaseFS, Key ? &FilesRead : nullptr, Key ? &Inputs : nullptr);
      R.errors = std::move(Found.errors);
      R.parseGaps = std::move(Found.parseGaps);
      R.units = Sink.take();
      if (Job.childNotes)
        R.deferred = Job.childNotes();
      if (Key) {
        // The file itself, whatever its parses read (a command Clang rejects
        // reads nothing): an edit of it is always a miss.
        FilesRead.push_back(std::string(Absolute));
        llvm::sort(FilesRead);
        FilesRead.erase(std::unique(FilesRead.begin(), FilesRead.end()), FilesRead.end());
        R.cache = {
            {"hit", false}, {"key", *Key}, {"corrupt", Corrupt}, {"filesRead", FilesRead}, {"uses", Inputs.take()}};
      }
      return R;
    };
    // A result the child analysed goes into the cache; one it took from
    // there is said (--verbose).
    auto UseCache = [&Job](const std::string &File, WorkerResult &Result, const std::string &Said) {
      const nlohmann::json Cache = std::move(Result.cache);
      Result.cache = nullptr;
      if (!Job.resultCache || !Cache.is_object())
        return;
      const LintJob::ResultCacheUse &Use = *Job.resultCache;
      if (Cache.value("corrupt", false) && Use.notice)
        Use.notice("occlint: note: " + File +
                   ": a result-cache entry that is not whole was ignored; the file was "
                   "analysed again");
      if (Cache.value("hit", false)) {
        if (Use.verbose)
          Use.verbose("occlint: " + File + ": result cache: hit, checked in " +
                      llvm::formatv("{0:f1}", Cache.value("milliseconds", 0.0)).str() +
                      " ms (the file, its headers, its command, its configuration and its resource reports are "
                      "unchanged)");
        return;
      }
      std::string Error;
      const bool Stored = UnitResultCache(Use.directory)
                              .store(Cache.at("key"), Cache.at("filesRead").get<std::vector<std::string>>(),
                                     Cache.at("uses"), Result, withoutProgressLines(Said), Error);
      if (!Stored && Use.notice)
        Use.notice("occlint: note: " + File + ": not kept in the result cache: " + Error);
      if (Use.verbose)
        Use.verbose("occlint: " + File + ": result cache: miss, analysed" + (Stored ? " and stored" : ""));
    };
    auto Collect = [&](IsolatedFile F) {
      if (!F.result) {
        All.push_back(internalError(F, saveCrashLog(F), Job.maxMemoryMB));
        return;
      }
      UseCache(F.file, *F.result, F.said);
      for (clang::tidy::ClangTidyError &E : F.result->errors)
        All.push_back(std::move(E));
      for (clang::tidy::occlint::TranslationUnitRecord &U : F.result->units)
        Sink.record(std::move(U));
      for (ParseGap &G : F.result->parseGaps)
        Gaps.push_back(std::move(G));
      if (Job.parentNotes && !F.result->deferred.is_null())
        Job.parentNotes(F.result->deferred);
    };
    if (Job.resultCache)
      (void)occlintIdentity(); // hashed here once: every child inherits it
    analyseInChildren(Job.files, IsolationLimits{Job.jobs, Job.maxMemoryMB}, InChild, Collect, Job.progress,
                      llvm::errs());
  } else {
    auto AnalyseFiles = [&] {
      // Each worker's own file system view: ClangTool sets the working
      // directory of the file system it is given, and the real one's is the
      // process's (shared by all threads).
      auto BaseFS = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
          Job.jobs > 1 ? llvm::vfs::createPhysicalFileSystem() : llvm::vfs::getRealFileSystem());
      for (size_t I = Next++; I < Job.files.size(); I = Next++) {
        const std::string &File = Job.files[I];
        if (Job.progress)
          Job.progress->fileStarted(File);
        FileFindings Found = AnalyseFile(File, BaseFS);
        {
          std::lock_guard<std::mutex> Guard(ResultsLock);
          for (clang::tidy::ClangTidyError &E : Found.errors)
            All.push_back(std::move(E));
          for (ParseGap &G : Found.parseGaps)
            Gaps.push_back(std::move(G));
        }
        if (Job.progress)
          Job.progress->fileFinished(File);
      }
    };
    auto Work = [&] {
      try {
        AnalyseFiles();
      } catch (...) {
        std::lock_guard<std::mutex> Guard(ResultsLock);
        if (!Failure)
          Failure = std::current_exception();
        Next = Job.files.size(); // the other workers stop after their current file
      }
    };
    const unsigned Workers = std::max(1u, std::min<unsigned>(Job.jobs, unsigned(Job.files.size())));
    if (Workers == 1) {
      Work();
    } else {
      std::vector<std::thread> Threads;
      for (unsigned I = 0; I < Workers; ++I)
        Threads.emplace_back(Work);
      for (std::thread &T : Threads)
        T.join();
    }
    if (Failure)
      std::rethrow_exception(Failure);
  }

  LintOutcome Outcome;
  std::stable_sort(All.begin(), All.end(), [](const auto &L, const auto &R) { return errorKey(L) < errorKey(R); });
  for (clang::tidy::ClangTidyError &E : All)
    if (Outcome.errors.empty() || errorKey(Outcome.errors.back()) != errorKey(E))
      Outcome.errors.push_back(std::move(E));
    else
      mergeRepeat(Outcome.errors.back(), E);
  dropCollidingFixes(Outcome.errors);
  Outcome.units = Sink.take();
  std::stable_sort(Outcome.units.begin(), Outcome.units.end(), [](const auto &L, const auto &R) {
    return std::tie(L.mainFile, L.arch) < std::tie(R.mainFile, R.arch);
  });
  Outcome.parseGaps = std::move(Gaps);
  std::stable_sort(Outcome.parseGaps.begin(), Outcome.parseGaps.end(), [](const ParseGap &L, const ParseGap &R) {
    return std::tie(L.file, L.arch) < std::tie(R.file, R.arch);
  });
  return Outcome;
}

} // namespace occlint
