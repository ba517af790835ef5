#include "lint/SharedDeclarationOverlay.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

namespace occlint {

namespace {

bool isIdentifierChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

} // namespace

size_t sharedKeywordBefore(llvm::StringRef Text, size_t NameOffset) {
  static constexpr llvm::StringRef Keyword = "__shared__";
  if (NameOffset > Text.size())
    return llvm::StringRef::npos;
  llvm::StringRef Before = Text.take_front(NameOffset);
  // The declaration starts after the last statement or block boundary.
  const size_t Start = Before.find_last_of(";{}");
  size_t From = Start == llvm::StringRef::npos ? 0 : Start + 1;
  // ... and after the last preprocessor line (a macro's body is not the
  // declaration's text).
  for (size_t Line = From; Line < NameOffset;) {
    const size_t End = std::min<size_t>(Before.find('\n', Line), NameOffset);
    if (Before.substr(Line, End - Line).ltrim().starts_with("#"))
      From = End;
    Line = End + 1;
  }
  for (size_t At = Before.rfind(Keyword); At != llvm::StringRef::npos && At >= From;
       At = Before.take_front(At).rfind(Keyword)) {
    // A whole token: not part of a longer identifier.
    const bool StartsToken = At == 0 || !isIdentifierChar(Text[At - 1]);
    const size_t End = At + Keyword.size();
    const bool EndsToken = End >= Text.size() || !isIdentifierChar(Text[End]);
    if (StartsToken && EndsToken)
      return At;
  }
  return llvm::StringRef::npos;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
overlayRejectedSharedDeclarations(const std::vector<RejectedSharedDeclaration> &Rejected,
                                  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base) {
  static_assert(std::char_traits<char>::length(RewrittenSharedKeyword) == std::char_traits<char>::length("__shared__"),
                "the rewrite keeps every column");
  std::map<std::string, std::set<unsigned>> ByFile;
  for (const RejectedSharedDeclaration &R : Rejected)
    ByFile[R.file].insert(R.offset);

  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  bool Any = false;
  for (const auto &[File, Offsets] : ByFile) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = Base->getBufferForFile(File);
    if (!Buffer)
      continue;
    std::string Text = (*Buffer)->getBuffer().str();
    bool Changed = false;
    for (unsigned Offset : Offsets) {
      const size_t At = sharedKeywordBefore(Text, Offset);
      if (At == llvm::StringRef::npos)
        continue;
      Text.replace(At, std::strlen(RewrittenSharedKeyword), RewrittenSharedKeyword);
      Changed = true;
    }
    if (!Changed)
      continue;
    llvm::ErrorOr<llvm::vfs::Status> Status = Base->status(File);
    Memory->addFile(File, Status ? llvm::sys::toTimeT(Status->getLastModificationTime()) : 0,
                    llvm::MemoryBuffer::getMemBufferCopy(Text, File));
    Any = true;
  }
  if (!Any)
    return nullptr;
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(Base);
  Overlay->pushOverlay(Memory);
  return Overlay;
}

} // namespace occlint
