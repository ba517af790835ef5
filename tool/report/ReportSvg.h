// Draws one occupancy staircase (tool/report/ReportStaircase.h) as an inline SVG
// element for the HTML page of `occlint report`: the curve as steps, the
// launch's own point, its next step, the region that needs the shared-memory
// opt-in, axes with labels and a legend.
#pragma once

#include "report/ReportStaircase.h"

#include <string>

namespace occlint {

/// An <svg> element, self-contained (styled by the page's classes and by
/// presentation attributes, so it also reads alone). Elements the page's
/// self-check looks for: svg.staircase[data-axis], .curve, .point-own,
/// .point-next.
std::string staircaseSvg(const Staircase &S);

} // namespace occlint
