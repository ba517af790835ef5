#include "lint/CheckParse.h"
#include "lint/ArchTestRecorder.h"

#include "facts/RunContext.h"
#include "facts/TargetSelection.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cassert>
#include <memory>
#include <optional>

namespace occlint {

namespace {

using namespace clang;

// What the runs of the checks on one parse share: the other archs, the
// preprocessor's recorder, and each finished run's findings.
struct ParseRuns {
  OtherArchs *others = nullptr;
  /// Where Clang's "N errors generated" goes: held back while the parse may be
  /// run again (lint/SharedDeclarationOverlay.h); null: stderr.
  llvm::raw_string_ostream *stats = nullptr;
  std::string *heldText = nullptr;
  const std::vector<RejectedSharedDeclaration> *rejected = nullptr;
  ArchTestRecorder *recorder = nullptr; // owned by the preprocessor; set with the consumer when there are other archs
  tidy::ClangTidyDiagnosticConsumer *diagnostics = nullptr;
  std::vector<std::vector<tidy::ClangTidyError>> finished;
};

// The checks' consumer, asked by the parser whether to skip a body: only
// those of functions in system headers, kernels excepted. Once the checks
// ran, it runs them again for each other arch the parse stands for.
// (MultiplexConsumer forwards everything else.)
class SystemBodiesSkipped final : public MultiplexConsumer {
public:
  SystemBodiesSkipped(std::unique_ptr<ASTConsumer> Checks, const SourceManager &SM, ParseRuns &Runs)
      : MultiplexConsumer(std::move(Checks)), SM(SM), Runs(Runs) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    MultiplexConsumer::HandleTranslationUnit(Ctx);
    OtherArchs *Others = Runs.others;
    if (!Others || Others->archs.empty())
      return;
    assert(Runs.recorder && "CreateASTConsumer installs the recorder before the consumer runs");
    const ArchTestVerdict &Verdict = Runs.recorder->finish();
    if (Verdict.firstUse) {
      Others->whyNot = *Verdict.firstUse;
      return;
    }
    if (std::optional<std::string> Uses = usesArchDependentDeclaration(Ctx, Verdict)) {
      Others->whyNot = *Uses;
      return;
    }
    // An error can be the arch's (a builtin another arch lacks): the other
    // archs get parses of their own.
    if (Ctx.getDiagnostics().hasErrorOccurred()) {
      Others->whyNot = "the parse has errors";
      return;
    }
    for (const std::string &Arch : Others->archs) {
      Runs.finished.push_back(Runs.diagnostics->take());
      tidy::occlint::ParseContext ForArch = tidy::occlint::parseContext();
      ForArch.arch = Arch;
      const tidy::occlint::ParseContextScope Installed(std::move(ForArch));
      MultiplexConsumer::HandleTranslationUnit(Ctx);
      Others->covered.push_back(Arch);
    }
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    // A kernel's body says what it declares in shared memory: the estimate
    // of a launch in source-only mode reads it, wherever the kernel is.
    const FunctionDecl *FD = D->getAsFunction();
    return SM.isInSystemHeader(D->getLocation()) && !(FD && FD->hasAttr<CUDAGlobalAttr>());
  }

private:
  const SourceManager &SM;
  ParseRuns &Runs;
};

// Hands every diagnostic to clang-tidy's consumer, and notes where Clang
// rejected a `__shared__` declaration for its initializer.
class RejectedSharedDeclarations final : public DiagnosticConsumer {
public:
  RejectedSharedDeclarations(DiagnosticConsumer &Target, std::vector<RejectedSharedDeclaration> &Found)
      : Target(Target), Found(Found) {}

  void BeginSourceFile(const LangOptions &LangOpts, const Preprocessor *PP) override {
    Target.BeginSourceFile(LangOpts, PP);
  }
  void EndSourceFile() override { Target.EndSourceFile(); }
  void finish() override { Target.finish(); }
  bool IncludeInDiagnosticCounts() const override { return Target.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info); // the counts
    if (Info.getID() == diag::err_shared_var_init && Info.hasSourceManager())
      note(Info.getSourceManager(), Info.getLocation());
    Target.HandleDiagnostic(Level, Info);
  }

private:
  void note(const SourceManager &SM, SourceLocation Loc) {
    const SourceLocation At = SM.getFileLoc(Loc);
    const FileID File = SM.getFileID(At);
    OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
    if (!Entry)
      return;
    llvm::StringRef Path = Entry->getFileEntry().tryGetRealPathName();
    Found.push_back({(Path.empty() ? Entry->getName() : Path).str(), SM.getFileOffset(At)});
  }

  DiagnosticConsumer &Target;
  std::vector<RejectedSharedDeclaration> &Found;
};

class ChecksAction final : public ASTFrontendAction {
public:
  ChecksAction(tidy::ClangTidyASTConsumerFactory &Factory, ParseRuns &Runs) : Factory(Factory), Runs(Runs) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler, StringRef File) override {
    // Read by the parser after this returns; the consumer then decides per
    // function.
    Compiler.getFrontendOpts().SkipFunctionBodies = true;
    if (Runs.stats)
      Compiler.setVerboseOutputStream(*Runs.stats);
    if (Runs.others && !Runs.others->archs.empty()) {
      std::vector<std::string> Archs = Runs.others->archs;
      Archs.insert(Archs.begin(), Runs.others->parseArch);
      auto Recorder = std::make_unique<ArchTestRecorder>(Compiler.getPreprocessor(), std::move(Archs));
      Runs.recorder = Recorder.get();
      Compiler.getPreprocessor().addPPCallbacks(std::move(Recorder));
    }
    return std::make_unique<SystemBodiesSkipped>(Factory.createASTConsumer(Compiler, File), Compiler.getSourceManager(),
                                                 Runs);
  }

