#include "facts/FunctionExtents.h"

#include "ast/AstWalker.h"
#include "clang/Basic/SourceManager.h"

namespace clang::tidy::occlint {

namespace {

class ExtentCollector : public AstWalker {
public:
  explicit ExtentCollector(const SourceManager &SM) : SM(SM) {}

  // Neither template instantiations nor implicit code (AstWalker's defaults).
  bool visitDecl(Decl *D) override {
    if (const auto *FD = dyn_cast<FunctionDecl>(D); FD && FD->doesThisDeclarationHaveABody())
      add(FD->getSourceRange());
    return true;
  }
  bool visitStmt(Stmt *S) override {
    if (const auto *Lambda = dyn_cast<LambdaExpr>(S))
      add(Lambda->getSourceRange());
    return true;
  }

  std::vector<FunctionExtent> Extents;

private:
  // A function written by a macro spans the macro's use; both ends must be
  // in one file for the extent to mean anything.
  void add(SourceRange Range) {
    if (Range.isInvalid())
      return;
    const CharSourceRange Expanded = SM.getExpansionRange(Range);
    const SourceLocation Begin = SM.getFileLoc(Expanded.getBegin());
    const SourceLocation End = SM.getFileLoc(Expanded.getEnd());
    if (Begin.isInvalid() || End.isInvalid() || SM.getFileID(Begin) != SM.getFileID(End))
      return;
    const unsigned BeginOffset = SM.getFileOffset(Begin), EndOffset = SM.getFileOffset(End);
    if (EndOffset < BeginOffset)
      return;
    Extents.push_back({SM.getFilename(Begin).str(), BeginOffset, EndOffset});
  }

  const SourceManager &SM;
};

} // namespace

std::vector<FunctionExtent> functionExtents(ASTContext &Ctx) {
  ExtentCollector Collector(Ctx.getSourceManager());
  Collector.traverseDecl(Ctx.getTranslationUnitDecl());
  return std::move(Collector.Extents);
}

} // namespace clang::tidy::occlint
