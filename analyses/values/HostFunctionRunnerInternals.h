// The runner of HostFunctionRunner.h, shared by its three files: the
// integers and calls (HostFunctionRunner.cpp), the expressions
// (HostFunctionRunnerExpressions.cpp) and the statements
// (HostFunctionRunnerStatements.cpp), and by nothing else.
#pragma once

#include "values/HostFunctionRunner.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint::host_runner_detail {

using i128 = __int128;

// Bounds: a helper that rounds a block size runs a few dozen steps; these
// only stop a run that would not end or would take long.
constexpr unsigned MaxSteps = 20000;
constexpr unsigned MaxCallDepth = 8;

enum class Flow { Next, Break, Continue, Return };

inline std::string nameOf(const NamedDecl &D) {
  return D.getDeclName().isIdentifier() ? D.getName().str() : D.getNameAsString();
}

/// An integer parameter whose value is its argument's (by value, or a
/// reference to a non-volatile const integer).
inline bool takesIntegerValue(const ParmVarDecl &P) {
  QualType T = P.getType();
  if (const auto *Ref = T->getAs<ReferenceType>()) {
    QualType Pointee = Ref->getPointeeType();
    if (!Pointee.isConstQualified())
      return false;
    T = Pointee;
  }
  return !T.isVolatileQualified() && T->isIntegralOrEnumerationType();
}

class Runner {
public:
  explicit Runner(ASTContext &Ctx) : Ctx(Ctx) {}
  std::optional<i128> call(const FunctionDecl &Def, llvm::ArrayRef<i128> Arguments);
  std::string why() const { return Why; }

private:
  struct CallFrame {
    llvm::DenseMap<const VarDecl *, std::optional<i128>> vars; // nullopt: not set yet
    std::optional<i128> returned;
  };

  struct IntType {
    bool valid = false, isBool = false, isSigned = false;
    unsigned width = 0;
  };

  ASTContext &Ctx;
  std::vector<CallFrame> Calls;
  unsigned Steps = 0;
  std::string Why;

  // Integers and calls (HostFunctionRunner.cpp).
  std::nullopt_t stop(std::string Reason);
  bool step();
  IntType intType(QualType T) const;
  /// V converted to T as C++20 converts (modulo 2^N); bool: V != 0.
  std::optional<i128> convert(i128 V, QualType T);
  /// The result of an arithmetic operation in T: signed overflow stops.
  std::optional<i128> arithmeticResult(i128 V, QualType T);
  std::optional<i128> fromAPSInt(const llvm::APSInt &V);
  /// A constant the compiler folds (sizeof, a constexpr global, ...).
  std::optional<i128> folded(const Expr *E);
  std::optional<i128> *slotOf(const Expr *LValue);
  std::optional<i128> read(const DeclRefExpr *E);
  std::optional<i128> evalCall(const CallExpr *E);

  // Expressions (HostFunctionRunnerExpressions.cpp).
  std::optional<i128> eval(const Expr *E);
  std::optional<i128> evalCast(const CastExpr *E);
  std::optional<i128> evalUnary(const UnaryOperator *E);
  /// Op on two values already converted to their operands' types; the result
  /// in ResultType, or a stop (division by zero, a shift out of range,
  /// signed overflow).
  std::optional<i128> arith(BinaryOperatorKind Op, i128 A, i128 B, QualType LHSType, QualType ResultType);
  std::optional<i128> evalBinary(const BinaryOperator *E);
  std::optional<i128> evalCompoundAssign(const CompoundAssignOperator *E);

  // Statements (HostFunctionRunnerStatements.cpp).
  std::optional<Flow> exec(const Stmt *S);
  std::optional<Flow> declare(const DeclStmt *S);
  std::optional<bool> condition(const Stmt *Init, const DeclStmt *CondVar, const Expr *Cond);
  std::optional<Flow> execIf(const IfStmt *S);
  std::optional<Flow> execLoop(const Stmt *S);
  /// Whether Child is Label, or a chain of labels ending at Label
  /// (`case 1: case 2: ...`).
  static bool labels(const Stmt *Child, const SwitchCase *Label);
  std::optional<Flow> execSwitch(const SwitchStmt *S);
};

} // namespace clang::tidy::occlint::host_runner_detail
