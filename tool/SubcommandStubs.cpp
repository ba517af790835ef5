// Temporary until the occupancy and resources commands land.
#include "ExitCodes.h"
#include <iostream>
namespace occlint {
int runOccupancyCommand(int, const char **) { std::cerr << "occlint: occupancy: not built yet\n"; return ExitInternal; }
int runResourcesCommand(int, const char **) { std::cerr << "occlint: resources: not built yet\n"; return ExitInternal; }
}
