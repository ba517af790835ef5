// The depth staircase of an async-copy ring as JSON (docs/output-formats.md,
// `pipelineDepths`): one object per depth, with the overlap estimate where it
// was made. Written once for `occlint --format=json` and `occlint occupancy
// --stages ... --format=json`.
#pragma once

#include "gpu/PipelineStaircase.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace occlint {

nlohmann::ordered_json pipelineDepthsJson(const std::vector<PipelineDepthPoint> &Points);

} // namespace occlint