private:
  tidy::ClangTidyASTConsumerFactory &Factory;
  ParseRuns &Runs;
};

class ChecksActionFactory final : public tooling::FrontendActionFactory {
public:
  ChecksActionFactory(tidy::ClangTidyContext &Context, IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                      bool Quiet, ParseRuns &Runs)
      : Factory(Context, std::move(BaseFS)), Quiet(Quiet), Runs(Runs) {}

  std::unique_ptr<FrontendAction> create() override { return std::make_unique<ChecksAction>(Factory, Runs); }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Diagnostics) override {
    // As clang-tidy: code sees __clang_analyzer__ defined.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (Quiet)
      Invocation->getDiagnosticOpts().ShowCarets = false;
    const bool Parsed = tooling::FrontendActionFactory::runInvocation(std::move(Invocation), Files,
                                                                      std::move(PCHContainerOps), Diagnostics);
    // A parse that will be run again with its rejected __shared__
    // declarations rewritten: ClangTool's "Error while processing" would
    // speak of errors the user's code does not have.
    const bool WillRunAgain = Runs.rejected && !Runs.rejected->empty();
    if (Runs.stats && !WillRunAgain) {
      // Not held after all: where it would have gone, before ClangTool's line.
      Runs.stats->flush();
      llvm::errs() << *Runs.heldText;
      Runs.heldText->clear();
    }
    if (!Parsed && WillRunAgain)
      return true;
    return Parsed;
  }

private:
  tidy::ClangTidyASTConsumerFactory Factory;
  bool Quiet;
  ParseRuns &Runs;
};

} // namespace

std::vector<std::vector<tidy::ClangTidyError>>
runChecksOnFile(tidy::ClangTidyContext &Context, const tooling::CompilationDatabase &Commands, const std::string &File,
                IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, bool Quiet, OtherArchs *Others,
                std::vector<RejectedSharedDeclaration> *Rejected, std::string *HeldStats,
                std::vector<std::string> *FilesRead) {
  tooling::ClangTool Tool(Commands, {File}, std::make_shared<PCHContainerOperations>(), BaseFS);
  // The configuration's ExtraArgsBefore (after the compiler) and ExtraArgs.
  Tool.appendArgumentsAdjuster([&Context](const tooling::CommandLineArguments &Args, StringRef Filename) {
    const tidy::ClangTidyOptions Options = Context.getOptionsForFile(Filename);
    tooling::CommandLineArguments Out = Args;
    if (Options.ExtraArgsBefore) {
      auto At = Out.begin();
      if (At != Out.end() && !StringRef(*At).starts_with("-"))
        ++At;
      Out.insert(At, Options.ExtraArgsBefore->begin(), Options.ExtraArgsBefore->end());
    }
    if (Options.ExtraArgs)
      Out.insert(Out.end(), Options.ExtraArgs->begin(), Options.ExtraArgs->end());
    return Out;
  });
  Tool.appendArgumentsAdjuster(tooling::getStripPluginsAdjuster());
  tidy::ClangTidyDiagnosticConsumer Diagnostics(Context, nullptr, /*RemoveIncompatibleErrors=*/true,
                                                /*GetFixesFromNotes=*/false);
  auto DiagOpts = std::make_unique<DiagnosticOptions>();
  DiagnosticsEngine Engine(DiagnosticIDs::create(), *DiagOpts, &Diagnostics, /*ShouldOwnClient=*/false);
  Context.setDiagnosticsEngine(std::move(DiagOpts), &Engine);
  std::vector<RejectedSharedDeclaration> Unused;
  RejectedSharedDeclarations Recorder(Diagnostics, Rejected ? *Rejected : Unused);
  Tool.setDiagnosticConsumer(&Recorder);
  ParseRuns Runs;
  Runs.others = Others;
  std::optional<llvm::raw_string_ostream> Held;
  if (HeldStats) {
    Held.emplace(*HeldStats);
    Runs.stats = &*Held;
    Runs.heldText = HeldStats;
  }
  Runs.rejected = Rejected;
  Runs.diagnostics = &Diagnostics;
  ChecksActionFactory Factory(Context, std::move(BaseFS), Quiet, Runs);
  Tool.run(&Factory);
  Runs.finished.push_back(Diagnostics.take());
  if (FilesRead) {
    SmallVector<OptionalFileEntryRef, 0> Seen;
    Tool.getFiles().GetUniqueIDMapping(Seen);
    for (OptionalFileEntryRef Entry : Seen) {
      if (!Entry)
        continue;
      SmallString<256> Path(Entry->getName());
      Tool.getFiles().makeAbsolutePath(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      // A file only an in-memory overlay holds is not one the user can edit.
      if (llvm::sys::fs::is_regular_file(Path))
        FilesRead->push_back(std::string(Path));
    }
  }
  return std::move(Runs.finished);
}

} // namespace occlint
