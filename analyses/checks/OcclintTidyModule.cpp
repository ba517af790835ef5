// The occlint clang-tidy module: the checks of CheckRegistry.cpp's list. The same object files go
// into the standalone `occlint` binary and into libOcclintTidyModule.so, which
// clang-tidy-22 loads with --load.
#include "checks/CheckRegistry.h"

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::occlint {

class OcclintTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override { registerOcclintChecks(Factories); }
};

// Registration with clang-tidy's module registry (a static object: the
// plugin's constructor runs it when clang-tidy loads the library).
static ClangTidyModuleRegistry::Add<OcclintTidyModule> X("occlint-module",
                                                         "Occupancy and launch-configuration checks for CUDA.");

} // namespace clang::tidy::occlint

// A static link drops object files nobody references; the occlint binary
// references this symbol so the registration above is kept.
namespace clang::tidy {
volatile int OcclintModuleAnchorSource = 0;
} // namespace clang::tidy
