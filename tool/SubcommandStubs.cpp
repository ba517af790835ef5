// Temporary until the occupancy and resources commands land.
#include "ExitCodes.h"
#include <iostream>
namespace occlint {
int runResourcesCommand(int, const char **) { std::cerr << "occlint: resources: not built yet\n"; return ExitInternal; }
}
