// Placeholder so the core test binary exists before the first real test lands.
#include <gtest/gtest.h>
#include "GpuDatabase.h"
TEST(Smoke, HeaderCompiles) { SUCCEED(); }
