// The value evaluator's public interface (see the header): EvaluatedValue and
// EvaluatedDim3, the two entry points of ValueEvaluator, and the conversion of
// an internal interval value into its public form.
#include "values/ValueEvaluatorInternals.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::occlint {

namespace {

bool fitsInt64(i128 V) { return V >= static_cast<i128>(INT64_MIN) && V <= static_cast<i128>(INT64_MAX); }

} // namespace

namespace value_evaluator_detail {

EvaluatedValue toPublic(const IVal &V) {
  EvaluatedValue Out;
  if (V.exact() && fitsInt64(V.lo)) {
    Out = EvaluatedValue::exact(static_cast<int64_t>(V.lo));
  } else {
    if (V.loKnown && fitsInt64(V.lo))
      Out.min = static_cast<int64_t>(V.lo);
    if (V.hiKnown && fitsInt64(V.hi))
      Out.max = static_cast<int64_t>(V.hi);
    Out.spelling = V.spelling;
  }
  Out.derivation = V.derivation;
  return Out;
}

std::string describe(const IVal &V) { return toPublic(V).describe(); }

} // namespace value_evaluator_detail

ValueEvaluator::Cache &ValueEvaluator::cache() {
  if (!Cached)
    Cached = std::make_shared<Cache>();
  return *Cached;
}

EvaluatedValue EvaluatedValue::exact(int64_t V) {
  EvaluatedValue R;
  R.min = V;
  R.max = V;
  return R;
}

EvaluatedValue EvaluatedValue::range(std::optional<int64_t> Min, std::optional<int64_t> Max) {
  EvaluatedValue R;
  R.min = Min;
  R.max = Max;
  return R;
}

EvaluatedValue EvaluatedValue::unknown(std::string Spelling) {
  EvaluatedValue R;
  R.spelling = std::move(Spelling);
  return R;
}

std::string EvaluatedValue::describe() const {
  if (isExact())
    return std::to_string(*min);
  if (min && max)
    return std::to_string(*min) + " to " + std::to_string(*max);
  if (max)
    return "at most " + std::to_string(*max);
  if (min)
    return "at least " + std::to_string(*min);
  if (!spelling.empty())
    return spelling;
  return "unknown";
}

// Components are dim3's unsigned integers: a missing lower bound is 0.
EvaluatedValue EvaluatedDim3::product() const {
  std::vector<ValueDerivation> Steps = derivation();
  EvaluatedValue Out;
  bool AnyUnknown = false;
  for (const EvaluatedValue &V : xyz)
    AnyUnknown |= V.isUnknown();
  if (!AnyUnknown) {
    auto Product = [&](bool UseMax) -> std::optional<int64_t> {
      i128 P = 1;
      for (const EvaluatedValue &V : xyz) {
        const std::optional<int64_t> &B = UseMax ? V.max : V.min;
        if (!B || *B < 0)
          return std::nullopt;
        if (__builtin_mul_overflow(P, static_cast<i128>(*B), &P) || !fitsInt64(P))
          return std::nullopt;
      }
      return static_cast<int64_t>(P);
    };
    Out.min = Product(false);
    Out.max = Product(true);
  }
  if (!Out.isExact()) {
    std::vector<std::string> Parts;
    for (const EvaluatedValue &V : xyz)
      if (!V.isExact() || V.exactValue() != 1)
        Parts.push_back(V.isExact() ? std::to_string(V.exactValue())
                                    : (V.spelling.empty() ? V.describe() : V.spelling));
    std::string Spelling;
    for (std::string &Part : Parts) {
      if (Parts.size() > 1 && Part.find(' ') != std::string::npos)
        Part = "(" + Part + ")";
      Spelling += (Spelling.empty() ? "" : " * ") + Part;
    }
    Out.spelling = Spelling;
  }
  Out.derivation = std::move(Steps);
  return Out;
}

std::vector<ValueDerivation> EvaluatedDim3::derivation() const {
  std::vector<ValueDerivation> Out;
  for (const EvaluatedValue &V : xyz)
    appendUnique(Out, V.derivation);
  return Out;
}

EvaluatedValue ValueEvaluator::evaluateInteger(const Expr &E) { return evaluateInteger(E, {}, nullptr); }

EvaluatedDim3 ValueEvaluator::evaluateDim3(const Expr &E) { return evaluateDim3(E, {}, nullptr); }

EvaluatedValue ValueEvaluator::evaluateInteger(const Expr &E, const ValueContext &Context, EvaluationTrace *Trace) {
  EvaluationTrace Local;
  ValueEvaluatorImpl Impl(Ctx, cache(), Context, Trace ? *Trace : Local);
  EvaluatedValue Out = toPublic(Impl.evalInt(&E));
  if (!E.getType()->isIntegralOrEnumerationType() && !E.isTypeDependent())
    Out = EvaluatedValue::unknown(Out.spelling);
  if (Trace && Out.isExact())
    Trace->unknownReason.clear();
  return Out;
}

EvaluatedDim3 ValueEvaluator::evaluateDim3(const Expr &E, const ValueContext &Context, EvaluationTrace *Trace) {
  EvaluationTrace Local;
  ValueEvaluatorImpl Impl(Ctx, cache(), Context, Trace ? *Trace : Local);
  IDim3 D = Impl.evalDim3(&E);
  EvaluatedDim3 Out;
  for (unsigned I = 0; I < 3; ++I)
    Out.xyz[I] = toPublic(D.c[I]);
  if (Trace && Out.isExact())
    Trace->unknownReason.clear();
  return Out;
}

} // namespace clang::tidy::occlint
