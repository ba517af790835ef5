#include "divergence/AssertionTokens.h"

#include "ast/IntegerConstants.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::tidy::occlint {

namespace {

using Tokens = AssertionTokens;

/// Whether T[0] is a "(" matched by T's last token.
bool wrappedInParens(Tokens T) {
  if (T.size() < 2 || T.front() != "(" || T.back() != ")")
    return false;
  int Depth = 0;
  for (size_t I = 0; I + 1 < T.size(); ++I) {
    Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
    if (Depth == 0)
      return false; // `(a) == (b)`
  }
  return true;
}

// A named constant: 32-bit values only.
std::optional<int64_t> integerConstant(const Expr *Init, const ASTContext &Ctx) {
  const std::optional<int64_t> C = integerConstantOf(Init, Ctx);
  if (!C || *C < INT32_MIN || *C > INT32_MAX)
    return std::nullopt;
  return C;
}

/// A named constant: a const local of the kernel's top level, or a const
/// variable or enumerator at file scope.
std::optional<int64_t> namedConstant(llvm::StringRef Name, const CompoundStmt &Body, ASTContext &Ctx) {
  auto FromVar = [&](const VarDecl *VD) -> std::optional<int64_t> {
    if (!VD || !VD->getType().isConstQualified() || !VD->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    return integerConstant(VD->getInit(), Ctx);
  };
  for (const Stmt *S : Body.body())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getName() == Name)
          return FromVar(VD);
  for (const NamedDecl *D : Ctx.getTranslationUnitDecl()->lookup(DeclarationName(&Ctx.Idents.get(Name)))) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(D))
      return EC->getInitVal().getSignificantBits() <= 32 ? std::optional<int64_t>(EC->getInitVal().getSExtValue())
                                                         : std::nullopt;
    if (const auto *VD = dyn_cast<VarDecl>(D))
      return FromVar(VD);
  }
  return std::nullopt;
}

/// A constant of integers and named constants with + - * / % and
/// parentheses (`(32 * 4)`, a macro's replacement), by recursive descent
/// over at most 64 tokens.
class ConstantParser {
public:
  ConstantParser(Tokens T, const CompoundStmt &Body, ASTContext &Ctx) : T(T), Body(Body), Ctx(Ctx) {}

  std::optional<int64_t> parse() {
    std::optional<int64_t> V = sum();
    return V && Pos == T.size() ? V : std::nullopt;
  }

private:
  static constexpr int64_t Limit = int64_t(1) << 31;

  bool take(llvm::StringRef S) {
    if (Pos < T.size() && T[Pos] == S) {
      ++Pos;
      return true;
    }
    return false;
  }
  std::optional<int64_t> sum() {
    std::optional<int64_t> V = product();
    while (V) {
      const bool Plus = take("+");
      if (!Plus && !take("-"))
        break;
      const std::optional<int64_t> R = product();
      V = R ? std::optional<int64_t>(Plus ? *V + *R : *V - *R) : std::nullopt;
      if (V && (*V > Limit || *V < -Limit))
        return std::nullopt;
    }
    return V;
  }
  std::optional<int64_t> product() {
    std::optional<int64_t> V = primary();
    while (V) {
      const char Op = take("*") ? '*' : take("/") ? '/' : take("%") ? '%' : 0;
      if (!Op)
        break;
      const std::optional<int64_t> R = primary();
      if (!R || (Op != '*' && *R == 0))
        return std::nullopt;
      V = Op == '*' ? *V * *R : Op == '/' ? *V / *R : *V % *R;
      if (*V > Limit || *V < -Limit)
        return std::nullopt;
    }
    return V;
  }
  std::optional<int64_t> primary() {
    if (Pos >= T.size())
      return std::nullopt;
    if (take("(")) {
      const std::optional<int64_t> V = sum();
      return V && take(")") ? V : std::nullopt;
    }
    const llvm::StringRef S = T[Pos++];
    if (S.empty())
      return std::nullopt;
    if (llvm::isDigit(S.front())) {
      uint64_t V = 0;
      if (S.rtrim("uUlL").getAsInteger(0, V) || V > uint64_t(Limit))
        return std::nullopt;
      return int64_t(V);
    }
    return namedConstant(S, Body, Ctx);
  }

  Tokens T;
  size_t Pos = 0;
  const CompoundStmt &Body;
  ASTContext &Ctx;
};

} // namespace

Tokens stripParens(Tokens T) {
  while (wrappedInParens(T))
    T = T.drop_front().drop_back();
  return T;
}

/// T split at Sep outside parentheses.
std::vector<Tokens> splitTopLevel(Tokens T, llvm::StringRef Sep) {
  std::vector<Tokens> Parts;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < T.size(); ++I) {
    Depth += T[I] == "(" ? 1 : T[I] == ")" ? -1 : 0;
    if (Depth == 0 && T[I] == Sep) {
      Parts.push_back(T.slice(Start, I - Start));
      Start = I + 1;
    }
  }
  Parts.push_back(T.drop_front(Start));
  return Parts;
}

std::optional<int64_t> constantOf(Tokens T, const CompoundStmt &Body, ASTContext &Ctx) {
  return ConstantParser(T, Body, Ctx).parse();
}

} // namespace clang::tidy::occlint
