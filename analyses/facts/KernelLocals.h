// The integer locals of a kernel as a symbolic run of its body assigns them
// (facts/AsyncPipelineHazards.h): `k`, `cur = k % S`, `next = 1 - cur`,
// `stage = (stage + 1) % S`. A value is known when every local it reads is;
// a local assigned a value that is not known (a thread index, a parameter)
// is forgotten, and remembered as thread-valued when it came from threadIdx.
// Constants that need no local (constexpr, template arguments, sizeof) come
// from the value evaluator.
#pragma once

#include "facts/ValueEvaluator.h"

#include "clang/AST/Expr.h"

#include <map>
#include <optional>
#include <set>

namespace clang::tidy::occlint {

class KernelLocals {
public:
  explicit KernelLocals(ValueEvaluator &Values) : Values(Values) {}

  /// E's value with the locals as they stand; nullopt when not known.
  std::optional<int64_t> eval(const Expr *E);
  /// Whether S reads threadIdx, directly or through a thread-valued local.
  bool dependsOnThread(const Stmt *S);
  /// VD now holds V (nullopt: not known), assigned from From.
  void assign(const VarDecl *VD, std::optional<int64_t> V, const Expr *From);
  /// Runs the assignments to integer locals in S (=, op=, ++, --).
  void assignments(const Stmt *S);
  /// Forgets every local S assigns or declares (a loop read once).
  void forgetAssignedIn(const Stmt *S);
  /// The local variable E names, if any.
  static const VarDecl *localOf(const Expr *E);

private:
  std::optional<int64_t> constant(const Expr *E);
  bool mentionsAssignedLocal(const Stmt *S);

  ValueEvaluator &Values;
  std::map<const VarDecl *, int64_t> Env;
  std::set<const VarDecl *> Assigned, ThreadValued;
  std::map<const Expr *, std::optional<int64_t>> Constants; // the evaluator's answers, asked once per expression
};

} // namespace clang::tidy::occlint
