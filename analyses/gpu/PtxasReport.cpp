// Parser for ptxas / nvlink / cuobjdump resource reports. The formats and the
// attribution rules are described in docs/resource-reports.md; the committed
// logs in test-inputs/ptxas/ are real output of nvcc 13, clang 22 and ptxas.
#include "gpu/PtxasReport.h"

#include "gpu/PtxasLogLines.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <memory>

namespace occlint {

bool archMatches(std::string_view have, std::string_view want) {
  if (have == want)
    return true;
  if (want.empty() || !std::isdigit(static_cast<unsigned char>(want.back())))
    return false;
  return have.size() == want.size() + 1 && have.substr(0, want.size()) == want &&
         std::islower(static_cast<unsigned char>(have.back()));
}

std::vector<const FunctionResources *> PtxasReport::findAll(std::string_view mangled, std::string_view arch) const {
  std::vector<const FunctionResources *> exact, variant;
  for (const auto &f : functions) {
    if (f.mangledName != mangled)
      continue;
    if (f.arch == arch)
      exact.push_back(&f);
    else if (archMatches(f.arch, arch))
      variant.push_back(&f);
  }
  exact.insert(exact.end(), variant.begin(), variant.end());
  return exact;
}

const FunctionResources *PtxasReport::find(std::string_view mangled, std::string_view arch) const {
  auto all = findAll(mangled, arch);
  return all.empty() ? nullptr : all.front();
}

void PtxasReport::merge(const PtxasReport &other) {
  for (const auto &f : other.functions) {
    auto it = std::find_if(functions.begin(), functions.end(), [&](const FunctionResources &g) {
      return g.mangledName == f.mangledName && g.arch == f.arch && g.sourceFile == f.sourceFile;
    });
    if (it != functions.end())
      *it = f;
    else
      functions.push_back(f);
  }
  warnings.insert(warnings.end(), other.warnings.begin(), other.warnings.end());
}

std::string demangleForDisplay(const std::string &mangled) {
  if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z')
    return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> out(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status),
                                              std::free);
  if (status != 0 || !out)
    return mangled;
  return std::string(out.get());
}

namespace {

using namespace ptxaslines;

class Parser {
public:
  PtxasReport report;

  void line(std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r')
      raw.remove_suffix(1);
    std::string_view l = trim(raw);
    if (l.empty())
      return;

    if (auto rest = afterTag(l, "ptxas", "info"))
      return ptxasInfo(*rest);
    if (auto rest = afterTag(l, "ptxas", "warning"))
      return warning(*rest);
    if (auto rest = afterTag(l, "nvlink", "info"))
      return nvlinkInfo(*rest);
    if (auto rest = afterTag(l, "nvlink", "warning"))
      return warning(*rest);
    if (stackLine(l))
      return;
    if (cuobjdumpLine(l))
      return;
    std::string src = sourceNamedBy(l);
    if (!src.empty())
      sourcesSinceBlock_.push_back(std::move(src));
  }

  void finish() {
    dropUnresolved();
    for (size_t i = report.functions.size(); i-- > 0;)
      if (report.functions[i].isEntry && !report.functions[i].registersReported)
        erase(i);
    for (auto &w : pendingWarnings_)
      report.warnings.push_back(std::move(w.text));
    pendingWarnings_.clear();
  }

private:
  struct PendingWarning {
    std::string function, text;
  };

  std::string arch_; // arch of the current ptxas run ("block")
  int block_ = 0;    // increments at every new ptxas run
  bool blockHasArch_ = false;
  std::string sourceFile_;
  std::vector<std::string> sourcesSinceBlock_;
  std::vector<int> recordBlock_; // parallel to report.functions
  long current_ = -1;            // record the next "Used ..." line belongs to
  long props_ = -1;              // record the next stack-frame line belongs to
  std::vector<PendingWarning> pendingWarnings_;
  std::string cuobjArch_, cuobjFunction_;

  void newBlock() {
    dropUnresolved();
    ++block_;
    arch_.clear();
    blockHasArch_ = false;
    current_ = props_ = -1;
    if (sourcesSinceBlock_.size() == 1)
      sourceFile_ = sourcesSinceBlock_.front();
    else if (sourcesSinceBlock_.size() > 1)
      sourceFile_.clear(); // several compiles in flight
    sourcesSinceBlock_.clear();
  }

