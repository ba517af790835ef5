#include "toolchain/ResourceCompiler.h"

#include "toolchain/CompilerIdentity.h"
#include "toolchain/Depfile.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompileFlags.h"
#include "toolchain/ResultCache.h"
#include "toolchain/Subprocess.h"
#include "toolchain/UnsafeFlags.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace occlint {

namespace fs = std::filesystem;

using compileflags::absolutePath;
using compileflags::filterClang;
using compileflags::Filtered;
using compileflags::filterNvcc;

namespace {

bool isFile(const std::string &p) {
  struct stat st{};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string trimmed(std::string s, size_t maxChars = 4000) {
  size_t b = s.find_first_not_of(" \t\r\n");
  size_t e = s.find_last_not_of(" \t\r\n");
  s = b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  if (s.size() > maxChars)
    s = "..." + s.substr(s.size() - maxChars);
  return s;
}

bool validArch(const std::string &a) {
  if (!a.starts_with("sm_") || a.size() < 5 || a.size() > 9)
    return false;
  size_t i = 3;
  while (i < a.size() && std::isdigit(static_cast<unsigned char>(a[i])))
    ++i;
  if (i == 3)
    return false;
  return i == a.size() || (i + 1 == a.size() && std::islower(static_cast<unsigned char>(a[i])));
}

bool readWholeFile(const std::string &path, std::string &text) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  text = ss.str();
  return true;
}

struct TempDir {
  std::string path;
  TempDir() {
    std::error_code ec;
    std::string base = (fs::temp_directory_path(ec) / "occlint-XXXXXX").string();
    if (ec)
      base = "/tmp/occlint-XXXXXX";
    std::vector<char> buf(base.begin(), base.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()))
      path = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    if (!path.empty())
      fs::remove_all(path, ec);
  }
};

} // namespace

CompilerKind compilerKindOf(const std::string &argv0) {
  std::string base = fs::path(argv0).filename().string();
  if (base == "nvcc" || base == "nvcc.exe")
    return CompilerKind::Nvcc;
  if (base.starts_with("clang"))
    return CompilerKind::Clang;
  return CompilerKind::Unknown;
}

std::optional<std::string> findCudaToolkit(const std::string &explicitPath) {
  std::string root = explicitPath;
  if (root.empty()) {
    const char *env = std::getenv("CUDA_PATH");
    root = env && *env ? env : "/usr/local/cuda";
  }
  while (root.size() > 1 && root.back() == '/')
    root.pop_back();
  if (isFile(root + "/bin/ptxas"))
    return root;
  return std::nullopt;
}

std::vector<std::string> deviceCompileArgv(const CompileRequest &request, CompilerKind kind,
                                           const std::string &compiler, const std::string &toolkit,
                                           const std::string &arch, const std::string &output,
                                           const std::string &hostCompiler) {
  std::vector<std::string> argv{compiler};
  const std::string source = absolutePath(request.sourceFile, request.directory);
  if (kind == CompilerKind::Nvcc) {
    Filtered f = filterNvcc(request.command, request.directory);
    if (!hostCompiler.empty())
      argv.insert(argv.end(), {"-ccbin", hostCompiler});
    argv.insert(argv.end(), f.flags.begin(), f.flags.end());
    argv.insert(argv.end(), {"--cubin", "-Xptxas", "-v", "-arch=" + arch, "-o", output, source});
  } else {
    Filtered f = filterClang(request.command, request.directory);
    argv.insert(argv.end(), f.flags.begin(), f.flags.end());
    if (!f.hasCudaPath)
      argv.push_back("--cuda-path=" + toolkit);
    argv.insert(argv.end(), {"-Wno-unknown-cuda-version", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch,
                             "-S", "-o", output, source});
  }
  return argv;
}

std::string resolveHostCompiler(const std::string &written, const std::string &directory, std::string &refused) {
  refused.clear();
  const ProgramAllowlist allowed = processAllowlist();
  std::string candidate = written.empty() ? "gcc" : locateProgram(written, directory);
  std::error_code ec;
  if (!written.empty() && fs::is_directory(candidate, ec))
    candidate += "/gcc"; // nvcc's -ccbin DIR
  std::string why;
  if (auto real = allowed.resolve(candidate, &why))
    return *real;
  if (!written.empty())
    refused = locateProgram(candidate, directory);
  if (auto real = allowed.resolve("/usr/bin/g++", &why))
    return *real;
  return {};
}

