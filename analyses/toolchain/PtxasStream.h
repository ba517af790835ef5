// ptxas's verbose report inside a compiler's stderr, as the compiler launcher
// sees it stream by: the lines the report flag added are taken out (the build
// log stays what it was without occlint-wrap) and kept, and the kept log is
// split per arch. Format: docs/resource-reports.md. Nothing here throws.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occlint {

/// A line of the report `ptxas -v` adds, which ptxas never prints without it:
/// "ptxas info    : " followed by "N bytes gmem...", "Compiling entry function
/// ...", "Function properties for ...", "Used N registers...", "Compile time =
/// ...", "Overriding maximum register limit ..." or "Overriding global
/// maxrregcount ...", and the stack line under "Function properties for X":
/// "    N bytes stack frame, N bytes spill stores, N bytes spill loads".
/// Not the other info lines: the "(C75xx) Potential Performance Loss: ..."
/// advisories are printed with or without -v (some only with it). `line`
/// without its newline.
bool isPtxasVerboseLine(std::string_view line);

/// A line of ptxas's (verbose or not): the above, "ptxas warning : ...",
/// "ptxas error   : ...", "ptxas fatal   : ...", "ptxas /tmp/x.ptx, line 3; error : ...".
bool isPtxasLine(std::string_view line);

/// Filters a compiler's stderr as it arrives. With `strip`, the verbose lines
/// are removed from what passes; either way every ptxas line is kept in log().
/// Bytes of a line that cannot be a ptxas line are passed on as soon as that
/// is known (a prompt or a progress line without a newline is not held back).
class PtxasStderrFilter {
public:
  explicit PtxasStderrFilter(bool strip) : strip_(strip) {}
  /// The next bytes of stderr; returns what to write on now.
  std::string feed(std::string_view bytes);
  /// End of stderr: what is still held (a last line without a newline).
  std::string finish();
  /// Every ptxas line seen, each with its newline, in order.
  const std::string &log() const { return log_; }

private:
  std::string line(std::string_view text, bool complete);
  bool strip_;
  std::string pending_;  // the start of the current line, held
  bool passing_ = false; // the current line is known not to be ptxas's: passed on as it comes
  std::string log_;
};

/// Splits a ptxas log (lines as printed, any number of ptxas runs) per arch.
/// Each run starts at its "N bytes gmem" line and takes the lines up to the
/// next run, plus the warnings and advisories printed just before it; its arch
/// is the one its "Compiling entry function 'X' for 'sm_XX'" lines name. A run
/// without one (a file without kernels for that arch) is attributed only when
/// `sassArchs` (the archs the command builds) leaves no doubt: as many such
/// runs as archs of sassArchs not seen in the log; each of those archs then
/// gets an empty log. Lines that no run takes are dropped.
std::map<std::string, std::string> splitPtxasLogByArch(std::string_view log,
                                                       const std::optional<std::vector<std::string>> &sassArchs);

} // namespace occlint