  /// Device functions reported before any arch of their run was known.
  void dropUnresolved() {
    for (size_t i = report.functions.size(); i-- > 0;) {
      if (report.functions[i].arch.empty())
        erase(i);
    }
  }

  void erase(size_t i) {
    report.functions.erase(report.functions.begin() + static_cast<long>(i));
    recordBlock_.erase(recordBlock_.begin() + static_cast<long>(i));
    auto fix = [i](long &r) {
      if (r == static_cast<long>(i))
        r = -1;
      else if (r > static_cast<long>(i))
        --r;
    };
    fix(current_);
    fix(props_);
  }

  /// Makes the record for (name, arch, this source) of the current run,
  /// replacing one a previous run produced for the same key.
  long record(const std::string &name, const std::string &arch, bool entry, const std::string &source) {
    for (size_t i = 0; i < report.functions.size(); ++i) {
      auto &f = report.functions[i];
      if (f.mangledName == name && f.arch == arch && f.sourceFile == source) {
        if (recordBlock_[i] == block_ && !arch.empty()) {
          f.isEntry = f.isEntry || entry;
          return static_cast<long>(i);
        }
        if (!arch.empty()) { // same key from an earlier run: the last one wins
          f = FunctionResources{};
          fill(f, name, arch, entry, source);
          recordBlock_[i] = block_;
          attachPending(f);
          return static_cast<long>(i);
        }
      }
    }
    FunctionResources f;
    fill(f, name, arch, entry, source);
    attachPending(f);
    report.functions.push_back(std::move(f));
    recordBlock_.push_back(block_);
    return static_cast<long>(report.functions.size() - 1);
  }

  static void fill(FunctionResources &f, const std::string &name, const std::string &arch, bool entry,
                   const std::string &source) {
    f.mangledName = name;
    f.displayName = demangleForDisplay(name);
    f.arch = arch;
    f.isEntry = entry;
    f.sourceFile = source;
  }

  void attachPending(FunctionResources &f) {
    for (auto it = pendingWarnings_.begin(); it != pendingWarnings_.end();) {
      if (it->function == f.mangledName) {
        f.warnings.push_back(std::move(it->text));
        it = pendingWarnings_.erase(it);
      } else {
        ++it;
      }
    }
  }

  void setArch(const std::string &arch) {
    if (blockHasArch_ && arch != arch_)
      newBlock();
    arch_ = arch;
    blockHasArch_ = true;
    // Device functions seen earlier in this run learn their arch now.
    for (size_t i = report.functions.size(); i-- > 0;) {
      if (recordBlock_[i] != block_ || !report.functions[i].arch.empty())
        continue;
      FunctionResources f = std::move(report.functions[i]);
      erase(i);
      long r = record(f.mangledName, arch, f.isEntry, f.sourceFile);
      auto &g = report.functions[static_cast<size_t>(r)];
      auto warnings = std::move(g.warnings);
      g = std::move(f);
      g.arch = arch;
      g.warnings.insert(g.warnings.begin(), warnings.begin(), warnings.end());
    }
  }

  void ptxasInfo(std::string_view s) {
    if (s.starts_with("Compiling entry function")) {
      // Compiling entry function '_Z4fillPf' for 'sm_90'
      size_t q1 = s.find('\'');
      size_t forPos = s.rfind("' for '");
      if (q1 == std::string_view::npos || forPos == std::string_view::npos || forPos <= q1)
        return;
      std::string name(s.substr(q1 + 1, forPos - q1 - 1));
      std::string_view a = s.substr(forPos + 7);
      size_t q2 = a.find('\'');
      if (q2 == std::string_view::npos)
        return;
      std::string arch(a.substr(0, q2));
      if (name.empty() || !plausibleArch(arch))
        return;
      if (!blockHasArch_ && !sourcesSinceBlock_.empty())
        newBlock();
      setArch(arch);
      current_ = props_ = record(name, arch, true, sourceFile_);
      return;
    }
    if (s.starts_with("Function properties for")) {
      std::string name(trim(s.substr(23)));
      if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'')
        name = name.substr(1, name.size() - 2);
      if (name.empty())
        return;
      if (current_ >= 0 && report.functions[static_cast<size_t>(current_)].mangledName == name) {
        props_ = current_;
        return;
      }
      // A function with no "Compiling entry function" line: a device function.
      props_ = current_ = record(name, blockHasArch_ ? arch_ : std::string(), false, sourceFile_);
      return;
    }
    if (s.starts_with("Used ") || s.starts_with("used ")) {
      if (current_ >= 0)
        usedLine(s, report.functions[static_cast<size_t>(current_)]);
      return;
    }
    if (s.find("bytes gmem") != std::string_view::npos) {
      newBlock(); // every ptxas run starts with its global-memory line
      return;
    }
    // "Compile time = ...", "Function properties for ... :" variants, etc.: ignored.
  }

