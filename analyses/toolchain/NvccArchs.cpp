// Arch parsing: target archs from nvcc's -arch/-code/-gencode spellings
// (sm_XX, compute_XX, lto_XX) as real archs, and their Clang 22 names.
#include "toolchain/NvccArchs.h"

#include "toolchain/CommandLineText.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace occlint::translator_detail {

std::optional<std::string> normalizeArch(const std::string &Raw) {
  std::string V = trimQuotesAndBrackets(Raw);
  for (std::string_view Prefix : {"sm_", "compute_", "lto_"}) {
    if (!V.starts_with(Prefix))
      continue;
    std::string Rest = V.substr(Prefix.size());
    if (Rest.empty() || !(Rest[0] >= '0' && Rest[0] <= '9'))
      return std::nullopt;
    if (!std::all_of(Rest.begin(), Rest.end(), [](unsigned char C) { return std::isalnum(C); }))
      return std::nullopt;
    return "sm_" + Rest;
  }
  return std::nullopt;
}

namespace {

struct GencodeItems {
  std::string arch;
  std::vector<std::string> codes;
};

GencodeItems gencodeItems(const std::string &Value) {
  GencodeItems G;
  bool InCode = false;
  for (const std::string &Item : splitList(trimQuotesAndBrackets(Value))) {
    if (Item.starts_with("arch=")) {
      G.arch = Item.substr(5);
      InCode = false;
    } else if (Item.starts_with("code=")) {
      InCode = true;
      if (Item.size() > 5)
        G.codes.push_back(Item.substr(5));
    } else if (InCode) {
      G.codes.push_back(Item);
    }
  }
  return G;
}

} // namespace

std::optional<std::vector<std::string>> parseGencode(const std::string &Value) {
  const GencodeItems G = gencodeItems(Value);
  std::vector<std::string> Out;
  for (const std::string &C : G.codes)
    if (auto A = normalizeArch(C))
      Out.push_back(*A);
  if (Out.empty() && !G.arch.empty())
    if (auto A = normalizeArch(G.arch))
      Out.push_back(*A);
  if (Out.empty())
    return std::nullopt;
  return Out;
}

std::vector<std::string> gencodeCodes(const std::string &Value) { return gencodeItems(Value).codes; }

std::vector<std::string> linkTimeOnlyArchs(const std::vector<std::string> &Codes) {
  std::vector<std::string> Lto, Sass;
  for (const std::string &Raw : Codes) {
    const std::string C = trimQuotesAndBrackets(Raw);
    if (auto A = normalizeArch(C)) {
      if (C.starts_with("lto_"))
        addArch(Lto, *A);
      else if (C.starts_with("sm_"))
        addArch(Sass, *A);
    }
  }
  std::vector<std::string> Out;
  for (const std::string &A : Lto)
    if (std::find(Sass.begin(), Sass.end(), A) == Sass.end())
      Out.push_back(A);
  return Out;
}

void addArch(std::vector<std::string> &Archs, const std::string &A) {
  if (std::find(Archs.begin(), Archs.end(), A) == Archs.end())
    Archs.push_back(A);
}

std::string clangArchName(const std::string &A, TranslatedCommand &R) {
  if (A.size() > 4 && A.back() == 'f' && std::isdigit(static_cast<unsigned char>(A[A.size() - 2]))) {
    std::string C = A.substr(0, A.size() - 1) + "a";
    R.notes.push_back(A + ": Clang 22 has no family-specific targets; parsed as " + C);
    return C;
  }
  return A;
}

} // namespace occlint::translator_detail