CompileOutcome compileForResources(const CompileRequest &request) {
  CompileOutcome outcome;
  try {
    if (request.command.empty()) {
      outcome.error = "empty compile command for " + request.sourceFile;
      return outcome;
    }
    if (request.archs.empty()) {
      outcome.error = "no target arch given for " + request.sourceFile;
      return outcome;
    }
    for (const auto &a : request.archs)
      if (!validArch(a)) {
        outcome.error = "not a GPU arch: '" + a + "' (expected e.g. sm_90 or sm_90a)";
        return outcome;
      }
    CompilerKind kind = compilerKindOf(request.command[0]);
    if (kind == CompilerKind::Unknown) {
      outcome.error = "unsupported compiler '" + request.command[0] + "': resource reports need nvcc or clang";
      return outcome;
    }
    // The toolkit: explicit, else the one the nvcc command names, else $CUDA_PATH or
    // /usr/local/cuda.
    std::optional<std::string> toolkit;
    std::string compiler;
    if (!request.cudaPath.empty()) {
      toolkit = findCudaToolkit(request.cudaPath);
      if (!toolkit) {
        outcome.error = "no CUDA toolkit at " + request.cudaPath + " (no bin/ptxas there)";
        return outcome;
      }
    } else if (kind == CompilerKind::Nvcc && request.command[0].find('/') != std::string::npos) {
      // The nvcc the command names, if the user allowed it (a checkout can
      // ship a bin/nvcc with a bin/ptxas beside it); else the default toolkit's.
      std::string nv = absolutePath(request.command[0], request.directory);
      toolkit = findCudaToolkit(fs::path(nv).parent_path().parent_path().string());
      const bool allowed = isFile(nv) && processAllowlist().resolve(nv).has_value();
      if (toolkit && allowed)
        compiler = nv;
      else {
        if (isFile(nv) && !allowed)
          outcome.refusedPrograms.push_back(nv);
        toolkit.reset();
      }
    }
    if (!toolkit)
      toolkit = findCudaToolkit("");
    if (!toolkit) {
      const char *env = std::getenv("CUDA_PATH");
      outcome.error = std::string("no CUDA toolkit found: looked in ") +
                      (env && *env ? std::string("$CUDA_PATH=") + env : "/usr/local/cuda") +
                      " for bin/ptxas; set cudaPath or CUDA_PATH";
      return outcome;
    }
    const std::string ptxas = *toolkit + "/bin/ptxas";
    if (kind == CompilerKind::Nvcc) {
      if (compiler.empty())
        compiler = *toolkit + "/bin/nvcc";
      if (!isFile(compiler)) {
        outcome.error = "nvcc not found at " + compiler;
        return outcome;
      }
    } else {
      compiler = locateProgram(request.command[0], request.directory);
      std::string why;
      if (!processAllowlist().resolve(compiler, &why)) {
        outcome.refusedPrograms.push_back(compiler.empty() ? request.command[0] : compiler);
        outcome.error = "refused to run " + why;
        return outcome;
      }
    }
    Filtered filtered = kind == CompilerKind::Nvcc ? filterNvcc(request.command, request.directory)
                                                   : filterClang(request.command, request.directory);
    outcome.droppedUnsafeFlags = filtered.unsafe;
    // nvcc's host compiler: always explicit, realpath-resolved and allowed.
    std::string hostCompiler;
    if (kind == CompilerKind::Nvcc) {
      std::string refusedHost;
      hostCompiler = resolveHostCompiler(filtered.hostCompiler, request.directory, refusedHost);
      if (!refusedHost.empty()) {
        outcome.refusedPrograms.push_back(refusedHost);
        outcome.hostCompilerSubstituted = true;
      }
    }

    std::string err;
    auto version = compilerIdentity(compiler, request.timeout, request.cacheDir, request.useCache, &err);
    if (!version) {
      outcome.error = err;
      return outcome;
    }
    std::string identity = *version;
    if (kind == CompilerKind::Clang) {
      auto pv = compilerIdentity(ptxas, request.timeout, request.cacheDir, request.useCache, &err);
      if (!pv) {
        outcome.error = err;
        return outcome;
      }
      identity += "\n" + *pv;
    }

    const std::string source = absolutePath(request.sourceFile, request.directory);
    auto sourceHash = hashFileContents(source);
    if (!sourceHash) {
      outcome.error = "cannot read " + source;
      return outcome;
    }
    ResultCache cache(request.cacheDir);
    // Every run starts in a directory of ours: nothing is found through, or
    // written into, the checkout (the command's relative paths were made
    // absolute against its directory).
    TempDir workDir;
    if (workDir.path.empty()) {
      outcome.error = "cannot create a temporary directory";
      return outcome;
    }
    SubprocessOptions run;
    run.workingDirectory = workDir.path;
    run.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(request.timeout);

    bool allCached = true;
    for (const auto &arch : request.archs) {
      std::string key = "occlint-resources 1\n";
      key += (kind == CompilerKind::Nvcc ? "nvcc\n" : "clang\n") + compiler + "\n" + identity + "\n" + arch + "\n" +
             request.directory + "\n" + source + "\n" + hashHex(*sourceHash) + "\n" + hostCompiler + "\n";
      for (const auto &f : filtered.flags)
        key += f + "\n";
      key += "ptxas:";
      for (const auto &f : filtered.ptxasExtra)
        key += " " + f;

      auto addLog = [&](const std::string &log) {
        PtxasReport r = parsePtxasLog(log);
        for (auto &fn : r.functions)
          fn.sourceFile = request.sourceFile;
        outcome.report.merge(r);
      };
      if (request.useCache) {
        if (auto hit = cache.lookup(key)) {
          addLog(*hit);
          continue;
        }
        // The compiler rejected the same file, command and headers before:
        // its verdict, not a second run (issue 44 item 6).
        if (auto rejected = cache.lookup(rejectedCompileKey(key))) {
          outcome.compilerRejected = true;
          outcome.rejectionRemembered = true;
          outcome.error = *rejected;
          return outcome;
        }
      }
      allCached = false;
      TempDir tmp;
      if (tmp.path.empty()) {
        outcome.error = "cannot create a temporary directory";
        return outcome;
      }
      std::string out = tmp.path + (kind == CompilerKind::Nvcc ? "/device.cubin" : "/device.ptx");
      auto argv = deviceCompileArgv(request, kind, compiler, *toolkit, arch, out, hostCompiler);
      // The cache entry needs every file the compile read: the same run
      // writes them (-MD -MF), rather than a second preprocessing run (-M).
      const std::string depfile = tmp.path + "/device.d";
      if (request.useCache)
        argv.insert(argv.end() - 1, {"-MD", "-MF", depfile});
      auto r = runSubprocess(argv, run);
      std::string log = r.out + r.err;
      if (r.timedOut) {
        outcome.error = fs::path(compiler).filename().string() + " did not finish within " +
                        std::to_string(request.timeout.count()) + " s for " + arch + " on " + request.sourceFile +
                        " (killed with its child processes; --compile-timeout sets the limit)";
        return outcome;
      }
      if (!r.ok()) {
        outcome.compilerRejected = r.started && r.termSignal == 0;
        outcome.error = fs::path(compiler).filename().string() + " failed for " + arch + " (" + r.describe() + ") on " +
                        request.sourceFile + ": " + trimmed(r.err.empty() ? r.out : r.err);
        // Remembered like a report, under the files the compile read (nvcc
        // writes its dependency list before it compiles): a changed file or
        // header makes it a miss. A rejection whose files are not listed (a
        // missing header stops the preprocessor) is not stored: the caller
        // remembers it for its run only.
        std::string depText;
        if (outcome.compilerRejected && request.useCache && readWholeFile(depfile, depText)) {
          auto deps = parseDepfile(depText, request.directory);
          if (!deps.empty()) {
            if (std::find(deps.begin(), deps.end(), source) == deps.end())
              deps.push_back(source);
            cache.store(rejectedCompileKey(key), deps, outcome.error);
          }
        }
        return outcome;
      }
      if (kind == CompilerKind::Clang) {
        std::vector<std::string> pargv{ptxas, "-v", "--gpu-name", arch};
        pargv.insert(pargv.end(), filtered.ptxasExtra.begin(), filtered.ptxasExtra.end());
        pargv.insert(pargv.end(), {out, "-o", tmp.path + "/device.cubin"});
        auto p = runSubprocess(pargv, run);
        if (!p.ok()) {
          outcome.error = "ptxas failed for " + arch + " (" + p.describe() + ") on " + request.sourceFile + ": " +
                          trimmed(p.err.empty() ? p.out : p.err);
          return outcome;
        }
        log = p.out + p.err;
      }
      addLog(log);

      if (request.useCache) {
        std::string depText;
        if (readWholeFile(depfile, depText)) {
          auto deps = parseDepfile(depText, request.directory);
          if (std::find(deps.begin(), deps.end(), source) == deps.end())
            deps.push_back(source);
          cache.store(key, deps, log);
          cache.store(latestReportKey(source, arch), deps, log);
        }
        // No dependency list, no entry: it could not be validated later.
      }
    }
    outcome.ok = true;
    outcome.fromCache = allCached;
  } catch (const std::exception &e) {
    outcome.ok = false;
    outcome.error = std::string("internal error: ") + e.what();
  } catch (...) {
    outcome.ok = false;
    outcome.error = "internal error";
  }
  return outcome;
}

std::string rejectedCompileKey(const std::string &compileKey) { return "occlint-resources-rejected 1\n" + compileKey; }

std::string latestReportKey(const std::string &absoluteSource, const std::string &arch) {
  return "occlint-latest-resources 1\n" + absoluteSource + "\n" + arch;
}

std::optional<std::string> latestCachedPtxasLog(const std::string &absoluteSource, const std::string &arch,
                                                const std::string &cacheDir) {
  return ResultCache(cacheDir).lookup(latestReportKey(absoluteSource, arch));
}

} // namespace occlint
