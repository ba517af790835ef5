// occlint's version, from CMake's OCCLINT_VERSION (the project version, set
// on the sources that print it: tool/CMakeLists.txt); "unknown" in a build
// that did not set it.
#pragma once

#ifndef OCCLINT_VERSION
#define OCCLINT_VERSION "unknown"
#endif
