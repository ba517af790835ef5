// The compiler launcher's reading of a compile command: nvcc's options come
// from the translator's table (NvccFlagTable.cpp: which take a value), Clang's
// from the short list below; response files are expanded as the translator
// does (ResponseFiles.cpp).
#include "toolchain/LauncherCommand.h"

#include "toolchain/CommandLineText.h"
#include "toolchain/NvccFlagTable.h"
#include "toolchain/ResponseFiles.h"

#include <algorithm>
#include <cctype>
#include <exception>

namespace occlint {

using namespace translator_detail;

namespace {

std::string fileName(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isClangName(const std::string &name) {
  for (std::string_view stem : {"clang++", "clang"}) {
    if (name == stem)
      return true;
    if (name.starts_with(std::string(stem) + "-")) { // clang++-22, clang-22.1
      std::string_view rest = std::string_view(name).substr(stem.size() + 1);
      if (!rest.empty() && std::all_of(rest.begin(), rest.end(),
                                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
        return true;
    }
  }
  return false;
}

/// "sm_90a" from a code/arch item, nullopt for compute_XX, lto_XX and the rest.
std::optional<std::string> sassArch(const std::string &raw) {
  std::string v = trimQuotesAndBrackets(raw);
  if (!v.starts_with("sm_") || v.size() < 5 || !std::isdigit(static_cast<unsigned char>(v[3])))
    return std::nullopt;
  if (!std::all_of(v.begin() + 3, v.end(), [](unsigned char c) { return std::isalnum(c); }))
    return std::nullopt;
  return v;
}

void addUnique(std::vector<std::string> &list, const std::string &item) {
  if (std::find(list.begin(), list.end(), item) == list.end())
    list.push_back(item);
}

/// The output with its extension replaced by .d (where -MD without -MF writes).
std::string defaultDepfile(const std::string &output) {
  if (output.empty())
    return {};
  size_t slash = output.find_last_of('/');
  size_t dot = output.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
    return output + ".d";
  return output.substr(0, dot) + ".d";
}

struct Scan {
  std::vector<std::string> cudaInputs;
  int otherInputs = 0;
  bool noPtxasMode = false; // -E, -M, -ptx, ... : no ptxas runs
  std::string noPtxasFlag;
  bool verboseDriver = false; // the driver prints its commands: they would show the flags added
  // nvcc arch flags
  std::vector<std::string> archValues, codeValues, gencodeSass;
  bool namesArchs = false; // an -arch, -code or -gencode was there
  bool archUnknown = false;
};

void noPtxas(Scan &s, const std::string &flag) {
  if (!s.noPtxasMode)
    s.noPtxasFlag = flag;
  s.noPtxasMode = true;
}

void scanNvcc(const std::vector<std::string> &a, CompileInvocation &inv, Scan &s) {
  bool cudaLanguage = false;
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string &tok = a[i];
    if (tok.empty())
      continue;
    if (tok[0] != '-' || tok == "-") {
      if (cudaLanguage || endsWith(tok, ".cu"))
        s.cudaInputs.push_back(tok);
      else
        ++s.otherInputs;
      continue;
    }
    std::string body = tok.substr(tok.starts_with("--") ? 2 : 1);
    size_t eq = body.find('=');
    std::string name = body.substr(0, eq);
    std::optional<std::string> joined;
    if (eq != std::string::npos)
      joined = body.substr(eq + 1);
    const OptInfo *info = lookupOption(name);
    if (!info && !tok.starts_with("--")) {
      for (std::string_view p : {"isystem", "MF", "MT", "D", "U", "I", "L", "l", "O"})
        if (body.starts_with(p) && body.size() > p.size()) {
          info = lookupOption(std::string(p));
          name = std::string(p);
          joined = body.substr(p.size());
          break;
        }
    }
    if (!info)
      continue; // unknown (forwarded to the host compiler): no value
    std::string value;
    if (info->V != Val::None) {
      if (joined)
        value = *joined;
      else if (i + 1 < a.size()) {
        const std::string &next = a[i + 1];
        bool take = true;
        if (info->V == Val::Bool)
          take = next == "true" || next == "false";
        else if (info->V == Val::Level)
          take = next.size() <= 4 && !next.empty() && next[0] != '-';
        else if (info->V == Val::Kind)
          take = !next.empty() && next[0] != '-';
        if (take)
          value = a[++i];
      }
    }
    if (name == "o" || name == "output-file")
      inv.output = value;
    else if (name == "x")
      cudaLanguage = value == "cu";
    else if (name == "MD" || name == "MMD" || name == "generate-dependencies-with-compile" ||
             name == "generate-nonsystem-dependencies-with-compile")
      inv.writesDepfile = true;
    else if (name == "MF" || name == "dependency-output")
      inv.depfile = value;
    else if (name == "Xptxas" || name == "ptxas-options") {
      for (const std::string &item : splitList(value))
        if (item == "-v" || item == "--verbose")
          inv.reportRequested = true;
    } else if (name == "resource-usage" || name == "res-usage")
      inv.reportRequested = true;
    else if (name == "E" || name == "preprocess" || name == "M" || name == "generate-dependencies" || name == "MM" ||
             name == "generate-nonsystem-dependencies" || name == "ptx" || name == "cuda" || name == "optix-ir" ||
             name == "ltoir" || name == "fdevice-syntax-only" || name == "dlink" || name == "device-link" ||
             name == "run" || name == "help" || name == "h" || name == "version" || name == "V" ||
             name == "list-gpu-code" || name == "code-ls" || name == "list-gpu-arch" || name == "arch-ls")
      noPtxas(s, tok);
    else if (name == "dryrun" || name == "verbose" || name == "v")
      s.verboseDriver = true;
    else if (name == "arch" || name == "gpu-architecture") {
      s.namesArchs = true;
      for (const std::string &v : splitList(value))
        s.archValues.push_back(trimQuotesAndBrackets(v));
    } else if (name == "code" || name == "gpu-code") {
      s.namesArchs = true;
      for (const std::string &v : splitList(trimQuotesAndBrackets(value)))
        s.codeValues.push_back(v);
    } else if (name == "gencode" || name == "generate-code") {
      s.namesArchs = true;
      bool inCode = false, anyCode = false;
      for (const std::string &item : splitList(trimQuotesAndBrackets(value))) {
        std::string code;
        if (item.starts_with("arch=")) {
          inCode = false;
          continue;
        }
        if (item.starts_with("code=")) {
          inCode = true;
          code = item.substr(5);
        } else if (inCode)
          code = item;
        else
          continue;
        anyCode = true;
        if (auto sm = sassArch(code))
          addUnique(s.gencodeSass, *sm);
      }
      if (!anyCode)
        s.archUnknown = true;
    }
  }
  // The SASS archs: -gencode's sm_ codes, -code's, else an -arch=sm_XX alone.
  std::vector<std::string> sass = s.gencodeSass;
  if (!s.codeValues.empty()) {
    for (const std::string &c : s.codeValues)
      if (auto sm = sassArch(c))
        addUnique(sass, *sm);
  } else {
    for (const std::string &v : s.archValues) {
      if (v == "native" || v == "all" || v == "all-major")
        s.archUnknown = true;
      else if (auto sm = sassArch(v))
        addUnique(sass, *sm);
    }
  }
  if (s.namesArchs && !s.archUnknown)
    inv.sassArchs = sass;
}

/// Clang options whose value is the next argument (when not joined).
bool clangTakesValue(const std::string &f) {
  static const char *const withValue[] = {"-o",
                                          "-x",
                                          "-I",
                                          "-isystem",
                                          "-include",
                                          "-iquote",
                                          "-idirafter",
                                          "-imacros",
                                          "-D",
                                          "-U",
                                          "-MF",
                                          "-MT",
                                          "-MQ",
                                          "-MJ",
                                          "-Xclang",
                                          "-Xcuda-ptxas",
                                          "-Xcuda-fatbinary",
                                          "-Xlinker",
                                          "-Xassembler",
                                          "-Xpreprocessor",
                                          "-Xarch_device",
                                          "-Xarch_host",
                                          "-Xoffload-linker",
                                          "-mllvm",
                                          "-target",
                                          "--target",
                                          "-arch",
                                          "-isysroot",
                                          "--sysroot",
                                          "-L",
                                          "-include-pch",
                                          "-iprefix",
                                          "-iwithprefix",
                                          "-iwithprefixbefore",
                                          "-ivfsoverlay",
                                          "-serialize-diagnostics",
                                          "-z",
                                          "-u",
                                          "-T",
                                          "--cuda-gpu-arch",
                                          "--offload-arch",
                                          "--cuda-path",
                                          "--output",
                                          "-working-directory",
                                          "-resource-dir",
                                          "-gcc-toolchain",
                                          "--gcc-toolchain",
                                          "-ccc-install-dir",
                                          "-module-dependency-dir"};
  return std::find(std::begin(withValue), std::end(withValue), f) != std::end(withValue);
}

void scanClang(const std::vector<std::string> &a, CompileInvocation &inv, Scan &s) {
  bool cudaLanguage = false, endOfOptions = false;
  std::vector<std::string> archs;
  bool archUnknown = false;
  auto takeArchs = [&](const std::string &list) {
    for (const std::string &v : splitList(list)) {
      if (auto sm = sassArch(v))
        addUnique(archs, *sm);
      else
        archUnknown = true; // native, all, gfx...
    }
  };
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string &tok = a[i];
    if (tok.empty())
      continue;
    if (endOfOptions || tok[0] != '-' || tok == "-") {
      if (cudaLanguage || endsWith(tok, ".cu"))
        s.cudaInputs.push_back(tok);
      else
        ++s.otherInputs;
      continue;
    }
    if (tok == "--") {
      endOfOptions = true;
      continue;
    }
    std::string value;
    bool separate = clangTakesValue(tok) && i + 1 < a.size();
    if (separate)
      value = a[++i];
    if (tok == "-o" || tok == "--output")
      inv.output = value;
    else if (tok.starts_with("--output="))
      inv.output = tok.substr(9);
    else if (tok.starts_with("-o") && !separate && tok.size() > 2)
      inv.output = tok.substr(2);
    else if (tok == "-x" || (tok.starts_with("-x") && tok.size() > 2 && !separate)) {
      std::string lang = tok == "-x" ? value : tok.substr(2);
      cudaLanguage = lang == "cuda";
    } else if (tok == "-MD" || tok == "-MMD")
      inv.writesDepfile = true;
    else if (tok == "-MF")
      inv.depfile = value;
    else if (tok.starts_with("-MF") && !separate)
      inv.depfile = tok.substr(3);
    else if (tok == "-Xcuda-ptxas") {
      if (value == "-v" || value == "--verbose")
        inv.reportRequested = true;
    } else if (tok == "--cuda-gpu-arch" || tok == "--offload-arch")
      takeArchs(value);
    else if (tok.starts_with("--cuda-gpu-arch="))
      takeArchs(tok.substr(16));
    else if (tok.starts_with("--offload-arch="))
      takeArchs(tok.substr(15));
    else if (tok.starts_with("--no-cuda-gpu-arch=") || tok.starts_with("--no-offload-arch="))
      archUnknown = true;
    else if (tok == "-E" || tok == "-M" || tok == "-MM" || tok == "-fsyntax-only" || tok == "-S" ||
             tok == "--cuda-host-only" || tok == "--offload-host-only" || tok == "-emit-llvm" ||
             tok == "--precompile" || tok == "--help" || tok == "--version" || tok.starts_with("-print-") ||
             tok.starts_with("--print-"))
      noPtxas(s, tok);
    else if (tok == "-v" || tok == "-###" || tok == "--verbose")
      s.verboseDriver = true;
  }
  if (!archs.empty() && !archUnknown)
    inv.sassArchs = archs;
}

} // namespace

bool isCompilerLauncherName(std::string_view program) {
  std::string name = fileName(program);
  return name == "ccache" || name == "sccache" || name == "distcc" || name == "icecc" || name == "buildcache";
}

CompileInvocation analyzeCompileCommand(const std::vector<std::string> &argv, const std::string &directory) {
  CompileInvocation inv;
  try {
    while (inv.compilerIndex < argv.size() && isCompilerLauncherName(argv[inv.compilerIndex]))
      ++inv.compilerIndex;
    if (inv.compilerIndex >= argv.size()) {
      inv.whyNot = argv.empty() ? "no command" : "no compiler after the launchers";
      return inv;
    }
    const std::string name = fileName(argv[inv.compilerIndex]);
    if (name == "nvcc")
      inv.kind = LaunchedCompiler::Nvcc;
    else if (isClangName(name))
      inv.kind = LaunchedCompiler::Clang;
    else {
      inv.whyNot = "not nvcc or clang: " + name;
      return inv;
    }
    std::vector<std::string> rest(argv.begin() + static_cast<std::ptrdiff_t>(inv.compilerIndex) + 1, argv.end());
    Expander expander;
    expander.Directory = directory;
    std::vector<std::string> expanded;
    expander.expand(rest, 0, expanded);
    inv.error = expander.Error;

    Scan s;
    if (inv.kind == LaunchedCompiler::Nvcc)
      scanNvcc(expanded, inv, s);
    else
      scanClang(expanded, inv, s);
    if (inv.writesDepfile && inv.depfile.empty())
      inv.depfile = defaultDepfile(inv.output);
    if (!inv.writesDepfile)
      inv.depfile.clear(); // -MF without -MD/-MMD: no compile writes it

    if (s.cudaInputs.size() == 1)
      inv.source = s.cudaInputs[0];
    if (s.noPtxasMode)
      inv.whyNot = s.noPtxasFlag + ": ptxas does not run";
    else if (s.verboseDriver)
      inv.whyNot = "the driver prints its commands (-v, --dryrun, -###)";
    else if (s.cudaInputs.empty())
      inv.whyNot = "no CUDA source";
    else if (s.cudaInputs.size() > 1)
      inv.whyNot = "several CUDA sources";
    else
      inv.capturable = true;
  } catch (const std::exception &e) {
    inv.capturable = false;
    inv.whyNot = std::string("internal error: ") + e.what();
  }
  return inv;
}

std::vector<std::string> withCaptureFlags(const std::vector<std::string> &argv, const CompileInvocation &inv,
                                          const std::string &addedDepfile) {
  std::vector<std::string> added;
  if (!inv.reportRequested) {
    if (inv.kind == LaunchedCompiler::Nvcc)
      added = {"-Xptxas", "-v"};
    else if (inv.kind == LaunchedCompiler::Clang)
      added = {"-Xcuda-ptxas", "-v"};
  }
  if (!addedDepfile.empty())
    added.insert(added.end(), {"-MD", "-MF", addedDepfile});
  std::vector<std::string> out(
      argv.begin(), argv.begin() + static_cast<std::ptrdiff_t>(std::min(inv.compilerIndex + 1, argv.size())));
  out.insert(out.end(), added.begin(), added.end());
  if (inv.compilerIndex + 1 < argv.size())
    out.insert(out.end(), argv.begin() + static_cast<std::ptrdiff_t>(inv.compilerIndex) + 1, argv.end());
  return out;
}

std::vector<std::string> normalizedCompileArguments(const std::vector<std::string> &argv) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < argv.size() && isCompilerLauncherName(argv[i]))
    ++i;
  if (i < argv.size())
    out.push_back(argv[i++]);
  for (; i < argv.size(); ++i) {
    const std::string &tok = argv[i];
    if (tok == "-MD" || tok == "-MMD" || tok == "-MP" || tok == "--generate-dependencies-with-compile" ||
        tok == "--generate-nonsystem-dependencies-with-compile" || tok == "--generate-dependency-targets")
      continue;
    if (tok == "-MF" || tok == "-MT" || tok == "-MQ" || tok == "--dependency-output" ||
        tok == "--dependency-target-name") {
      ++i; // and its value
      continue;
    }
    if (tok.starts_with("-MF") || tok.starts_with("-MT") || tok.starts_with("-MQ") ||
        tok.starts_with("--dependency-output=") || tok.starts_with("--dependency-target-name="))
      continue;
    out.push_back(tok);
  }
  return out;
}

} // namespace occlint
