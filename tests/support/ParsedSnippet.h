// A C++ snippet parsed with Clang for the facts' unit tests (host code, no
// CUDA): the AST, whether it parsed without an error, and a function's
// definition by name.
#pragma once

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <memory>
#include <string>

namespace occlint::testing {

class ParsedSnippet {
public:
  explicit ParsedSnippet(const std::string &Code)
      : AST(clang::tooling::buildASTFromCodeWithArgs(Code, {"-std=c++20", "-Wno-everything"}, "input.cc")) {}

  bool parsed() const { return AST && !AST->getDiagnostics().hasErrorOccurred(); }
  clang::ASTContext &context() { return AST->getASTContext(); }

  /// The definition of the function named `Name`; null when there is none.
  const clang::FunctionDecl *definition(const std::string &Name) {
    using namespace clang::ast_matchers;
    auto Found = match(functionDecl(hasName(Name), isDefinition()).bind("f"), context());
    return Found.empty() ? nullptr : Found.front().getNodeAs<clang::FunctionDecl>("f");
  }

private:
  std::unique_ptr<clang::ASTUnit> AST;
};

} // namespace occlint::testing
