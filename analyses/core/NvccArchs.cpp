// Arch parsing: target archs from nvcc's -arch/-code/-gencode spellings
// (sm_XX, compute_XX, lto_XX) as real archs, and their Clang 22 names.
#include "core/NvccArchs.h"

#include "core/CommandLineText.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace occlint::translator_detail {

std::optional<std::string> normalizeArch(const std::string &Raw) {
  std::string V = trimQuotesAndBrackets(Raw);
  for (std::string_view Prefix : {"sm_", "compute_", "lto_"}) {
    if (!startsWith(V, Prefix))
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

std::optional<std::vector<std::string>> parseGencode(const std::string &Value) {
  std::string Arch;
  std::vector<std::string> Codes;
  bool InCode = false;
  for (const std::string &Item : splitList(trimQuotesAndBrackets(Value))) {
    if (startsWith(Item, "arch=")) {
      Arch = Item.substr(5);
      InCode = false;
    } else if (startsWith(Item, "code=")) {
      InCode = true;
      if (Item.size() > 5)
        Codes.push_back(Item.substr(5));
    } else if (InCode) {
      Codes.push_back(Item);
    }
  }
  std::vector<std::string> Out;
  for (const std::string &C : Codes)
    if (auto A = normalizeArch(C))
      Out.push_back(*A);
  if (Out.empty() && !Arch.empty())
    if (auto A = normalizeArch(Arch))
      Out.push_back(*A);
  if (Out.empty())
    return std::nullopt;
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
