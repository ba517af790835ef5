#include "gpu/PipelineStaircaseJson.h"

#include "gpu/Occupancy.h"
#include "gpu/PipelineOverlap.h"

namespace occlint {

nlohmann::ordered_json pipelineDepthsJson(const std::vector<PipelineDepthPoint> &Points) {
  using Json = nlohmann::ordered_json;
  Json Out = Json::array();
  for (const auto &P : Points)
    Out.push_back({{"stages", P.stages},
                   {"sharedMemory", P.sharedBytes},
                   {"fits", P.fits},
                   {"blocksPerSM", P.blocksPerSM},
                   {"occupancy", P.occupancy},
                   {"limitedBy", P.fits ? Json(limiterNames(P.bindingLimiters)) : Json(nullptr)}});
  // The overlap estimate (gpu/PipelineOverlap.h), on depths where it was made.
  for (size_t I = 0; I < Points.size(); ++I)
    if (const std::optional<TileTimes> T = estimateAt(Points[I]); T && Points[I].coversLoad)
      Out[I]["estimate"] = {{"loadNs", T->loadNs},
                            {"computeNs", T->computeNs},
                            {"latencyNs", T->latencyNs},
                            {"bound", T->computeBound() ? "compute" : "load"},
                            {"coversLoad", *Points[I].coversLoad}};
  return Out;
}

} // namespace occlint
