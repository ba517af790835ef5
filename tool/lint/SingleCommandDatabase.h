// A compile database of one command: what one parse of one file runs with
// (lint/LintRun.cpp gives ClangTool one arch's command at a time, so it never
// sees several commands for one file and prints "[1/1] (1/2) Processing
// file ..." even under --quiet), or the build step that `occlint wrap
// --lint` lints (buildlint/WrapLint.cpp).
#pragma once

#include "clang/Tooling/CompilationDatabase.h"

#include <string>
#include <vector>

namespace occlint {

class SingleCommandDatabase final : public clang::tooling::CompilationDatabase {
public:
  explicit SingleCommandDatabase(clang::tooling::CompileCommand Command) : Command(std::move(Command)) {}
  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef) const override { return {Command}; }
  std::vector<std::string> getAllFiles() const override { return {Command.Filename}; }
  std::vector<clang::tooling::CompileCommand> getAllCompileCommands() const override { return {Command}; }

private:
  clang::tooling::CompileCommand Command;
};

} // namespace occlint
