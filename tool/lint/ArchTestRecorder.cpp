#include "lint/ArchTestRecorder.h"
#include "lint/ArchCondition.h"

#include "ast/AstWalker.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace occlint {

using namespace clang;

namespace {

// __CUDA_ARCH__, __CUDA_ARCH_FEAT_SM90_ALL, __CUDA_ARCH_SPECIFIC__, ...; not
// __CUDA_ARCH_LIST__ (every arch of one command, the same in each parse).
bool isArchMacroName(llvm::StringRef Name) { return Name.starts_with("__CUDA_ARCH") && Name != "__CUDA_ARCH_LIST__"; }

llvm::StringRef nameOf(const Token &Tok) {
  const IdentifierInfo *II = Tok.getIdentifierInfo();
  return II ? II->getName() : llvm::StringRef();
}

// The spellings of the tokens in a directive's condition (a range of one
// file), read by Clang's raw lexer: comments and line continuations are
// gone, macros are not expanded.
std::vector<std::string> conditionTokens(SourceRange Condition, const SourceManager &SM, const LangOptions &LO) {
  std::vector<std::string> Out;
  const CharSourceRange Range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Condition), SM, LO);
  if (Range.isInvalid())
    return Out;
  const auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
  const unsigned End = SM.getFileOffset(Range.getEnd());
  bool Invalid = false;
  const llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || End > Buffer.size())
    return Out;
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + Begin, Buffer.end());
  Token Tok;
  for (bool AtBufferEnd = false; !AtBufferEnd;) {
    AtBufferEnd = Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof) || SM.getFileOffset(Tok.getLocation()) >= End)
      break;
    Out.push_back(Lexer::getSpelling(Tok, SM, LO));
  }
  return Out;
}

} // namespace

ArchTestRecorder::ArchTestRecorder(Preprocessor &PP, std::vector<std::string> Archs)
    : PP(PP), SM(PP.getSourceManager()) {
  for (const std::string &Arch : Archs)
    if (std::optional<int64_t> V = cudaArchValue(Arch))
      ArchValues.push_back(*V);
}

bool ArchTestRecorder::valueDependsOnArch(llvm::StringRef Name) const {
  return isArchMacroName(Name) || ArchDependentMacros.contains(Name);
}

bool ArchTestRecorder::definednessDependsOnArch(llvm::StringRef Name) const {
  // Every device-side parse defines __CUDA_ARCH__.
  return Name != "__CUDA_ARCH__" && valueDependsOnArch(Name);
}

bool ArchTestRecorder::insideArchDependentConditional() const {
  return std::any_of(Open.begin(), Open.end(), [](const Conditional &C) { return C.dependsOnArch; });
}

bool ArchTestRecorder::isProjectFile(SourceLocation At) const {
  // The predefines, the command line's -D and pasted tokens have no file.
  return At.isValid() && !SM.isInSystemHeader(At) && SM.getFileEntryRefForID(SM.getFileID(At));
}

void ArchTestRecorder::noteDifference(SourceLocation At, const std::string &What) {
  if (Found.firstUse || !isProjectFile(At))
    return;
  const PresumedLoc P = SM.getPresumedLoc(At);
  Found.firstUse = std::string(P.isValid() ? P.getFilename() : "?") + ":" +
                   std::to_string(P.isValid() ? P.getLine() : 0) + " " + What;
}

bool ArchTestRecorder::takeUses(SourceRange Condition) {
  bool InCondition = false;
  for (const Use &U : RecentUses) {
    if (Condition.isValid() && SM.isPointWithin(U.at, Condition.getBegin(), Condition.getEnd()))
      InCondition = true;
    else
      noteDifference(U.at, "uses " + U.what);
  }
  RecentUses.clear();
  return InCondition;
}

bool ArchTestRecorder::conditionDependsOnArch(SourceRange Range) {
  // The condition's ends can be macro tokens (`#if __CUDA_ARCH__ >= 700`
  // begins with one): their places in the file.
  Range = SourceRange(SM.getExpansionLoc(Range.getBegin()), SM.getExpansionLoc(Range.getEnd()));
  if (!takeUses(Range))
    return false;
  const std::vector<std::string> Tokens = conditionTokens(Range, SM, PP.getLangOpts());
  if (Tokens.empty() || ArchValues.empty())
    return true;
  ArchConditionNames Names;
  Names.bodyOf = [this](llvm::StringRef Name) -> std::optional<std::vector<std::string>> {
    if (valueDependsOnArch(Name))
      return std::nullopt;
    const MacroInfo *Info = PP.getMacroInfo(PP.getIdentifierInfo(Name));
    if (!Info)
      return std::vector<std::string>{"0"};
    if (Info->isFunctionLike())
      return std::nullopt;
    std::vector<std::string> Body;
    for (const Token &T : Info->tokens())
      Body.push_back(PP.getSpelling(T));
    return Body;
  };
  Names.isDefined = [this](llvm::StringRef Name) -> std::optional<bool> {
    if (definednessDependsOnArch(Name))
      return std::nullopt;
    return PP.isMacroDefined(Name);
  };
  std::optional<int64_t> First = evaluateArchCondition(Tokens, ArchValues.front(), Names);
  if (!First)
    return true;
  for (size_t I = 1; I < ArchValues.size(); ++I) {
    std::optional<int64_t> V = evaluateArchCondition(Tokens, ArchValues[I], Names);
    if (!V || bool(*V) != bool(*First))
      return true;
  }
  return false;
}

