// No test touches the user's home: before main, every test executable points
// occlint's cache and the user config directory at the build tree's
// test-home/ (OCCLINT_TEST_HOME), and so does every occlint process a test
// starts (they inherit the environment). A test that needs its own sets them
// again; the user's ~/.cache/occlint and ~/.config/occlint are never read or
// written.
#include <cstdlib>

namespace {

struct TestHome {
  TestHome() {
    ::setenv("OCCLINT_CACHE_DIR", OCCLINT_TEST_HOME "/cache", 1);
    ::setenv("XDG_CACHE_HOME", OCCLINT_TEST_HOME "/cache", 1);
    ::setenv("XDG_CONFIG_HOME", OCCLINT_TEST_HOME "/config", 1);
  }
} Installed;

} // namespace
