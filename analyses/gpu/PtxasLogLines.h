// The words of one line of a ptxas, nvlink or cuobjdump log, for the
// report parser (gpu/PtxasReport.cpp; the formats: docs/resource-reports.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace occlint::ptxaslines {

/// `s` without its leading and trailing whitespace.
std::string_view trim(std::string_view s);

/// Whether `s` ends with `p`.
bool endsWith(std::string_view s, std::string_view p);

/// Parses a non-negative decimal; "a+b" (old ptxas "8+0 bytes lmem") sums.
std::optional<int64_t> parseNumber(std::string_view s);

/// `v` as an int, INT32_MAX when above.
int clampInt(int64_t v);

/// The text after "<tool> <kind> :" in "ptxas info    : Used 8 registers".
std::optional<std::string_view> afterTag(std::string_view line, std::string_view tool, std::string_view kind);

/// Removes a trailing "(target: sm_80)" (nvlink), returning the arch in it.
std::string_view stripTarget(std::string_view &s);

/// Whether `a` has the shape of an arch name in a log ("sm_90", "compute_90a").
bool plausibleArch(std::string_view a);

/// Finds the function a ptxas warning names, if any.
std::string functionInWarning(std::string_view text);

/// A .cu file named by a build line: CMake/ninja "Building CUDA object
/// CMakeFiles/t.dir/src/a.cu.o", or an echoed nvcc/clang command.
std::string sourceNamedBy(std::string_view line);

} // namespace occlint::ptxaslines
