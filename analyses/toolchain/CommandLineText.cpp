// Splitting command-line text: shell-like words (splitCommandLine), comma
// lists, quote trimming and the integer and prefix tests the translator's parts
// share.
#include "toolchain/CommandLineText.h"

#include "toolchain/CompileCommandTranslator.h"

#include <charconv>
#include <system_error>
#include <utility>

namespace occlint {
namespace translator_detail {

std::string trimQuotesAndBrackets(std::string S) {
  std::string Out;
  for (char C : S)
    if (C != '"' && C != '\'' && C != '[' && C != ']' && C != ' ' && C != '\t')
      Out += C;
  return Out;
}

std::vector<std::string> splitList(const std::string &S, char Sep) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S) {
    if (C == Sep) {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

std::optional<int> parsePositiveInt(std::string_view S) {
  int V = 0;
  auto [Ptr, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || Ptr != S.data() + S.size() || V <= 0)
    return std::nullopt;
  return V;
}

} // namespace translator_detail

std::vector<std::string> splitCommandLine(std::string_view S) {
  std::vector<std::string> Out;
  std::string Cur;
  bool InWord = false;
  auto IsSpace = [](char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v'; };
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (IsSpace(C)) {
      if (InWord)
        Out.push_back(std::move(Cur));
      Cur.clear();
      InWord = false;
      continue;
    }
    if (C == '\\') {
      if (I + 1 >= S.size()) {
        Cur += C; // a trailing backslash stays
        InWord = true;
        continue;
      }
      ++I;
      if (S[I] == '\n')
        continue; // line continuation
      Cur += S[I];
      InWord = true;
      continue;
    }
    InWord = true;
    if (C == '\'') {
      for (++I; I < S.size() && S[I] != '\''; ++I)
        Cur += S[I];
      continue;
    }
    if (C == '"') {
      for (++I; I < S.size() && S[I] != '"'; ++I) {
        if (S[I] == '\\' && I + 1 < S.size() && std::string_view("\"\\$`\n").find(S[I + 1]) != std::string_view::npos) {
          ++I;
          if (S[I] != '\n')
            Cur += S[I];
          continue;
        }
        Cur += S[I];
      }
      continue;
    }
    Cur += C;
  }
  if (InWord)
    Out.push_back(std::move(Cur));
  return Out;
}

} // namespace occlint