void ArchTestRecorder::openBranch(SourceLocation Loc, bool DependsOnArch) {
  if (DependsOnArch)
    noteDifference(Loc, "has a conditional that depends on the arch");
  Open.push_back({DependsOnArch, Loc});
}

void ArchTestRecorder::closeBranch(SourceLocation Loc) {
  if (Open.empty() || !Open.back().dependsOnArch)
    return;
  const auto [File, Begin] = SM.getDecomposedLoc(Open.back().branchStart);
  const auto [EndFile, End] = SM.getDecomposedLoc(Loc);
  if (File == EndFile && Begin <= End)
    Found.archDependentBlocks[File].push_back({Begin, End});
}

void ArchTestRecorder::MacroExpands(const Token &MacroNameTok, const MacroDefinition &, SourceRange Range,
                                    const MacroArgs *) {
  // Arguments are expanded too (NV_PROVIDES_SM_90 inside NV_IF_TARGET's
  // parentheses): the outermost one is the one the file wrote.
  const bool InsideWritten =
      WrittenMacroRange.isValid() &&
      SM.isPointWithin(MacroNameTok.getLocation(), WrittenMacroRange.getBegin(), WrittenMacroRange.getEnd());
  if (MacroNameTok.getLocation().isFileID() && !InsideWritten) {
    WrittenMacro = nameOf(MacroNameTok).str();
    WrittenMacroRange = Range;
  }
  const llvm::StringRef Name = nameOf(MacroNameTok);
  if (!valueDependsOnArch(Name))
    return;
  const SourceLocation At = SM.getExpansionLoc(MacroNameTok.getLocation());
  if (At.isInvalid())
    return;
  // Named by the macro the file wrote (NV_IF_TARGET), not the one deep in
  // its expansion that depends on the arch.
  std::string What = Name.str();
  if (MacroNameTok.getLocation().isMacroID() && WrittenMacroRange.isValid() &&
      SM.isPointWithin(At, WrittenMacroRange.getBegin(), WrittenMacroRange.getEnd()) && WrittenMacro != Name)
    What = WrittenMacro + " (through " + What + ")";
  RecentUses.push_back({At, What});
}

void ArchTestRecorder::Defined(const Token &MacroNameTok, const MacroDefinition &, SourceRange) {
  const llvm::StringRef Name = nameOf(MacroNameTok);
  if (definednessDependsOnArch(Name))
    RecentUses.push_back({SM.getExpansionLoc(MacroNameTok.getLocation()), "defined(" + Name.str() + ")"});
}

void ArchTestRecorder::MacroDefined(const Token &MacroNameTok, const MacroDirective *) {
  if (insideArchDependentConditional())
    ArchDependentMacros.insert(nameOf(MacroNameTok));
}

void ArchTestRecorder::MacroUndefined(const Token &MacroNameTok, const MacroDefinition &, const MacroDirective *) {
  if (insideArchDependentConditional())
    ArchDependentMacros.insert(nameOf(MacroNameTok));
}

void ArchTestRecorder::If(SourceLocation Loc, SourceRange ConditionRange, ConditionValueKind) {
  openBranch(Loc, conditionDependsOnArch(ConditionRange));
}

void ArchTestRecorder::nextBranch(SourceLocation Loc, bool DependsOnArch) {
  closeBranch(Loc);
  if (Open.empty())
    return;
  if (DependsOnArch && !Open.back().dependsOnArch)
    noteDifference(Loc, "has a conditional that depends on the arch");
  Open.back().dependsOnArch = Open.back().dependsOnArch || DependsOnArch;
  Open.back().branchStart = Loc;
}

void ArchTestRecorder::Elif(SourceLocation Loc, SourceRange ConditionRange, ConditionValueKind Value, SourceLocation) {
  // Not evaluated (an earlier branch was taken, whatever this one says):
  // nothing was expanded in it, and the code's uses before it still count.
  nextBranch(Loc, conditionDependsOnArch(ConditionRange) && Value != CVK_NotEvaluated);
}

