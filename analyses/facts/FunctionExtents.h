// Where the function definitions of a translation unit are in the text, for a
// parse that had errors: occlint drops the findings that lie in a function
// Clang could not parse (its error recovery gives wrong values, not only
// missing ones) when nvcc compiled the file (docs/nvcc-parity.md).
//
// The occlint binary installs a FunctionExtentSink in the thread that runs a
// parse; TranslationUnitFacts hands it the extents when the parse had errors.
// Inside clang-tidy --load nothing is installed and nothing is collected.
#pragma once

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace clang::tidy::occlint {

/// One function definition (or lambda): the file as clang-tidy names it in its
/// diagnostics (SourceManager::getFilename), and the byte offsets of its first
/// and last token (both included).
struct FunctionExtent {
  std::string file;
  unsigned begin = 0, end = 0;
};

class FunctionExtentSink {
public:
  virtual ~FunctionExtentSink() = default;
  /// Called at most once per parse, in the thread that runs it.
  virtual void record(std::vector<FunctionExtent> Extents) = 0;
};

/// Every function definition and lambda written in the translation unit
/// (template patterns, not their instantiations: they share the text).
std::vector<FunctionExtent> functionExtents(ASTContext &Ctx);

} // namespace clang::tidy::occlint