  static void usedLine(std::string_view s, FunctionResources &f) {
    size_t start = 0;
    while (start <= s.size()) {
      size_t comma = s.find(',', start);
      std::string_view part = trim(s.substr(start, comma == std::string_view::npos ? s.npos : comma - start));
      start = comma == std::string_view::npos ? s.size() + 1 : comma + 1;
      if (part.starts_with("Used ") || part.starts_with("used "))
        part = trim(part.substr(5));
      size_t sp = part.find(' ');
      if (sp == std::string_view::npos)
        continue;
      auto n = parseNumber(part.substr(0, sp));
      if (!n)
        continue;
      std::string_view what = trim(part.substr(sp + 1));
      if (what == "registers" || what == "register") {
        f.registers = clampInt(*n);
        f.registersReported = true;
      } else if (what == "barriers" || what == "barrier")
        f.barriers = clampInt(*n);
      else if (what == "bytes smem")
        f.sharedMem = *n;
      else if (what == "bytes cumulative stack size")
        f.cumulativeStack = *n;
      else if (what == "stack") {
        f.stackFrame = *n;
        f.cumulativeStack = *n;
      } // nvlink
      else if (what.starts_with("bytes cmem[")) {
        std::string_view bank = what.substr(11);
        size_t close = bank.find(']');
        if (close == std::string_view::npos)
          continue;
        if (auto b = parseNumber(bank.substr(0, close)); b && *b < 1024)
          f.constantBanks[static_cast<int>(*b)] = *n;
      }
      // "bytes lmem", "bytes gmem", anything else: not recorded.
    }
  }

  bool stackLine(std::string_view l) {
    // "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
    size_t p = l.find(" bytes stack frame,");
    if (p == std::string_view::npos)
      return false;
    size_t numStart = p;
    while (numStart > 0 && std::isdigit(static_cast<unsigned char>(l[numStart - 1])))
      --numStart;
    auto frame = parseNumber(l.substr(numStart, p - numStart));
    std::string_view rest = l.substr(p + 19);
    auto field = [&](std::string_view key) -> std::optional<int64_t> {
      size_t k = rest.find(key);
      if (k == std::string_view::npos)
        return std::nullopt;
      size_t b = k;
      while (b > 0 && rest[b - 1] == ' ')
        --b;
      size_t e = b;
      while (b > 0 && std::isdigit(static_cast<unsigned char>(rest[b - 1])))
        --b;
      return parseNumber(rest.substr(b, e - b));
    };
    auto stores = field("bytes spill stores");
    auto loads = field("bytes spill loads");
    if (props_ < 0 || !frame)
      return true;
    auto &f = report.functions[static_cast<size_t>(props_)];
    f.stackFrame = *frame;
    if (stores)
      f.spillStores = *stores;
    if (loads)
      f.spillLoads = *loads;
    return true;
  }

  void warning(std::string_view text) {
    std::string t(text);
    std::string fn = functionInWarning(text);
    if (fn.empty()) {
      report.warnings.push_back(std::move(t));
      return;
    }
    // Already reported in this run? Then it is that record's warning.
    for (size_t i = 0; i < report.functions.size(); ++i) {
      if (recordBlock_[i] == block_ && report.functions[i].mangledName == fn && !report.functions[i].arch.empty()) {
        report.functions[i].warnings.push_back(std::move(t));
        return;
      }
    }
    pendingWarnings_.push_back({std::move(fn), std::move(t)});
  }

