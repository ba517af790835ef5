#include "checks/NvccMacroInOwnFiles.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>

namespace clang::tidy::occlint {

namespace {

// The preprocessor whose callbacks are installed on this thread (each
// translation unit has its own; the callbacks die with it).
thread_local const Preprocessor *InstalledFor = nullptr;

class OwnFilesTracker : public PPCallbacks {
public:
  explicit OwnFilesTracker(Preprocessor &PP)
      : PP(PP), SM(PP.getSourceManager()), Nvcc(PP.getIdentifierInfo("__NVCC__")),
        Marker(PP.getIdentifierInfo(NvccBuildMarker)) {
    InstalledFor = &PP;
  }
  ~OwnFilesTracker() override {
    if (InstalledFor == &PP)
      InstalledFor = nullptr;
  }

  void InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef SearchPath, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    PendingOwn.reset();
    const FileID Includer = SM.getFileID(HashLoc);
    if (IsAngled || !File || !isOwn(Includer))
      return;
    // A quoted include is looked up next to the including file first; the
    // search path Clang reports is then that file's directory.
    const OptionalFileEntryRef IncluderFile = SM.getFileEntryRefForID(Includer);
    const OptionalDirectoryEntryRef SearchDir = PP.getFileManager().getOptionalDirectoryRef(SearchPath);
    if (IncluderFile && SearchDir && &SearchDir->getDirEntry() == &IncluderFile->getDir().getDirEntry())
      PendingOwn = *File;
  }

  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind, FileID) override {
    if (Reason != EnterFile && Reason != ExitFile)
      return;
    const FileID Now = SM.getFileID(Loc);
    if (Reason == EnterFile && PendingOwn) {
      // An include guard or #pragma once skips a file without entering it:
      // the pending one counts only if it is the file entered.
      if (const OptionalFileEntryRef Entered = SM.getFileEntryRefForID(Now);
          Entered && &Entered->getFileEntry() == &PendingOwn->getFileEntry())
        Own.insert(Now);
      PendingOwn.reset();
    }
    follow(Now, Loc);
  }

private:
  bool isOwn(FileID F) const { return F == SM.getMainFileID() || Own.contains(F); }

  // Defines or undefines __NVCC__ for the file now read. A definition that
  // is not ours (-D__NVCC__, or the code's own #define) is left alone.
  void follow(FileID Now, SourceLocation Loc) {
    const bool Want = isOwn(Now) && PP.isMacroDefined(Marker);
    const MacroInfo *Current = PP.getMacroInfo(Nvcc);
    if (Want && !Current) {
      MacroInfo *MI = PP.AllocateMacroInfo(Loc);
      Token One;
      One.startToken();
      One.setKind(tok::numeric_constant);
      PP.CreateString("1", One, Loc, Loc);
      MI->setTokens({One}, PP.getPreprocessorAllocator());
      PP.appendDefMacroDirective(Nvcc, MI, Loc);
      Ours = MI;
    } else if (!Want && Current && Current == Ours) {
      PP.appendMacroDirective(Nvcc, new (PP.getPreprocessorAllocator()) UndefMacroDirective(Loc));
      Ours = nullptr;
    }
  }

  Preprocessor &PP;
  SourceManager &SM;
  IdentifierInfo *Nvcc;
  IdentifierInfo *Marker;
  llvm::DenseSet<FileID> Own;
  OptionalFileEntryRef PendingOwn;
  const MacroInfo *Ours = nullptr;
};

} // namespace

void NvccMacroInOwnFiles::install(Preprocessor &PP) {
  if (InstalledFor == &PP)
    return;
  PP.addPPCallbacks(std::make_unique<OwnFilesTracker>(PP));
}

} // namespace clang::tidy::occlint
