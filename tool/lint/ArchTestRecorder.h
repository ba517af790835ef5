// Whether the project's own code (what is not in system headers) can differ
// between the archs of one compile command, told by the preprocessor during
// one parse: when it cannot, every device-side parse of the command (one per
// arch) gives the same AST for the checks, and occlint parses once and runs
// the checks for each arch (CheckParse.h, docs/build-integration.md).
//
// A conditional (#if, #elif, #ifdef...) depends on the arch when its
// condition's value is not the same for every arch of the command: the
// condition's text is evaluated per arch (ArchCondition.h), so that
// `#if __CUDA_ARCH__ >= 700` under sm_80 and sm_90 does not count, and one
// whose value is not known here (a function-like macro) counts.
// `defined(__CUDA_ARCH__)` is true in every device-side parse; whether an
// arch-specific macro is defined (__CUDA_ARCH_FEAT_SM90_ALL) counts.
//
// The project's code differs between the archs when one of its files
// - has a conditional that depends on the arch;
// - uses __CUDA_ARCH__'s value (`int a = __CUDA_ARCH__;`), or expands a
//   macro that a conditional depending on the arch defined (nv/target's
//   NV_IF_TARGET selects its branch through such macros);
// - refers to a declaration that a system header makes only inside a
//   conditional depending on the arch (__reduce_add_sync exists from sm_80
//   on): checked on the AST after the parse (usesArchDependentDeclaration).
// The toolkit's and the C++ library's own tests shape only their bodies,
// which the checks do not read.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
} // namespace clang

namespace occlint {

/// What the recorder found, read after the parse.
struct ArchTestVerdict {
  /// The first place the project's code differs between the archs: "k.cu:12
  /// uses __CUDA_ARCH__"; empty: none seen by the preprocessor.
  std::optional<std::string> firstUse;
  /// The conditional blocks that depend on the arch, per file: [begin, end)
  /// offsets.
  llvm::DenseMap<clang::FileID, std::vector<std::pair<unsigned, unsigned>>> archDependentBlocks;
};

class ArchTestRecorder final : public clang::PPCallbacks {
public:
  /// `Archs`: every arch of the command ("sm_80", "sm_90").
  ArchTestRecorder(clang::Preprocessor &PP, std::vector<std::string> Archs);

  void MacroExpands(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD, clang::SourceRange Range,
                    const clang::MacroArgs *Args) override;
  void Defined(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD, clang::SourceRange Range) override;
  void MacroDefined(const clang::Token &MacroNameTok, const clang::MacroDirective *MD) override;
  void MacroUndefined(const clang::Token &MacroNameTok, const clang::MacroDefinition &MD,
                      const clang::MacroDirective *Undef) override;
  void If(clang::SourceLocation Loc, clang::SourceRange ConditionRange, ConditionValueKind Value) override;
  void Elif(clang::SourceLocation Loc, clang::SourceRange ConditionRange, ConditionValueKind Value,
            clang::SourceLocation IfLoc) override;
  void Ifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok, const clang::MacroDefinition &MD) override;
  void Ifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok, const clang::MacroDefinition &MD) override;
  void Elifdef(clang::SourceLocation Loc, const clang::Token &MacroNameTok, const clang::MacroDefinition &MD) override;
  void Elifndef(clang::SourceLocation Loc, const clang::Token &MacroNameTok, const clang::MacroDefinition &MD) override;
  void Else(clang::SourceLocation Loc, clang::SourceLocation IfLoc) override;
  void Endif(clang::SourceLocation Loc, clang::SourceLocation IfLoc) override;
  void EndOfMainFile() override;
  /// Decides the uses after the last directive; called once the parse is
  /// over (the preprocessor calls EndOfMainFile only after the AST consumer
  /// ran).
  const ArchTestVerdict &finish();

private:
  struct Conditional {
    bool dependsOnArch = false;
    clang::SourceLocation branchStart; // the directive that opened the current branch
  };
  /// Whether expanding the macro can give a different text per arch.
  bool valueDependsOnArch(llvm::StringRef Name) const;
  /// Whether the macro can be defined for some archs and not for others.
  bool definednessDependsOnArch(llvm::StringRef Name) const;
  bool insideArchDependentConditional() const;
  /// Whether the condition at `Range` has a different value for some arch.
  bool conditionDependsOnArch(clang::SourceRange Range);
  /// Decides the uses seen since the last directive: those inside
  /// `Condition` belong to it (true when there were any); the others are the
  /// code's own and count where a project's file wrote them.
  bool takeUses(clang::SourceRange Condition);
  void noteDifference(clang::SourceLocation At, const std::string &What);
  bool isProjectFile(clang::SourceLocation At) const;
  void openBranch(clang::SourceLocation Loc, bool DependsOnArch);
  /// #elif, #elifdef, #else: the branch before ends, the next one starts.
  void nextBranch(clang::SourceLocation Loc, bool DependsOnArch);
  void closeBranch(clang::SourceLocation Loc);

  clang::Preprocessor &PP;
  const clang::SourceManager &SM;
  std::vector<int64_t> ArchValues;
  ArchTestVerdict Found;
  llvm::StringSet<> ArchDependentMacros; // defined or undefined inside a conditional that depends on the arch
  std::vector<Conditional> Open;         // innermost last
  struct Use {
    clang::SourceLocation at; // the expansion's place in a file
    std::string what;
  };
  std::vector<Use> RecentUses;
  std::string WrittenMacro; // the last macro expanded where a file wrote its name
  clang::SourceRange WrittenMacroRange;
};

/// After the parse: the first place the project's code refers to a
/// declaration inside one of `Verdict`'s arch-dependent blocks ("k.cu:7 uses
/// '__reduce_add_sync', which cuda.h declares for some of the archs only").
std::optional<std::string> usesArchDependentDeclaration(clang::ASTContext &Ctx, const ArchTestVerdict &Verdict);

} // namespace occlint
