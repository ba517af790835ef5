#include "ast/SharedMemoryVariables.h"

#include "clang/AST/Attr.h"

namespace clang::tidy::occlint {

bool isSharedMemoryVariable(const VarDecl &D) {
  if (D.hasAttr<CUDASharedAttr>())
    return true;
  for (const auto *Annotation : D.specific_attrs<AnnotateAttr>())
    if (Annotation->getAnnotation() == RewrittenSharedAnnotation)
      return true;
  return false;
}

} // namespace clang::tidy::occlint
