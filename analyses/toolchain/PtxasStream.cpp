#include "toolchain/PtxasStream.h"

#include <algorithm>
#include <cctype>

namespace occlint {

namespace {

std::string_view withoutCr(std::string_view line) {
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  return line;
}

/// Reads "<digits><word>" at `at`, moving past it.
bool number(std::string_view s, size_t &at) {
  size_t start = at;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])))
    ++at;
  return at > start;
}

bool literal(std::string_view s, size_t &at, std::string_view text) {
  if (s.substr(at, text.size()) != text)
    return false;
  at += text.size();
  return true;
}

/// "    N bytes stack frame, N bytes spill stores, N bytes spill loads", nothing else.
bool isStackLine(std::string_view line) {
  size_t at = 0;
  return literal(line, at, "    ") && number(line, at) && literal(line, at, " bytes stack frame, ") &&
         number(line, at) && literal(line, at, " bytes spill stores, ") && number(line, at) &&
         literal(line, at, " bytes spill loads") && at == line.size();
}

constexpr std::string_view kInfo = "ptxas info    : ";

/// Could `start` (the first bytes of a line) still become a ptxas line?
bool mayBePtxasLine(std::string_view start) {
  for (std::string_view p : {std::string_view("ptxas "), std::string_view("    ")}) {
    size_t n = std::min(start.size(), p.size());
    if (start.substr(0, n) == p.substr(0, n))
      return true;
  }
  return false;
}

bool isGmemLine(std::string_view line) {
  if (!line.starts_with(kInfo))
    return false;
  size_t at = kInfo.size();
  return number(line, at) && literal(line, at, " bytes gmem");
}

/// The arch of "ptxas info    : Compiling entry function 'X' for 'sm_90'", or "".
std::string compilingArch(std::string_view line) {
  constexpr std::string_view head = "ptxas info    : Compiling entry function '";
  if (!line.starts_with(head) || line.size() < 2 || line.back() != '\'')
    return {};
  size_t open = line.rfind("' for '");
  if (open == std::string_view::npos || open < head.size())
    return {};
  return std::string(line.substr(open + 7, line.size() - open - 8));
}

/// A line of a run's own records (as opposed to a warning or advisory, which
/// ptxas prints before the run it belongs to).
bool isRecordLine(std::string_view line) {
  if (isStackLine(line))
    return true;
  if (!line.starts_with(kInfo))
    return false;
  std::string_view rest = line.substr(kInfo.size());
  return rest.starts_with("Compiling entry function ") || rest.starts_with("Function properties for ") ||
         rest.starts_with("Used ") || rest.starts_with("Compile time = ");
}

/// The lines ptxas prints only with -v (the format strings of ptxas 13.0).
bool isVerboseOnly(std::string_view line) {
  if (isRecordLine(line) || isGmemLine(line))
    return true;
  if (!line.starts_with(kInfo))
    return false;
  std::string_view rest = line.substr(kInfo.size());
  return rest.starts_with("Overriding maximum register limit ") || rest.starts_with("Overriding global maxrregcount ");
}

} // namespace

bool isPtxasVerboseLine(std::string_view line) { return isVerboseOnly(withoutCr(line)); }

bool isPtxasLine(std::string_view line) {
  line = withoutCr(line);
  return line.starts_with("ptxas ") || isStackLine(line);
}

std::string PtxasStderrFilter::line(std::string_view text, bool complete) {
  std::string_view content = text;
  if (complete)
    content.remove_suffix(1); // the newline
  if (isPtxasLine(content)) {
    log_.append(content);
    log_ += '\n';
    if (strip_ && isPtxasVerboseLine(content))
      return {};
  }
  return std::string(text);
}

std::string PtxasStderrFilter::feed(std::string_view bytes) {
  std::string out;
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    std::string_view part = bytes.substr(0, nl == std::string_view::npos ? bytes.size() : nl + 1);
    bytes.remove_prefix(part.size());
    if (passing_) {
      out.append(part);
      if (part.back() == '\n')
        passing_ = false;
      continue;
    }
    pending_.append(part);
    if (pending_.back() == '\n') {
      out += line(pending_, true);
      pending_.clear();
    } else if (!mayBePtxasLine(pending_)) {
      out += pending_;
      pending_.clear();
      passing_ = true;
    }
  }
  return out;
}

std::string PtxasStderrFilter::finish() {
  std::string out;
  if (!pending_.empty())
    out = line(pending_, false);
  pending_.clear();
  passing_ = false;
  return out;
}

std::map<std::string, std::string> splitPtxasLogByArch(std::string_view log,
                                                       const std::optional<std::vector<std::string>> &sassArchs) {
  struct Run {
    std::string text, arch;
  };
  std::vector<Run> runs;
  std::string pending; // warnings and advisories: they precede the run they belong to
  while (!log.empty()) {
    size_t nl = log.find('\n');
    std::string_view raw = log.substr(0, nl == std::string_view::npos ? log.size() : nl + 1);
    log.remove_prefix(raw.size());
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\n')
      line.remove_suffix(1);
    line = withoutCr(line);
    std::string text = std::string(line) + "\n";
    if (isGmemLine(line)) {
      runs.push_back({pending + text, {}});
      pending.clear();
      continue;
    }
    if (!isRecordLine(line)) {
      if (isPtxasLine(line))
        pending += text;
      continue;
    }
    std::string arch = compilingArch(line);
    if (runs.empty() || (!arch.empty() && !runs.back().arch.empty() && arch != runs.back().arch))
      runs.push_back({});
    Run &run = runs.back();
    run.text += pending + text;
    pending.clear();
    if (!arch.empty())
      run.arch = arch;
  }
  if (!pending.empty() && !runs.empty())
    runs.back().text += pending;

  std::map<std::string, std::string> byArch;
  size_t withoutArch = 0;
  for (const Run &run : runs) {
    if (run.arch.empty())
      ++withoutArch;
    else
      byArch[run.arch] += run.text;
  }
  if (sassArchs && withoutArch > 0) {
    std::vector<std::string> missing;
    for (const std::string &a : *sassArchs)
      if (!byArch.count(a) && std::find(missing.begin(), missing.end(), a) == missing.end())
        missing.push_back(a);
    if (missing.size() == withoutArch)
      for (const std::string &a : missing)
        byArch[a] = "";
  }
  return byArch;
}

} // namespace occlint
