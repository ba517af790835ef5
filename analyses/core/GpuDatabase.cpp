#include "GpuDatabase.h"
