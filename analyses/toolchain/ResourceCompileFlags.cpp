#include "toolchain/ResourceCompileFlags.h"

#include "toolchain/UnsafeFlags.h"

#include <algorithm>
#include <filesystem>
#include <string_view>

namespace occlint::compileflags {

namespace fs = std::filesystem;

namespace {

/// Does flag `a` match option `name` as "name", "name=value" or (joined) "namevalue"?
enum class Match { No, Alone, WithValue };
Match matchOpt(const std::string &a, std::string_view name, bool joined) {
  if (a == name)
    return Match::Alone;
  if (a.starts_with(name) && a.size() > name.size() && (a[name.size()] == '=' || joined))
    return Match::WithValue;
  return Match::No;
}

/// Options whose value is a path: made absolute against the command's
/// directory, since the compiler runs in occlint's temporary directory.
bool takesPath(std::string_view name) {
  static const std::vector<std::string_view> paths = {"-I",       "--include-path", "-isystem", "--system-include",
                                                      "-include", "--pre-include",  "-iquote",  "-idirafter",
                                                      "-imacros", "--cuda-path"};
  return std::find(paths.begin(), paths.end(), name) != paths.end();
}

/// Appends option `a` (matched as `name`) and, when separate, its value, the
/// path made absolute when the option takes one.
void keep(Filtered &f, const std::string &a, std::string_view name, Match m, const std::vector<std::string> &cmd,
          size_t &i, const std::string &dir) {
  if (m == Match::Alone) {
    f.flags.push_back(a);
    if (i + 1 < cmd.size())
      f.flags.push_back(takesPath(name) ? absolutePath(cmd[++i], dir) : cmd[++i]);
    return;
  }
  if (!takesPath(name)) {
    f.flags.push_back(a);
    return;
  }
  size_t valueAt = name.size() + (a[name.size()] == '=' ? 1 : 0);
  f.flags.push_back(a.substr(0, valueAt) + absolutePath(a.substr(valueAt), dir));
}

/// -Xcompiler/--compiler-options values that make the host compiler run or
/// load other code (nvcc's filter drops every -Xcompiler; these are named).
bool unsafeHostFlag(std::string_view v) {
  for (std::string_view p : {"-fplugin", "-B", "-wrapper", "-specs", "--specs", "-fpass-plugin"})
    if (v.starts_with(p))
      return true;
  return false;
}

} // namespace

Filtered filterNvcc(const std::vector<std::string> &cmd, const std::string &dir) {
  // Options kept with their value: (name, joined form allowed).
  static const std::vector<std::pair<std::string_view, bool>> keepValue = {{"-I", true},
                                                                           {"--include-path", false},
                                                                           {"-isystem", true},
                                                                           {"--system-include", false},
                                                                           {"-D", true},
                                                                           {"--define-macro", false},
                                                                           {"-U", true},
                                                                           {"--undefine-macro", false},
                                                                           {"-include", false},
                                                                           {"--pre-include", false},
                                                                           {"-std", false},
                                                                           {"--std", false},
                                                                           {"-Xptxas", false},
                                                                           {"--ptxas-options", false},
                                                                           {"-maxrregcount", false},
                                                                           {"--maxrregcount", false},
                                                                           {"-x", false},
                                                                           {"--x", false},
                                                                           {"-rdc", false},
                                                                           {"--relocatable-device-code", false},
                                                                           {"-ftz", false},
                                                                           {"--ftz", false},
                                                                           {"-prec-div", false},
                                                                           {"--prec-div", false},
                                                                           {"-prec-sqrt", false},
                                                                           {"--prec-sqrt", false},
                                                                           {"-fmad", false},
                                                                           {"--fmad", false},
                                                                           {"--optimize", false},
                                                                           {"-default-device", false}};
  static const std::vector<std::string_view> keepAlone = {"-O0",
                                                          "-O1",
                                                          "-O2",
                                                          "-O3",
                                                          "-G",
                                                          "--device-debug",
                                                          "-lineinfo",
                                                          "--generate-line-info",
                                                          "-use_fast_math",
                                                          "--use_fast_math",
                                                          "--expt-relaxed-constexpr",
                                                          "-expt-relaxed-constexpr",
                                                          "--extended-lambda",
                                                          "-extended-lambda",
                                                          "--expt-extended-lambda",
                                                          "-expt-extended-lambda",
                                                          "-Wno-deprecated-gpu-targets",
                                                          "-allow-unsupported-compiler",
                                                          "--allow-unsupported-compiler",
                                                          "-m64",
                                                          "--machine=64",
                                                          "-restrict",
                                                          "--restrict"};
  // Dropped together with their value.
  static const std::vector<std::string_view> dropValue = {"-o",
                                                          "--output-file",
                                                          "-arch",
                                                          "--gpu-architecture",
                                                          "-gencode",
                                                          "--generate-code",
                                                          "-code",
                                                          "--gpu-code",
                                                          "-MF",
                                                          "-MT",
                                                          "-MQ",
                                                          "--dependency-output",
                                                          "--dependency-target-name",
                                                          "-Xcompiler",
                                                          "--compiler-options",
                                                          "-Xcudafe",
                                                          "-Xlinker",
                                                          "--linker-options",
                                                          "-Xnvlink",
                                                          "--nvlink-options",
                                                          "--options-file",
                                                          "-optf",
                                                          "-odir",
                                                          "--output-directory",
                                                          "-l",
                                                          "-L",
                                                          "--library",
                                                          "--library-path",
                                                          "-Xarchive",
                                                          "--archive-options"};
  Filtered f;
  for (size_t i = 1; i < cmd.size(); ++i) {
    const std::string &a = cmd[i];
    if (a.empty() || a[0] != '-')
      continue; // inputs: the source goes last, on its own
    if (a == "-dc" || a == "--device-c") {
      f.flags.push_back("-rdc=true");
      continue;
    }
    bool done = false;
    for (std::string_view name : {"-ccbin", "--compiler-bindir"}) {
      Match m = matchOpt(a, name, false);
      if (m == Match::Alone && i + 1 < cmd.size())
        f.hostCompiler = cmd[++i];
      if (m == Match::WithValue)
        f.hostCompiler = a.substr(name.size() + 1);
      if (m != Match::No) {
        done = true;
        break;
      }
    }
    if (done)
      continue;
    if (a == "--run" || a == "-run" || matchOpt(a, "--run-args", false) != Match::No ||
        matchOpt(a, "-run-args", false) != Match::No) {
      f.unsafe.push_back(a);
      if (matchOpt(a, "--run-args", false) == Match::Alone || matchOpt(a, "-run-args", false) == Match::Alone)
        ++i;
      continue;
    }
    for (auto name : dropValue) {
      Match m = matchOpt(a, name, false);
      if ((name == "-Xcompiler" || name == "--compiler-options") && m != Match::No) {
        std::string v = m == Match::Alone ? (i + 1 < cmd.size() ? cmd[i + 1] : "") : a.substr(name.size() + 1);
        for (size_t b = 0, e; b <= v.size(); b = e + 1) {
          e = v.find(',', b);
          if (e == std::string::npos)
            e = v.size();
          if (unsafeHostFlag(std::string_view(v).substr(b, e - b)))
            f.unsafe.push_back(std::string(name) + " " + v.substr(b, e - b));
        }
      }
      if (m == Match::Alone)
        ++i;
      if (m != Match::No) {
        done = true;
        break;
      }
    }
    if (done)
      continue;
    for (auto &[name, joined] : keepValue) {
      Match m = matchOpt(a, name, joined);
      if (m == Match::No)
        continue;
      keep(f, a, name, m, cmd, i, dir);
      done = true;
      break;
    }
    if (done)
      continue;
    for (auto name : keepAlone)
      if (a == name) {
        f.flags.push_back(a);
        break;
      }
    // Anything else (-c, -M*, warnings, host-only options...) is dropped.
  }
  return f;
}

Filtered filterClang(const std::vector<std::string> &command, const std::string &dir) {
  std::vector<std::string> cmd = command;
  std::vector<std::string> unsafe = dropUnsafeClangFlags(cmd);
  static const std::vector<std::pair<std::string_view, bool>> keepValue = {
      {"-I", true},           {"-isystem", true}, {"-iquote", true},  {"-idirafter", true},
      {"-D", true},           {"-U", true},       {"-include", true}, {"-imacros", true},
      {"--cuda-path", false}, {"-std", false},    {"--std", false}};
  static const std::vector<std::string_view> dropValue = {
      "-o",       "-MF", "-MT", "-MQ",     "-x",       "--cuda-gpu-arch", "--offload-arch", "-Xclang",
      "-Xlinker", "-L",  "-l",  "-target", "--target", "-Xarch_host",     "-Xarch_device"};
  static const std::vector<std::string_view> dropFlagPrefixes = {
      "-fcolor-diagnostics",    "-fdiagnostics", "-fsanitize", "-fprofile", "-fcoverage",
      "-fno-color-diagnostics", "-fdebug",       "-fmodules",  "-fpch",     "-fcrash"};
  Filtered f;
  f.unsafe = std::move(unsafe);
  for (size_t i = 1; i < cmd.size(); ++i) {
    const std::string &a = cmd[i];
    if (a.empty() || a[0] != '-')
      continue;
    if (a == "-Xcuda-ptxas") {
      if (i + 1 < cmd.size())
        f.ptxasExtra.push_back(cmd[++i]);
      continue;
    }
    bool done = false;
    for (auto name : dropValue) {
      Match m = matchOpt(a, name, name == "-o" || name == "-x" || name.starts_with("-M"));
      if (m == Match::Alone)
        ++i;
      if (m != Match::No) {
        done = true;
        break;
      }
    }
    if (done)
      continue;
    for (auto &[name, joined] : keepValue) {
      Match m = matchOpt(a, name, joined);
      if (m == Match::No)
        continue;
      if (name == "--cuda-path")
        f.hasCudaPath = true;
      keep(f, a, name, m, cmd, i, dir);
      done = true;
      break;
    }
    if (done)
      continue;
    if (a.starts_with("-O") || a == "-m64" || a == "-nocudainc" || a == "-nocudalib" || a == "-nogpulib" ||
        a == "-nogpuinc" || a == "--no-cuda-version-check") {
      f.flags.push_back(a);
      continue;
    }
    if (a.starts_with("-f")) {
      bool drop = false;
      for (auto p : dropFlagPrefixes)
        drop = drop || a.starts_with(p);
      if (!drop)
        f.flags.push_back(a);
    }
    // -c, -S, -E, -M*, --cuda-host-only/--cuda-device-only, -W*, -g, -m* ...: dropped.
  }
  return f;
}

std::string absolutePath(const std::string &p, const std::string &dir) {
  if (p.empty() || p[0] == '/')
    return p;
  fs::path base = dir.empty() ? fs::current_path() : fs::path(dir);
  return (base / p).lexically_normal().string();
}

} // namespace occlint::compileflags
