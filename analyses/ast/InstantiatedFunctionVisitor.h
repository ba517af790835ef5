// The walk every translation-unit collector of facts makes: every function
// body, template instantiations included (their values are the
// instantiation's), template patterns excluded, implicit code excluded, with
// the function being walked at hand. Derive, override the AstWalker hooks
// (visitStmt, ...) and enterFunction, which is called once per function
// walked.
#pragma once

#include "ast/AstWalker.h"

#include "clang/AST/Decl.h"

#include <vector>

namespace clang::tidy::occlint {

class InstantiatedFunctionVisitor : public AstWalker {
public:
  InstantiatedFunctionVisitor() {
    VisitTemplateInstantiations = true;
    VisitImplicitCode = false;
  }

protected:
  /// Called before a function's declaration and body are walked.
  virtual void enterFunction(const FunctionDecl &) {}

  /// The innermost function being walked (a lambda's call operator inside
  /// its enclosing function), or null at namespace scope.
  const FunctionDecl *currentFunction() const { return Functions.empty() ? nullptr : Functions.back(); }

  bool enterDecl(Decl *D) override {
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD)
      return true;
    if (FD->isDependentContext())
      return false; // a template pattern: its instantiations are walked instead
    enterFunction(*FD);
    Functions.push_back(FD);
    return true;
  }
  void leaveDecl(Decl *D) override {
    if (isa<FunctionDecl>(D))
      Functions.pop_back();
  }

private:
  std::vector<const FunctionDecl *> Functions;
};

} // namespace clang::tidy::occlint
