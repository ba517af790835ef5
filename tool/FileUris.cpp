#include "FileUris.h"

#include "llvm/ADT/StringExtras.h"

namespace occlint {

std::string percentEncodePath(llvm::StringRef Path) {
  std::string Encoded;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' || C == '/') {
      Encoded += char(C);
    } else {
      Encoded += '%';
      Encoded += llvm::hexdigit(C >> 4, /*LowerCase=*/false);
      Encoded += llvm::hexdigit(C & 15, /*LowerCase=*/false);
    }
  }
  return Encoded;
}

std::string fileUri(llvm::StringRef AbsolutePath) { return "file://" + percentEncodePath(AbsolutePath); }

} // namespace occlint
