// `occlint report --weights FILE`: each kernel's share of the runtime, from
// a profiler's export, so that "Where to start" ranks a finding by its loss
// times its kernel's share (docs/report.md, "Weights").
//
// The file is CSV with a header row, as `nsys stats --report
// cuda_gpu_kern_sum --format csv` and `ncu --csv` write it, or a two-column
// table of our own (kernel,time): the kernel is the column named "Name",
// "Kernel Name" or "kernel"; the time the column "Total Time (ns)", "Time",
// "time", "Duration" or "gpu__time_duration.sum". Rows of one kernel add up.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace occlint {

class KernelWeights {
public:
  /// Reads FILE; "" or the problem, naming the file and the line.
  std::string read(const std::string &Path);

  /// The kernel's share of the total time, in [0, 1]; nullopt when it is not
  /// in the file. `Kernel` as the report names it ("reduce<256>"); the
  /// file's names may carry a return type and parameters ("void
  /// reduce<256>(float const*, ...)"), which are dropped; a name without
  /// its template arguments ("reduce") matches when it is the only kernel
  /// of that base name; "reduce<512>" never matches "reduce<256>".
  std::optional<double> shareOf(const std::string &Kernel) const;

  bool empty() const { return Times.empty(); }
  const std::string &file() const { return Path; }

private:
  std::string Path;
  std::map<std::string, double> Times; // normalised name -> time
  double Total = 0;
};

} // namespace occlint
