#include "core/PipelineStaircaseJson.h"

#include "core/Occupancy.h"

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
  // The overlap estimate (core/PipelineOverlap.h), on depths where it was made.
  for (size_t I = 0; I < Points.size(); ++I)
    if (const auto &P = Points[I]; P.loadNs && P.computeNs && P.latencyNs && P.coversLoad)
      Out[I]["estimate"] = {{"loadNs", *P.loadNs},
                            {"computeNs", *P.computeNs},
                            {"latencyNs", *P.latencyNs},
                            {"bound", *P.computeNs >= *P.loadNs ? "compute" : "load"},
                            {"coversLoad", *P.coversLoad}};
  return Out;
}

} // namespace occlint
