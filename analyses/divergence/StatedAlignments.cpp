#include "divergence/StatedAlignments.h"

#include "llvm/ADT/StringExtras.h"

#include <bit>
#include <optional>

namespace clang::tidy::occlint {

namespace {

bool isIdentifier(llvm::StringRef S) {
  return !S.empty() && (llvm::isAlpha(S.front()) || S.front() == '_') &&
         llvm::all_of(S, [](char C) { return llvm::isAlnum(C) || C == '_'; });
}

// `X % K` (K = 2^n) or `X & M` (M = 2^n - 1), X a plain name.
std::optional<StatedAlignment> alignmentOf(AssertionTokens T, const CompoundStmt &Body, ASTContext &Ctx) {
  T = stripParens(T);
  for (llvm::StringRef Op : {"%", "&"}) {
    const std::vector<AssertionTokens> Sides = splitTopLevel(T, Op);
    if (Sides.size() != 2)
      continue;
    const AssertionTokens Var = stripParens(Sides[0]);
    const std::optional<int64_t> K = constantOf(Sides[1], Body, Ctx);
    const std::optional<unsigned> Log2 = K ? alignmentStatedByZero(Op == "%", *K) : std::nullopt;
    if (Var.size() != 1 || !isIdentifier(Var[0]) || !Log2)
      return std::nullopt;
    return StatedAlignment{Var[0], *Log2};
  }
  return std::nullopt;
}

} // namespace

std::optional<unsigned> alignmentStatedByZero(bool Remainder, int64_t K) {
  if (K < 0 || K >= (int64_t(1) << 62))
    return std::nullopt;
  const uint64_t Modulus = Remainder ? uint64_t(K) : uint64_t(K) + 1;
  if (Modulus < 2 || !std::has_single_bit(Modulus))
    return std::nullopt;
  return unsigned(std::countr_zero(Modulus));
}

std::vector<StatedAlignment> statedAlignments(const StatedAssertion &A, const CompoundStmt &Body, ASTContext &Ctx) {
  std::vector<StatedAlignment> Out;
  for (AssertionTokens Conjunct : splitTopLevel(stripParens(A.Tokens), "&&")) {
    Conjunct = stripParens(Conjunct);
    std::optional<StatedAlignment> Found;
    if (!Conjunct.empty() && Conjunct.front() == "!") { // `!(C % 256)`
      Found = alignmentOf(Conjunct.drop_front(), Body, Ctx);
    } else if (const std::vector<AssertionTokens> Sides = splitTopLevel(Conjunct, "=="); Sides.size() == 2) {
      for (const auto &[Zero, Rest] : {std::pair{Sides[1], Sides[0]}, std::pair{Sides[0], Sides[1]}})
        if (constantOf(Zero, Body, Ctx) == 0) {
          Found = alignmentOf(Rest, Body, Ctx);
          break;
        }
    }
    if (Found)
      Out.push_back(std::move(*Found));
  }
  return Out;
}

} // namespace clang::tidy::occlint
