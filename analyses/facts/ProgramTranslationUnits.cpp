// The identifier index behind ProgramTranslationUnits.h: for each identifier,
// the first two files that name it (two are enough to know whether a file
// other than a given one does).
#include "facts/ProgramTranslationUnits.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cctype>

namespace clang::tidy::occlint {

namespace {

struct Program {
  bool known = false;
  std::vector<std::string> files; // real paths
  llvm::StringMap<llvm::SmallVector<unsigned, 2>> namedIn;
};

Program &program() {
  static Program P;
  return P;
}

std::string realPath(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

bool startsIdentifier(char C) { return std::isalpha(static_cast<unsigned char>(C)) || C == '_'; }
bool continuesIdentifier(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

void indexFile(Program &P, unsigned Index, llvm::StringRef Text) {
  size_t I = 0;
  while (I < Text.size()) {
    if (!startsIdentifier(Text[I])) {
      // A digit run with letters in it (0x1f, 1e5f) is not an identifier.
      const bool Number = std::isdigit(static_cast<unsigned char>(Text[I]));
      ++I;
      if (Number)
        while (I < Text.size() && continuesIdentifier(Text[I]))
          ++I;
      continue;
    }
    const size_t Start = I;
    while (I < Text.size() && continuesIdentifier(Text[I]))
      ++I;
    llvm::SmallVector<unsigned, 2> &Files = P.namedIn[Text.slice(Start, I)];
    if (Files.size() < 2 && (Files.empty() || Files.back() != Index))
      Files.push_back(Index);
  }
}

} // namespace

void ProgramTranslationUnits::set(const std::vector<std::string> &MainFiles) {
  clear();
  Program &P = program();
  llvm::StringSet<> Seen;
  for (const std::string &File : MainFiles) {
    std::string Real = realPath(File);
    if (!Seen.insert(Real).second)
      continue; // one file compiled twice (two archs, two configurations)
    auto Buffer = llvm::MemoryBuffer::getFile(Real, /*IsText=*/true);
    if (!Buffer) {
      clear();
      return;
    }
    P.files.push_back(std::move(Real));
    indexFile(P, unsigned(P.files.size() - 1), (*Buffer)->getBuffer());
  }
  P.known = true;
}

void ProgramTranslationUnits::clear() {
  Program &P = program();
  P.known = false;
  P.files.clear();
  P.namedIn.clear();
}

bool ProgramTranslationUnits::known() { return program().known; }

std::optional<std::string> ProgramTranslationUnits::namedOutside(llvm::StringRef Identifier, llvm::StringRef MainFile) {
  const Program &P = program();
  if (!P.known)
    return MainFile.str();
  auto It = P.namedIn.find(Identifier);
  if (It == P.namedIn.end())
    return std::nullopt;
  const std::string Main = realPath(MainFile);
  for (unsigned Index : It->second)
    if (P.files[Index] != Main)
      return P.files[Index];
  return std::nullopt;
}

} // namespace clang::tidy::occlint
