// The translator's flag tables: nvcc 13.0's options (`nvcc --help`) with what
// becomes of each, and the classification of host compiler flags.
// docs/compile-commands.md has the table of what happens to each.
#include "toolchain/NvccFlagTable.h"

#include "toolchain/CommandLineText.h"

#include <initializer_list>
#include <string_view>
#include <unordered_map>

namespace occlint::translator_detail {
namespace {

// GCC options that Clang 22 rejects as unknown arguments (an error, which would
// stop the analysis). Found by trying them; not exhaustive.
bool isGccOnlyFFlag(const std::string &F) {
  static const char *const Exact[] = {"-fno-gnu-unique",
                                      "-fconcepts",
                                      "-fext-numeric-literals",
                                      "-fno-ext-numeric-literals",
                                      "-fnothrow-opt",
                                      "-fno-lifetime-dse",
                                      "-flifetime-dse",
                                      "-fconserve-stack",
                                      "-fopenmp-simd",
                                      "-fno-canonical-system-headers",
                                      "-fimplicit-constexpr",
                                      "-fmodules-ts",
                                      "-fno-keep-inline-dllexport",
                                      "-fstrict-volatile-bitfields",
                                      "-fno-guess-branch-probability",
                                      "-fguess-branch-probability",
                                      "-fno-tree-loop-distribute-patterns",
                                      "-fpredictive-commoning"};
  for (const char *E : Exact)
    if (F == E)
      return true;
  for (std::string_view P : {"-fabi-version=", "-fipa-", "-fno-ipa-", "-fsched-", "-fno-sched-", "-fvar-tracking",
                             "-fno-var-tracking", "-fira-", "-fno-ira-"})
    if (F.starts_with(P))
      return true;
  return false;
}

const std::unordered_map<std::string, OptInfo> &nvccOptions() {
  static const std::unordered_map<std::string, OptInfo> Table = [] {
    std::unordered_map<std::string, OptInfo> T;
    auto Add = [&T](std::initializer_list<const char *> Names, OptInfo Info) {
      for (const char *N : Names)
        T.emplace(N, Info);
    };
    // Target archs and registers.
    Add({"gpu-architecture", "arch"}, {Act::Arch, Val::Any});
    Add({"gpu-code", "code"}, {Act::Code, Val::Any});
    Add({"generate-code", "gencode"}, {Act::Gencode, Val::Any});
    Add({"dlink-time-opt", "dlto", "lto"}, {Act::LinkTimeOpt, Val::None});
    Add({"maxrregcount"}, {Act::MaxRReg, Val::Any});
    Add({"relocatable-device-code", "rdc"}, {Act::Rdc, Val::Bool});
    Add({"device-c", "dc"}, {Act::DeviceC, Val::None});
    Add({"device-debug", "G"}, {Act::DeviceDebug, Val::None});
    // Other tools' options.
    Add({"compiler-options", "Xcompiler"}, {Act::Xcompiler, Val::Any});
    Add({"ptxas-options", "Xptxas"}, {Act::Xptxas, Val::Any});
    Add({"linker-options", "Xlinker", "archive-options", "Xarchive", "nvlink-options", "Xnvlink", "Xfatbin",
         "fatbin-options", "Xcudafe", "cudafe-options"},
        {Act::Drop, Val::Any});
    // Preprocessor, language, optimization.
    Add({"define-macro", "D"}, {Act::Define, Val::Any});
    Add({"undefine-macro", "U"}, {Act::Undef, Val::Any});
    Add({"include-path", "I"}, {Act::Include, Val::Any});
    Add({"system-include", "isystem"}, {Act::SysInclude, Val::Any});
    Add({"pre-include", "include"}, {Act::PreInclude, Val::Any});
    Add({"optimize", "O"}, {Act::Optimize, Val::Level});
    Add({"x"}, {Act::Lang, Val::Any});
    Add({"std"}, {Act::Std, Val::Any});
    Add({"ftemplate-backtrace-limit"}, {Act::TemplBacktrace, Val::Any});
    Add({"ftemplate-depth"}, {Act::TemplDepth, Val::Any});
    Add({"ftz"}, {Act::Ftz, Val::Bool});
    Add({"default-stream"}, {Act::DefaultStream, Val::Any});
    Add({"use_fast_math"}, {Act::FastMath, Val::None});
    Add({"no-exceptions", "noeh"}, {Act::NoExceptions, Val::None});
    Add({"debug", "g"}, {Act::Pass, Val::None, "-g"});
    Add({"disable-warnings", "w"}, {Act::Pass, Val::None, "-w"});
    Add({"Wreorder"}, {Act::Pass, Val::None, "-Wreorder"});
    Add({"Wno-deprecated-declarations"}, {Act::Pass, Val::None, "-Wno-deprecated-declarations"});
    Add({"expt-relaxed-constexpr"}, {Act::NoteDrop, Val::None, nullptr,
                                     "not needed, Clang lets host and device code call "
                                     "constexpr functions of the other side by default"});
    Add({"extended-lambda", "expt-extended-lambda"}, {Act::NoteDrop, Val::None, nullptr,
                                                      "not needed, Clang accepts __device__ and __host__ __device__ "
                                                      "lambdas by default"});
    Add({"options-file", "optf"}, {Act::OptionsFile, Val::Any});
    // Output and dependency files: Clang tooling sets its own (-fsyntax-only).
    Add({"output-file", "o", "dependency-output", "MF", "dependency-target-name", "MT"}, {Act::Silent, Val::Any});
    Add({"compile", "c", "generate-dependencies", "M", "generate-nonsystem-dependencies", "MM",
         "generate-dependencies-with-compile", "MD", "generate-nonsystem-dependencies-with-compile", "MMD",
         "generate-dependency-targets", "MP", "forward-unknown-to-host-compiler", "forward-unknown-to-host-linker",
         "forward-unknown-opts"},
        {Act::Silent, Val::None});
    // Dropped, with a value.
    Add({"library",
         "l",
         "library-path",
         "L",
         "output-directory",
         "odir",
         "compiler-bindir",
         "ccbin",
         "archiver-binary",
         "arbin",
         "libdevice-directory",
         "ldir",
         "target-directory",
         "target-dir",
         "optimization-info",
         "opt-info",
         "dopt",
         "Ofast-compile",
         "Ofc",
         "threads",
         "t",
         "split-compile",
         "split-compile-extended",
         "fdevice-time-trace",
         "keep-dir",
         "time",
         "run-args",
         "input-drive-prefix",
         "idp",
         "dependency-drive-prefix",
         "ddp",
         "drive-prefix",
         "dp",
         "cudart",
         "cudadevrt",
         "machine",
         "m",
         "entries",
         "e",
         "host-linker-script",
         "hls",
         "jump-table-density",
         "jtd",
         "frandom-seed",
         "sanitize",
         "compress-mode",
         "qpp-config",
         "diag-error",
         "diag-suppress",
         "diag-warn"},
        {Act::Drop, Val::Any});
    Add({"prec-div", "prec-sqrt", "fmad", "static-global-template-stub", "device-entity-has-hidden-visibility",
         "brief-diagnostics", "brief-diag", "device-stack-protector"},
        {Act::Drop, Val::Bool});
    Add({"Werror"}, {Act::Drop, Val::Kind});
    // Dropped, no value.
    Add({"cuda",
         "cubin",
         "fatbin",
         "ptx",
         "optix-ir",
         "ltoir",
         "preprocess",
         "E",
         "device-w",
         "dw",
         "device-link",
         "dlink",
         "link",
         "lib",
         "run",
         "objdir-as-tempdir",
         "objtemp",
         "allow-unsupported-compiler",
         "use-local-env",
         "force-cl-env-setup",
         "profile",
         "pg",
         "generate-line-info",
         "lineinfo",
         "gen-opt-lto",
         "shared",
         "no-host-device-initializer-list",
         "nohdinitlist",
         "no-host-device-move-forward",
         "nohdmoveforward",
         "m64",
         "dont-use-profile",
         "noprof",
         "dryrun",
         "verbose",
         "v",
         "fdevice-syntax-only",
         "keep",
         "save-temps",
         "clean-targets",
         "clean",
         "no-align-double",
         "no-device-link",
         "nodlink",
         "extra-device-vectorization",
         "keep-device-functions",
         "source-in-ptx",
         "src-in-ptx",
         "restrict",
         "Wdefault-stream-launch",
         "Wmissing-launch-bounds",
         "Wext-lambda-captures-this",
         "Wno-deprecated-gpu-targets",
         "resource-usage",
         "res-usage",
         "extensible-whole-program",
         "ewp",
         "no-compress",
         "compile-as-tools-patch",
         "astoolspatch",
         "list-gpu-code",
         "code-ls",
         "list-gpu-arch",
         "arch-ls",
         "display-error-number",
         "err-no",
         "no-display-error-number",
         "no-err-no",
         "augment-host-linker-script",
         "aug-hls",
         "relocatable-link",
         "r",
         "relocatable-ptx",
         "reloc-ptx",
         "jobserver",
         "help",
         "h",
         "version",
         "V"},
        {Act::Drop, Val::None});
    return T;
  }();
  return Table;
}

} // namespace

HostKind classifyHostFlag(const std::string &F) {
  // Preprocessor and include flags, separate and joined.
  for (std::string_view P :
       {"-D", "-U", "-I", "-isystem", "-include", "-iquote", "-idirafter", "-imacros", "-isysroot", "--sysroot"}) {
    if (F == P)
      return HostKind::PassWithValue;
  }
  for (std::string_view P :
       {"-D", "-U", "-I", "-isystem", "-include", "-iquote", "-idirafter", "-imacros", "-isysroot", "--sysroot="}) {
    if (F.starts_with(P))
      return HostKind::Pass;
  }
  if (F.starts_with("-std=") || F.starts_with("-stdlib=") || F.starts_with("-O") || F.starts_with("-g") || F == "-w" ||
      F == "-pedantic" || F == "-ansi" || F == "-pthread" || F == "-nostdinc" || F == "-nostdinc++")
    return HostKind::Pass;
  if (F.starts_with("-W")) {
    // Linker/assembler/preprocessor pass-through, and warnings-as-errors (a
    // warning GCC never gave would stop the analysis).
    if (F.starts_with("-Wl,") || F.starts_with("-Wa,") || F.starts_with("-Wp,") || F == "-Werror" ||
        F.starts_with("-Werror="))
      return HostKind::Drop;
    return HostKind::Pass;
  }
  if (F.starts_with("-f") && F.size() > 2)
    return isGccOnlyFFlag(F) ? HostKind::Drop : HostKind::Pass;
  for (std::string_view P :
       {"-o", "-x", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-L", "-l"})
    if (F == P)
      return HostKind::DropWithValue;
  // -m... (host target: -march, -mtune, -m64, -mavx2), -c, -shared, -pipe, ...
  return HostKind::Drop;
}

const OptInfo *lookupOption(const std::string &Name) {
  const auto &T = nvccOptions();
  auto It = T.find(Name);
  return It == T.end() ? nullptr : &It->second;
}

bool isOptionsFileFlag(const std::string &Name) { return Name == "options-file" || Name == "optf"; }

} // namespace occlint::translator_detail
