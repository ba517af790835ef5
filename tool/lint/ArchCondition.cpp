#include "lint/ArchCondition.h"

#include "llvm/ADT/StringExtras.h"

namespace occlint {

namespace {

// Recursive descent over C's conditional-expression grammar, as the
// preprocessor evaluates it (signed 64-bit; division by zero has no value).
class Evaluator {
public:
  Evaluator(const std::vector<std::string> &Tokens, int64_t Arch, const ArchConditionNames &Names, int Depth)
      : Tokens(Tokens), Arch(Arch), Names(Names), Depth(Depth) {}

  std::optional<int64_t> whole() {
    std::optional<int64_t> V = conditional();
    if (!V || At != Tokens.size())
      return std::nullopt;
    return V;
  }

private:
  bool accept(llvm::StringRef T) {
    if (At < Tokens.size() && Tokens[At] == T) {
      ++At;
      return true;
    }
    return false;
  }

  std::optional<int64_t> conditional() {
    std::optional<int64_t> C = binary(0);
    if (!C || !accept("?"))
      return C;
    std::optional<int64_t> A = conditional();
    if (!A || !accept(":"))
      return std::nullopt;
    std::optional<int64_t> B = conditional();
    if (!B)
      return std::nullopt;
    return *C ? *A : *B;
  }

  // Precedence levels, loosest first.
  static int levelOf(llvm::StringRef Op) {
    static const char *const Levels[][6] = {
        {"||"},       {"&&"},     {"|"},          {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
        {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    for (int L = 0; L < 10; ++L)
      for (const char *Name : Levels[L])
        if (Name && Op == Name)
          return L;
    return -1;
  }

  std::optional<int64_t> binary(int Level) {
    if (Level == 10)
      return unary();
    std::optional<int64_t> L = binary(Level + 1);
    while (L && At < Tokens.size() && levelOf(Tokens[At]) == Level) {
      const std::string Op = Tokens[At++];
      std::optional<int64_t> R = binary(Level + 1);
      if (!R)
        return std::nullopt;
      L = apply(Op, *L, *R);
    }
    return L;
  }

  static std::optional<int64_t> apply(llvm::StringRef Op, int64_t L, int64_t R) {
    if (Op == "||")
      return int64_t(L || R);
    if (Op == "&&")
      return int64_t(L && R);
    if (Op == "|")
      return L | R;
    if (Op == "^")
      return L ^ R;
    if (Op == "&")
      return L & R;
    if (Op == "==")
      return int64_t(L == R);
    if (Op == "!=")
      return int64_t(L != R);
    if (Op == "<")
      return int64_t(L < R);
    if (Op == "<=")
      return int64_t(L <= R);
    if (Op == ">")
      return int64_t(L > R);
    if (Op == ">=")
      return int64_t(L >= R);
    if (Op == "<<")
      return R < 0 || R > 62 ? std::nullopt : std::optional<int64_t>(L << R);
    if (Op == ">>")
      return R < 0 || R > 62 ? std::nullopt : std::optional<int64_t>(L >> R);
    if (Op == "+")
      return L + R;
    if (Op == "-")
      return L - R;
    if (Op == "*")
      return L * R;
    if (R == 0)
      return std::nullopt;
    if (Op == "/")
      return L / R;
    return L % R;
  }

  std::optional<int64_t> unary() {
    if (accept("!")) {
      std::optional<int64_t> V = unary();
      return V ? std::optional<int64_t>(!*V) : std::nullopt;
    }
    if (accept("-")) {
      std::optional<int64_t> V = unary();
      return V ? std::optional<int64_t>(-*V) : std::nullopt;
    }
    if (accept("+"))
      return unary();
    if (accept("~")) {
      std::optional<int64_t> V = unary();
      return V ? std::optional<int64_t>(~*V) : std::nullopt;
    }
    return primary();
  }

  std::optional<int64_t> primary() {
    if (At >= Tokens.size())
      return std::nullopt;
    if (accept("(")) {
      std::optional<int64_t> V = conditional();
      if (!V || !accept(")"))
        return std::nullopt;
      return V;
    }
    llvm::StringRef T = Tokens[At++];
    if (T == "defined") {
      const bool Paren = accept("(");
      if (At >= Tokens.size())
        return std::nullopt;
      llvm::StringRef Name = Tokens[At++];
      if (Paren && !accept(")"))
        return std::nullopt;
      if (Name == "__CUDA_ARCH__")
        return 1; // every device-side parse defines it
      std::optional<bool> D = Names.isDefined(Name);
      return D ? std::optional<int64_t>(*D) : std::nullopt;
    }
    if (T == "__CUDA_ARCH__")
      return Arch;
    if (!T.empty() && llvm::isDigit(T.front())) {
      llvm::StringRef Digits = T.rtrim("uUlL");
      uint64_t V;
      if (Digits.getAsInteger(0, V) || V > uint64_t(INT64_MAX))
        return std::nullopt;
      return int64_t(V);
    }
    if (!T.empty() && (llvm::isAlpha(T.front()) || T.front() == '_')) {
      // A macro's body, evaluated in turn (a bounded depth: a macro that
      // names itself has no value).
      std::optional<std::vector<std::string>> Body = Names.bodyOf(T);
      if (!Body || Depth >= 16)
        return std::nullopt;
      return Evaluator(*Body, Arch, Names, Depth + 1).whole();
    }
    return std::nullopt;
  }

  const std::vector<std::string> &Tokens;
  size_t At = 0;
  int64_t Arch;
  const ArchConditionNames &Names;
  int Depth;
};

} // namespace

std::optional<int64_t> evaluateArchCondition(const std::vector<std::string> &Tokens, int64_t ArchValue,
                                             const ArchConditionNames &Names) {
  return Evaluator(Tokens, ArchValue, Names, 0).whole();
}

std::optional<int64_t> cudaArchValue(llvm::StringRef Arch) {
  if (!Arch.consume_front("sm_"))
    return std::nullopt;
  Arch = Arch.rtrim("af");
  unsigned N;
  if (Arch.empty() || Arch.getAsInteger(10, N))
    return std::nullopt;
  return int64_t(N) * 10;
}

} // namespace occlint