void ArchTestRecorder::Ifdef(SourceLocation Loc, const Token &MacroNameTok, const MacroDefinition &) {
  takeUses(SourceRange());
  openBranch(Loc, definednessDependsOnArch(nameOf(MacroNameTok)));
}

void ArchTestRecorder::Ifndef(SourceLocation Loc, const Token &MacroNameTok, const MacroDefinition &MD) {
  Ifdef(Loc, MacroNameTok, MD);
}

void ArchTestRecorder::Elifdef(SourceLocation Loc, const Token &MacroNameTok, const MacroDefinition &) {
  takeUses(SourceRange());
  nextBranch(Loc, definednessDependsOnArch(nameOf(MacroNameTok)));
}

void ArchTestRecorder::Elifndef(SourceLocation Loc, const Token &MacroNameTok, const MacroDefinition &MD) {
  Elifdef(Loc, MacroNameTok, MD);
}

void ArchTestRecorder::Else(SourceLocation Loc, SourceLocation) {
  takeUses(SourceRange());
  nextBranch(Loc, false);
}

void ArchTestRecorder::Endif(SourceLocation Loc, SourceLocation) {
  takeUses(SourceRange());
  closeBranch(Loc);
  if (!Open.empty())
    Open.pop_back();
}

void ArchTestRecorder::EndOfMainFile() { takeUses(SourceRange()); }

const ArchTestVerdict &ArchTestRecorder::finish() {
  takeUses(SourceRange());
  return Found;
}

namespace {

// The declarations the project's code refers to, against the blocks.
class ArchDependentReferences : public clang::tidy::occlint::AstWalker {
public:
  ArchDependentReferences(const SourceManager &SM, const ArchTestVerdict &Verdict) : SM(SM), Verdict(Verdict) {
    VisitTemplateInstantiations = true;
  }

  bool visitStmt(Stmt *S) override {
    if (const auto *E = dyn_cast<DeclRefExpr>(S))
      return check(E->getDecl(), E->getLocation());
    if (const auto *E = dyn_cast<MemberExpr>(S))
      return check(E->getMemberDecl(), E->getMemberLoc());
    if (const auto *E = dyn_cast<CXXConstructExpr>(S))
      return check(E->getConstructor(), E->getLocation());
    if (const auto *E = dyn_cast<OverloadExpr>(S)) {
      for (NamedDecl *D : E->decls())
        if (!check(D, E->getNameLoc()))
          return false;
    }
    return true;
  }
  bool visitTypeLoc(TypeLoc TL) override {
    const Type *T = TL.getTypePtr();
    if (const auto *Typedef = T->getAs<TypedefType>())
      if (!check(Typedef->getDecl(), TL.getBeginLoc()))
        return false;
    return check(T->getAsTagDecl(), TL.getBeginLoc());
  }

  std::optional<std::string> found;

private:
  bool check(const NamedDecl *D, SourceLocation UseLoc) {
    if (!D || found)
      return !found;
    const SourceLocation Use = SM.getExpansionLoc(UseLoc);
    if (Use.isInvalid() || SM.isInSystemHeader(Use))
      return true;
    if (!Seen.insert(D).second)
      return true;
    const auto [File, Offset] = SM.getDecomposedExpansionLoc(D->getLocation());
    auto Blocks = Verdict.archDependentBlocks.find(File);
    if (Blocks == Verdict.archDependentBlocks.end())
      return true;
    for (const auto &[Begin, End] : Blocks->second)
      if (Begin <= Offset && Offset < End) {
        const PresumedLoc P = SM.getPresumedLoc(Use);
        const OptionalFileEntryRef Header = SM.getFileEntryRefForID(File);
        found = std::string(P.isValid() ? P.getFilename() : "?") + ":" + std::to_string(P.isValid() ? P.getLine() : 0) +
                " uses '" + D->getNameAsString() + "', which " +
                (Header ? llvm::sys::path::filename(Header->getName()).str() : std::string("a header")) +
                " declares for some of the archs only";
        return false;
      }
    return true;
  }

  const SourceManager &SM;
  const ArchTestVerdict &Verdict;
  llvm::DenseSet<const NamedDecl *> Seen;
};

} // namespace

std::optional<std::string> usesArchDependentDeclaration(ASTContext &Ctx, const ArchTestVerdict &Verdict) {
  if (Verdict.archDependentBlocks.empty())
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  ArchDependentReferences Visitor(SM, Verdict);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    Visitor.traverseDecl(D);
    if (Visitor.found)
      break;
  }
  return Visitor.found;
}

} // namespace occlint
