// Resource reports from ptxas's verbose output (nvcc -Xptxas -v / --resource-usage,
// ptxas -v, clang -Xcuda-ptxas -v): registers, barriers, shared memory, stack,
// spills per function and per arch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

struct FunctionResources {
  std::string mangledName; // "_Z4fillPf"
  std::string displayName; // demangled where possible: "fill(float*)"
  std::string arch;        // "sm_90"
  std::string sourceFile;  // the file ptxas named, when it did
  bool isEntry = false;    // a kernel (entry function) rather than a device function
  int registers = 0;
  /// The "Used N registers" line was there. A kernel without one (a log cut
  /// short after "Compiling entry function") is left out of the report: its
  /// registers are unknown, not 0.
  bool registersReported = false;
  int barriers = 0;
  int64_t sharedMem = 0;   // static shared memory, bytes
  int64_t stackFrame = 0;  // bytes
  int64_t spillStores = 0; // bytes
  int64_t spillLoads = 0;  // bytes
  std::optional<int64_t> cumulativeStack;
  std::map<int, int64_t> constantBanks; // cmem[bank] -> bytes
  std::vector<std::string> warnings;    // ptxas warnings attributed to this function
};

struct PtxasReport {
  std::vector<FunctionResources> functions;
  std::vector<std::string> warnings; // ptxas warnings that name no function
  /// Finds a function by mangled name and arch ("sm_90").
  /// Arch rule (see archMatches): an exact arch match wins; a plain arch
  /// ("sm_90") also finds the arch-specific/family variants ("sm_90a",
  /// "sm_100f"), while a suffixed arch ("sm_90a") only finds itself. When
  /// several entries match (same function from several source files), the
  /// first one in report order is returned; see findAll.
  const FunctionResources *find(std::string_view mangled, std::string_view arch) const;
  /// Every entry for the function on that arch (same matching rule as find).
  std::vector<const FunctionResources *> findAll(std::string_view mangled, std::string_view arch) const;
  /// Adds other's functions: an entry with the same (mangledName, arch,
  /// sourceFile) as one already here replaces it; others are appended.
  /// Unattributed warnings are appended.
  void merge(const PtxasReport &other);
};

/// True when a report entry for arch `have` answers a query for arch `want`:
/// have == want, or want is a plain "sm_NN" and have is "sm_NN" plus one
/// lower-case variant letter ("sm_90a", "sm_100f").
bool archMatches(std::string_view have, std::string_view want);

/// Parses whatever text a build printed; keeps what can be attributed to a
/// function and arch, ignores the rest. Never throws.
PtxasReport parsePtxasLog(std::string_view text);

/// Demangles an Itanium name for display; returns the input when it cannot.
std::string demangleForDisplay(const std::string &mangled);

} // namespace occlint
