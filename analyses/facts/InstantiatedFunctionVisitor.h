// The walk every translation-unit collector of facts makes: every function
// body, template instantiations included (their values are the
// instantiation's), template patterns excluded, implicit code excluded, with
// the function being walked at hand. A CRTP base of RecursiveASTVisitor:
// derive as `class C : public InstantiatedFunctionVisitor<C>` and write the
// Visit* methods; `enterFunction` is called once per function walked.
#pragma once

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::tidy::occlint {

template <class Derived> class InstantiatedFunctionVisitor : public RecursiveASTVisitor<Derived> {
  using Base = RecursiveASTVisitor<Derived>;

public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    if (FD->isDependentContext())
      return true; // a template pattern: its instantiations are walked instead
    static_cast<Derived *>(this)->enterFunction(*FD);
    const FunctionDecl *Saved = Current;
    Current = FD;
    const bool Result = Base::TraverseDecl(D);
    Current = Saved;
    return Result;
  }

  /// Called before a function's declaration and body are walked.
  void enterFunction(const FunctionDecl &) {}

protected:
  /// The innermost function being walked (a lambda's call operator inside
  /// its enclosing function), or null at namespace scope.
  const FunctionDecl *currentFunction() const { return Current; }

private:
  const FunctionDecl *Current = nullptr;
};

} // namespace clang::tidy::occlint
