// Every direct call of every function in a translation unit (template
// instantiations included, patterns excluded), and whether the calls seen are
// all the calls a function can get: a launch helper's parameters take the
// values its callers pass (LaunchVariants.h), and only when no other file can
// call the helper and its address is never taken do those callers make a
// complete set: internal linkage, or external linkage with every declaration
// in the main file and no other translation unit of the program naming it
// (ProgramTranslationUnits.h).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <vector>

namespace clang::tidy::occlint {

struct CallSite {
  const CallExpr *call = nullptr;
  const FunctionDecl *caller = nullptr; // the function the call is written in
};

class CallSiteIndex {
public:
  explicit CallSiteIndex(ASTContext &Ctx) : Ctx(Ctx) {}

  /// Filling the index from a walk the caller already makes over the whole
  /// translation unit (TranslationUnitFacts' collector), instead of a walk
  /// of its own: every call and every reference to a function, then seal().
  void noteCall(const CallExpr &Call, const FunctionDecl *Caller);
  void noteFunctionReference(const DeclRefExpr &Ref);
  void noteParameterReference(const DeclRefExpr &Ref);
  void seal();

  /// The direct calls of `Callee` (any declaration of it), in source order.
  const std::vector<CallSite> &callsOf(const FunctionDecl &Callee);
  /// No call of `Callee` can come from elsewhere: it is only ever named as
  /// the callee of a call, and it has internal linkage, or it is a plain
  /// (non-member, non-extern "C") function declared in the main file only
  /// that no other translation unit of the program names. When not, `Why`
  /// (optional) gets the reason, one line.
  bool callersAllVisible(const FunctionDecl &Callee, std::string *Why = nullptr);

  /// Whether argument `Index` of `Call` names `Function` (`f` or `&f`).
  /// A call through a parameter of the function it is written in
  /// (`benchmark(reps, launch_fill, n, 256)` handing the helper to a
  /// template that calls `kernel(args...)`, or a dispatcher handing
  /// `launch_a` in one case and `launch_b` in another to a driver that calls
  /// `launch(...)`) is listed among the calls of every function handed
  /// there; of that function's own calls, only those that pass the callee
  /// at the parameter lead to it. Other files' calls pass functions of
  /// their own.
  static bool passesFunction(const CallExpr &Call, unsigned Index, const FunctionDecl &Function);

private:
  ASTContext &Ctx;
  bool Built = false;
  llvm::DenseMap<const FunctionDecl *, std::vector<CallSite>> Calls;
  llvm::DenseSet<const FunctionDecl *> AddressTaken;
  // While filling: callees named by calls, and every reference to a function
  // (a reference that is not a callee takes the function's address).
  llvm::DenseSet<const DeclRefExpr *> CalleeRefs;
  std::vector<const DeclRefExpr *> FunctionRefs;
  // A function named as an argument of a direct call: the call and the
  // argument's index. Calls through a parameter of function type, and every
  // reference to such a parameter.
  llvm::DenseMap<const DeclRefExpr *, std::pair<const CallExpr *, unsigned>> PassedAsArgument;
  llvm::DenseMap<const ParmVarDecl *, std::vector<CallSite>> ParameterCalls;
  std::vector<const DeclRefExpr *> ParameterRefs;
  void build();
  bool callsThroughParameter(const FunctionDecl &Function, const CallExpr &Call, unsigned Index);
};

} // namespace clang::tidy::occlint
