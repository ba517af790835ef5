// Evaluating the integer values of a launch (grid, block, dynamic shared
// memory, attribute values) as far as the source proves them: an exact value,
// a range, or unknown. Never a guess: a value that depends on something the
// source does not pin down stays unknown (with its spelling, so a message can
// still say "(n + 255) / 256 blocks").
//
// What is understood: literals, constexpr/const variables with constant
// initializers, enumerators, template arguments of the instantiation being
// analysed (SubstNonTypeTemplateParmExpr), macros (they are expanded in the
// AST), sizeof/alignof, + - * / % << >> & | with interval arithmetic, ?:
// (one of two constants, a set a variant picks from, else the hull of both
// arms), min/max (std::min, std::max, ::min, ::max, and
// CUDA's min/max overloads), casts, and local variables with one reaching
// definition (declared with an initializer and never modified afterwards,
// decided by clang's ExprMutationAnalyzer over the enclosing function body).
// dim3 values: dim3(x, y, z), an integer converted to dim3, a dim3 variable
// with one reaching definition, constexpr dim3, a helper of one return
// statement returning a dim3, and a local dim3 assigned member by member
// (`dim3 b; b.x = 256;`: each member read through its writes, as the
// integer members of any local object are; ReachingWrites.h). A parameter's
// members (by value or by reference to const) are those of the object its
// caller passes, and a const global object's those of its initializer.
//
// Every value carries its derivation: the declarations and definitions it was
// read from, each a (location, text) pair the checks turn into notes
// ("'threads' is defined here as 256").
#pragma once

#include "values/ValueContext.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// One step of how a value was derived: a note at `loc` saying `text`.
struct ValueDerivation {
  SourceLocation loc;
  std::string text; // "'threads' is defined here as 256"
};

/// An integer as far as the source proves it. min == max: exact; both set
/// and different: a range [min, max]; one set: half-bounded; none: unknown.
struct EvaluatedValue {
  std::optional<int64_t> min, max;
  /// How the value is written, for unknown parts: "(n + 255) / 256". Empty
  /// when the value is exact.
  std::string spelling;
  std::vector<ValueDerivation> derivation;

  static EvaluatedValue exact(int64_t V);
  static EvaluatedValue range(std::optional<int64_t> Min, std::optional<int64_t> Max);
  static EvaluatedValue unknown(std::string Spelling = "");

  bool isExact() const { return min && max && *min == *max; }
  bool isUnknown() const { return !min && !max; }
  /// Both bounds known (exact values included).
  bool isBounded() const { return min && max; }
  int64_t exactValue() const { return *min; } // only when isExact()
  /// "256", "128 to 256", "at most 40", "at least 1", "unknown", or
  /// "(n + 255) / 256" (the spelling) for an unknown with a spelling.
  std::string describe() const;
};

/// A dim3-like triple; each component evaluated on its own.
struct EvaluatedDim3 {
  std::array<EvaluatedValue, 3> xyz{EvaluatedValue::exact(1), EvaluatedValue::exact(1), EvaluatedValue::exact(1)};
  /// x * y * z with interval arithmetic; derivations of all three merged.
  EvaluatedValue product() const;
  bool isExact() const { return xyz[0].isExact() && xyz[1].isExact() && xyz[2].isExact(); }
  /// Only when isExact().
  std::array<int64_t, 3> exactValues() const { return {xyz[0].exactValue(), xyz[1].exactValue(), xyz[2].exactValue()}; }
  /// Every derivation step of the three components, without duplicates.
  std::vector<ValueDerivation> derivation() const;
};

class ValueEvaluator {
public:
  explicit ValueEvaluator(ASTContext &Ctx) : Ctx(Ctx) {}

  /// An integer-typed expression (integral, enum, bool; unsigned included).
  /// Value- or type-dependent expressions are unknown.
  EvaluatedValue evaluateInteger(const Expr &E);

  /// A grid or block argument, or any dim3-typed expression; an
  /// integer-typed expression E gives (E, 1, 1).
  EvaluatedDim3 evaluateDim3(const Expr &E);

  /// The same, read in a context (ValueContext.h): guards, call bindings
  /// and picks refine the value; `Trace` (optional) receives the choice
  /// that could refine it further and why it is not exact.
  EvaluatedValue evaluateInteger(const Expr &E, const ValueContext &Context, EvaluationTrace *Trace);
  EvaluatedDim3 evaluateDim3(const Expr &E, const ValueContext &Context, EvaluationTrace *Trace);

  /// What the evaluator remembers between calls (mutation analyses per
  /// function body, values of variables); defined in
  /// values/ValueEvaluatorInternals.h and shared by copies of this evaluator
  /// (all for the same ASTContext).
  struct Cache;

private:
  ASTContext &Ctx;
  std::shared_ptr<Cache> Cached; // created on first use
  Cache &cache();
  friend class ValueEvaluatorImpl;
};

} // namespace clang::tidy::occlint
