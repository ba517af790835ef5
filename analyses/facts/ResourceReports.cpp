#include "facts/ResourceReports.h"

namespace clang::tidy::occlint {

static ResourceReportSource *InstalledSource = nullptr;

void setResourceReportSource(ResourceReportSource *Source) { InstalledSource = Source; }
ResourceReportSource *getResourceReportSource() { return InstalledSource; }

} // namespace clang::tidy::occlint
