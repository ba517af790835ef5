#include "lint/CheckParse.h"

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"

#include <memory>

namespace occlint {

namespace {

using namespace clang;

// The checks' consumer, asked by the parser whether to skip a body: only
// those of functions in system headers, kernels excepted. (MultiplexConsumer
// forwards everything else.)
class SystemBodiesSkipped final : public MultiplexConsumer {
public:
  SystemBodiesSkipped(std::unique_ptr<ASTConsumer> Checks, const SourceManager &SM)
      : MultiplexConsumer(std::move(Checks)), SM(SM) {}
  bool shouldSkipFunctionBody(Decl *D) override {
    // A kernel's body says what it declares in shared memory: the estimate
    // of a launch in source-only mode reads it, wherever the kernel is.
    const FunctionDecl *FD = D->getAsFunction();
    return SM.isInSystemHeader(D->getLocation()) && !(FD && FD->hasAttr<CUDAGlobalAttr>());
  }

private:
  const SourceManager &SM;
};

class ChecksAction final : public ASTFrontendAction {
public:
  explicit ChecksAction(tidy::ClangTidyASTConsumerFactory &Factory) : Factory(Factory) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &Compiler, StringRef File) override {
    // Read by the parser after this returns; the consumer then decides per
    // function.
    Compiler.getFrontendOpts().SkipFunctionBodies = true;
    return std::make_unique<SystemBodiesSkipped>(Factory.createASTConsumer(Compiler, File),
                                                 Compiler.getSourceManager());
  }

private:
  tidy::ClangTidyASTConsumerFactory &Factory;
};

class ChecksActionFactory final : public tooling::FrontendActionFactory {
public:
  ChecksActionFactory(tidy::ClangTidyContext &Context, IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                      bool Quiet)
      : Factory(Context, std::move(BaseFS)), Quiet(Quiet) {}

  std::unique_ptr<FrontendAction> create() override { return std::make_unique<ChecksAction>(Factory); }

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation, FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Diagnostics) override {
    // As clang-tidy: code sees __clang_analyzer__ defined.
    Invocation->getPreprocessorOpts().SetUpStaticAnalyzer = true;
    if (Quiet)
      Invocation->getDiagnosticOpts().ShowCarets = false;
    return tooling::FrontendActionFactory::runInvocation(std::move(Invocation), Files, std::move(PCHContainerOps),
                                                         Diagnostics);
  }

private:
  tidy::ClangTidyASTConsumerFactory Factory;
  bool Quiet;
};

} // namespace

std::vector<tidy::ClangTidyError> runChecksOnFile(tidy::ClangTidyContext &Context,
                                                  const tooling::CompilationDatabase &Commands,
                                                  const std::string &File,
                                                  IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                                                  bool Quiet) {
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
  Tool.setDiagnosticConsumer(&Diagnostics);
  ChecksActionFactory Factory(Context, std::move(BaseFS), Quiet);
  Tool.run(&Factory);
  return Diagnostics.take();
}

} // namespace occlint
