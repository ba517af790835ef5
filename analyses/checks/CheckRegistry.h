// Every occlint check, in one list (CheckRegistry.cpp): the module registers
// them from it, and the tool reads it (the default check set, the severities
// of the SARIF and JSON rules, the precedence table's rows).
#pragma once

#include "checks/CheckDeclaration.h"

#include "clang-tidy/ClangTidyModule.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace clang::tidy::occlint {

/// Every check's declaration, in the order of docs/checks/README.md's table.
llvm::ArrayRef<CheckDeclaration> checkDeclarations();
/// The check's declaration, or null.
const CheckDeclaration *findCheckDeclaration(llvm::StringRef Name);
/// The check that wins `Row` of the precedence table (CannotStart, SmallGrid).
llvm::StringRef checkWinningRow(LaunchFindingRow Row);
/// occlint's default --checks: "-*,cuda-*" less every check off by default.
std::string defaultChecksGlob();
/// Registers every check under its declared name.
void registerOcclintChecks(ClangTidyCheckFactories &Factories);

} // namespace clang::tidy::occlint
