#include "lsp/LspUri.h"

#include "llvm/ADT/StringExtras.h"

namespace occlint::lsp {

std::optional<std::string> filePathFromUri(llvm::StringRef Uri) {
  const size_t Colon = Uri.find(':');
  if (Colon == llvm::StringRef::npos || !Uri.take_front(Colon).equals_insensitive("file"))
    return std::nullopt;
  llvm::StringRef Rest = Uri.drop_front(Colon + 1);
  if (Rest.consume_front("//")) {
    const size_t Slash = Rest.find('/');
    llvm::StringRef Authority = Rest.take_front(Slash);
    if (!Authority.empty() && !Authority.equals_insensitive("localhost"))
      return std::nullopt; // a file on another host
    Rest = Rest.drop_front(Authority.size());
  }
  if (!Rest.starts_with("/"))
    return std::nullopt;
  std::string Path;
  for (size_t I = 0; I < Rest.size(); ++I) {
    if (Rest[I] != '%') {
      Path += Rest[I];
      continue;
    }
    unsigned High, Low;
    if (I + 2 >= Rest.size() || (High = llvm::hexDigitValue(Rest[I + 1])) == ~0U ||
        (Low = llvm::hexDigitValue(Rest[I + 2])) == ~0U)
      return std::nullopt;
    Path += char(High * 16 + Low);
    I += 2;
  }
  return Path;
}

} // namespace occlint::lsp