  void nvlinkInfo(std::string_view s) {
    std::string_view body = s;
    std::string arch(stripTarget(body));
    if (body.starts_with("Function properties for")) {
      std::string_view name = trim(body.substr(23));
      if (!name.empty() && name.back() == ':')
        name.remove_suffix(1);
      name = trim(name);
      if (name.size() >= 2 && name.front() == '\'' && name.back() == '\'')
        name = name.substr(1, name.size() - 2);
      if (arch.empty() || !plausibleArch(arch) || name.empty()) {
        current_ = props_ = -1; // no arch: cannot be attributed
        return;
      }
      if (!blockHasArch_ || arch != arch_) {
        newBlock();
        arch_ = arch;
        blockHasArch_ = true;
      }
      // nvlink reports kernels (entry functions) of the linked image.
      current_ = record(std::string(name), arch, true, std::string());
      props_ = -1;
      return;
    }
    if (body.starts_with("used ") || body.starts_with("Used ")) {
      if (current_ >= 0 && report.functions[static_cast<size_t>(current_)].arch == arch)
        usedLine(body, report.functions[static_cast<size_t>(current_)]);
      return;
    }
    if (body.find("bytes gmem") != std::string_view::npos) {
      newBlock();
      return;
    }
  }

  // cuobjdump -res-usage:
  //   arch = sm_52
  //   Resource usage:
  //    Function _Z1kPfS_:
  //     REG:17 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:336 TEXTURE:0 SURFACE:0 SAMPLER:0
  bool cuobjdumpLine(std::string_view l) {
    if (l.starts_with("arch = ")) {
      std::string a(trim(l.substr(7)));
      cuobjArch_ = plausibleArch(a) ? a : std::string();
      cuobjFunction_.clear();
      return true;
    }
    if (l.starts_with("Fatbin ") || l == "Resource usage:" || l == "Common:") {
      cuobjFunction_.clear();
      return true;
    }
    if (l.starts_with("Function ") && endsWith(l, ":")) {
      cuobjFunction_ = std::string(trim(l.substr(9, l.size() - 10)));
      return true;
    }
    if (!l.starts_with("REG:"))
      return false;
    if (cuobjFunction_.empty() || cuobjArch_.empty())
      return true;
    if (!blockHasArch_ || arch_ != cuobjArch_) {
      newBlock();
      arch_ = cuobjArch_;
      blockHasArch_ = true;
    }
    long r = record(cuobjFunction_, cuobjArch_, false, std::string());
    auto &f = report.functions[static_cast<size_t>(r)];
    size_t start = 0;
    while (start < l.size()) {
      size_t sp = l.find(' ', start);
      std::string_view tok = l.substr(start, sp == std::string_view::npos ? l.npos : sp - start);
      start = sp == std::string_view::npos ? l.size() : sp + 1;
      size_t colon = tok.rfind(':');
      if (colon == std::string_view::npos)
        continue;
      auto n = parseNumber(tok.substr(colon + 1));
      if (!n)
        continue;
      std::string_view key = tok.substr(0, colon);
      if (key == "REG") {
        f.registers = clampInt(*n);
        f.registersReported = true;
      } else if (key == "STACK")
        f.stackFrame = *n;
      else if (key == "SHARED")
        f.sharedMem = *n;
      else if (key.starts_with("CONSTANT[") && endsWith(key, "]")) {
        if (auto b = parseNumber(key.substr(9, key.size() - 10)); b && *b < 1024)
          f.constantBanks[static_cast<int>(*b)] = *n;
      }
    }
    cuobjFunction_.clear();
    return true;
  }
};

} // namespace

PtxasReport parsePtxasLog(std::string_view text) {
  Parser p;
  try {
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      if (nl == std::string_view::npos)
        nl = text.size();
      p.line(text.substr(start, nl - start));
      start = nl + 1;
    }
    p.finish();
  } catch (...) {
    // Out of memory or a bug: return what was gathered rather than throw.
  }
  return std::move(p.report);
}

} // namespace occlint
