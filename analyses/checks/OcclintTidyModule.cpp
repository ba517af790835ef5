// The occlint clang-tidy module: one line per check. The same object files go
// into the standalone `occlint` binary and into libOcclintTidyModule.so, which
// clang-tidy-22 loads with --load.
#include "checks/BlockCapCheck.h"
#include "checks/BlockNotWarpMultipleCheck.h"
#include "checks/DivergenceBarrierCheck.h"
#include "checks/DivergenceBranchCheck.h"
#include "checks/DivergenceWarpSyncMaskCheck.h"
#include "checks/InvalidConfigCheck.h"
#include "checks/OccupancyReportCheck.h"
#include "checks/PipelineBufferReuseCheck.h"
#include "checks/PipelineDepthCheck.h"
#include "checks/PipelineEarlyReadCheck.h"
#include "checks/RegisterCliffCheck.h"
#include "checks/SpillsCheck.h"
#include "checks/TailWaveCheck.h"
#include "checks/TinyGridCheck.h"

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::occlint {

class OcclintTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<BlockNotWarpMultipleCheck>("cuda-launch-block-not-warp-multiple");
    Factories.registerCheck<DivergenceBarrierCheck>("cuda-divergence-barrier");
    Factories.registerCheck<DivergenceBranchCheck>("cuda-divergence-branch");
    Factories.registerCheck<DivergenceDataBranchCheck>("cuda-divergence-data-branch");
    Factories.registerCheck<DivergenceWarpSyncMaskCheck>("cuda-divergence-warp-sync-mask");
    Factories.registerCheck<InvalidConfigCheck>("cuda-launch-invalid-config");
    Factories.registerCheck<TailWaveCheck>("cuda-launch-tail-wave");
    Factories.registerCheck<TinyGridCheck>("cuda-launch-tiny-grid");
    Factories.registerCheck<BlockCapCheck>("cuda-occupancy-block-cap");
    Factories.registerCheck<RegisterCliffCheck>("cuda-occupancy-register-cliff");
    Factories.registerCheck<OccupancyReportCheck>("cuda-occupancy-report");
    Factories.registerCheck<SpillsCheck>("cuda-occupancy-spills");
    Factories.registerCheck<PipelineBufferReuseCheck>("cuda-pipeline-buffer-reuse");
    Factories.registerCheck<PipelineDepthCheck>("cuda-occupancy-pipeline-depth");
    Factories.registerCheck<PipelineEarlyReadCheck>("cuda-pipeline-early-read");
  }
};

// Registration with clang-tidy's module registry (a static object: the
// plugin's constructor runs it when clang-tidy loads the library).
static ClangTidyModuleRegistry::Add<OcclintTidyModule>
    X("occlint-module", "Occupancy and launch-configuration checks for CUDA.");

} // namespace clang::tidy::occlint

// A static link drops object files nobody references; the occlint binary
// references this symbol so the registration above is kept.
namespace clang::tidy {
volatile int OcclintModuleAnchorSource = 0;
} // namespace clang::tidy
