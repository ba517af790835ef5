// nvcc compile command -> Clang CUDA command. The option names and which of
// them take a value are nvcc 13.0's (`nvcc --help`); docs/compile-commands.md
// has the table of what happens to each.
#include "core/CompileCommandTranslator.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>
#include <utility>

namespace occlint {
namespace {

// --options-file / @file nesting; deeper means a file that names itself.
constexpr int kMaxOptionsFileDepth = 16;

bool startsWith(std::string_view S, std::string_view P) { return S.substr(0, P.size()) == P; }

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of("/\\");
  std::string Name = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  if (Name.size() > 4) {
    std::string Ext = Name.substr(Name.size() - 4);
    std::transform(Ext.begin(), Ext.end(), Ext.begin(), [](unsigned char C) { return std::tolower(C); });
    if (Ext == ".exe")
      Name.resize(Name.size() - 4);
  }
  return Name;
}

bool isLauncherName(const std::string &Name) {
  return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "icecc" ||
         Name == "buildcache";
}

// Index of the compiler in argv, after any launchers.
size_t compilerIndex(const std::vector<std::string> &Argv) {
  size_t I = 0;
  while (I < Argv.size() && isLauncherName(baseName(Argv[I])))
    ++I;
  return I;
}

bool isClangName(const std::string &Name) {
  for (std::string_view Stem : {"clang++", "clang"}) {
    if (Name == Stem)
      return true;
    // clang-22, clang++-22, clang++-22.1
    if (startsWith(Name, std::string(Stem) + "-")) {
      std::string_view Rest = std::string_view(Name).substr(Stem.size() + 1);
      if (!Rest.empty() && std::all_of(Rest.begin(), Rest.end(), [](char C) {
            return (C >= '0' && C <= '9') || C == '.';
          }))
        return true;
    }
  }
  return false;
}

std::string trimQuotesAndBrackets(std::string S) {
  std::string Out;
  for (char C : S)
    if (C != '"' && C != '\'' && C != '[' && C != ']' && C != ' ' && C != '\t')
      Out += C;
  return Out;
}

std::vector<std::string> splitList(const std::string &S, char Sep = ',') {
  std::vector<std::string> Out;
  std::string Cur;
  for (char C : S) {
    if (C == Sep) {
      if (!Cur.empty())
        Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += C;
    }
  }
  if (!Cur.empty())
    Out.push_back(Cur);
  return Out;
}

std::optional<int> parsePositiveInt(std::string_view S) {
  int V = 0;
  auto [Ptr, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || Ptr != S.data() + S.size() || V <= 0)
    return std::nullopt;
  return V;
}

// "sm_80", "compute_80", "lto_80" (also with a/f suffixes) -> "sm_80".
std::optional<std::string> normalizeArch(const std::string &Raw) {
  std::string V = trimQuotesAndBrackets(Raw);
  for (std::string_view Prefix : {"sm_", "compute_", "lto_"}) {
    if (!startsWith(V, Prefix))
      continue;
    std::string Rest = V.substr(Prefix.size());
    if (Rest.empty() || !(Rest[0] >= '0' && Rest[0] <= '9'))
      return std::nullopt;
    if (!std::all_of(Rest.begin(), Rest.end(), [](unsigned char C) { return std::isalnum(C); }))
      return std::nullopt;
    return "sm_" + Rest;
  }
  return std::nullopt;
}

// -gencode's value: "arch=compute_80,code=sm_80", "arch=compute_90a,code=[sm_90a,compute_90a]",
// 'arch=compute_80,code="sm_80,compute_80"'. The real archs it produces: those of
// code= (compute_XX counted as sm_XX), else arch='s.
std::optional<std::vector<std::string>> parseGencode(const std::string &Value) {
  std::string Arch;
  std::vector<std::string> Codes;
  bool InCode = false;
  for (const std::string &Item : splitList(trimQuotesAndBrackets(Value))) {
    if (startsWith(Item, "arch=")) {
      Arch = Item.substr(5);
      InCode = false;
    } else if (startsWith(Item, "code=")) {
      InCode = true;
      if (Item.size() > 5)
        Codes.push_back(Item.substr(5));
    } else if (InCode) {
      Codes.push_back(Item);
    }
  }
  std::vector<std::string> Out;
  for (const std::string &C : Codes)
    if (auto A = normalizeArch(C))
      Out.push_back(*A);
  if (Out.empty() && !Arch.empty())
    if (auto A = normalizeArch(Arch))
      Out.push_back(*A);
  if (Out.empty())
    return std::nullopt;
  return Out;
}

// ---------------------------------------------------------------------------
// Host compiler flags (-Xcompiler items, and unknown flags that
// -forward-unknown-to-host-compiler sends to the host compiler).

enum class HostKind { Pass, PassWithValue, Drop, DropWithValue };

// GCC options that Clang 22 rejects as unknown arguments (an error, which would
// stop the analysis). Found by trying them; not exhaustive.
bool isGccOnlyFFlag(const std::string &F) {
  static const char *const Exact[] = {
      "-fno-gnu-unique", "-fconcepts", "-fext-numeric-literals", "-fno-ext-numeric-literals",
      "-fnothrow-opt", "-fno-lifetime-dse", "-flifetime-dse", "-fconserve-stack",
      "-fopenmp-simd", "-fno-canonical-system-headers", "-fimplicit-constexpr", "-fmodules-ts",
      "-fno-keep-inline-dllexport", "-fstrict-volatile-bitfields",
      "-fno-guess-branch-probability", "-fguess-branch-probability",
      "-fno-tree-loop-distribute-patterns", "-fpredictive-commoning"};
  for (const char *E : Exact)
    if (F == E)
      return true;
  for (std::string_view P : {"-fabi-version=", "-fipa-", "-fno-ipa-", "-fsched-", "-fno-sched-",
                             "-fvar-tracking", "-fno-var-tracking", "-fira-", "-fno-ira-"})
    if (startsWith(F, P))
      return true;
  return false;
}

HostKind classifyHostFlag(const std::string &F) {
  // Preprocessor and include flags, separate and joined.
  for (std::string_view P : {"-D", "-U", "-I", "-isystem", "-include", "-iquote", "-idirafter",
                             "-imacros", "-isysroot", "--sysroot"}) {
    if (F == P)
      return HostKind::PassWithValue;
  }
  for (std::string_view P : {"-D", "-U", "-I", "-isystem", "-include", "-iquote", "-idirafter",
                             "-imacros", "-isysroot", "--sysroot="}) {
    if (startsWith(F, P))
      return HostKind::Pass;
  }
  if (startsWith(F, "-std=") || startsWith(F, "-stdlib=") || startsWith(F, "-O") ||
      startsWith(F, "-g") || F == "-w" || F == "-pedantic" || F == "-ansi" || F == "-pthread" ||
      F == "-nostdinc" || F == "-nostdinc++")
    return HostKind::Pass;
  if (startsWith(F, "-W")) {
    // Linker/assembler/preprocessor pass-through, and warnings-as-errors (a
    // warning GCC never gave would stop the analysis).
    if (startsWith(F, "-Wl,") || startsWith(F, "-Wa,") || startsWith(F, "-Wp,") || F == "-Werror" ||
        startsWith(F, "-Werror="))
      return HostKind::Drop;
    return HostKind::Pass;
  }
  if (startsWith(F, "-f") && F.size() > 2)
    return isGccOnlyFFlag(F) ? HostKind::Drop : HostKind::Pass;
  for (std::string_view P : {"-o", "-x", "-MF", "-MT", "-MQ", "-Xlinker", "-Xassembler",
                             "-Xpreprocessor", "-Xclang", "-L", "-l"})
    if (F == P)
      return HostKind::DropWithValue;
  // -m... (host target: -march, -mtune, -m64, -mavx2), -c, -shared, -pipe, ...
  return HostKind::Drop;
}

// ---------------------------------------------------------------------------
// nvcc's options.

enum class Act {
  Arch, Code, Gencode, MaxRReg, Rdc, DeviceC, Xcompiler, Xptxas,
  Define, Undef, Include, SysInclude, PreInclude, Optimize, Lang, Std,
  TemplBacktrace, TemplDepth, Ftz, DefaultStream, FastMath, NoExceptions,
  Pass,        // passed to Clang spelled as OptInfo::Clang
  DeviceDebug, // -G
  NoteDrop,    // dropped, with OptInfo::Note
  Drop,        // dropped and listed
  Silent,      // dropped, not listed (output and dependency files)
  OptionsFile, // only reached when expansion left it (cannot happen); silent
};

enum class Val {
  None,
  Any,   // the next argument, whatever it is
  Bool,  // the next argument only if it is true/false
  Level, // the next argument only if it looks like an optimization level (-O 3)
  Kind,  // the next argument only if it does not start with '-' (-Werror <kind>)
};

struct OptInfo {
  Act A;
  Val V;
  const char *Clang = nullptr; // Act::Pass
  const char *Note = nullptr;  // Act::NoteDrop
};

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
    Add({"maxrregcount"}, {Act::MaxRReg, Val::Any});
    Add({"relocatable-device-code", "rdc"}, {Act::Rdc, Val::Bool});
    Add({"device-c", "dc"}, {Act::DeviceC, Val::None});
    Add({"device-debug", "G"}, {Act::DeviceDebug, Val::None});
    // Other tools' options.
    Add({"compiler-options", "Xcompiler"}, {Act::Xcompiler, Val::Any});
    Add({"ptxas-options", "Xptxas"}, {Act::Xptxas, Val::Any});
    Add({"linker-options", "Xlinker", "archive-options", "Xarchive", "nvlink-options", "Xnvlink",
         "Xfatbin", "fatbin-options", "Xcudafe", "cudafe-options"},
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
    Add({"expt-relaxed-constexpr"},
        {Act::NoteDrop, Val::None, nullptr,
         "not needed, Clang lets host and device code call "
         "constexpr functions of the other side by default"});
    Add({"extended-lambda", "expt-extended-lambda"},
        {Act::NoteDrop, Val::None, nullptr,
         "not needed, Clang accepts __device__ and __host__ __device__ "
         "lambdas by default"});
    Add({"options-file", "optf"}, {Act::OptionsFile, Val::Any});
    // Output and dependency files: Clang tooling sets its own (-fsyntax-only).
    Add({"output-file", "o", "dependency-output", "MF", "dependency-target-name", "MT"},
        {Act::Silent, Val::Any});
    Add({"compile", "c", "generate-dependencies", "M", "generate-nonsystem-dependencies", "MM",
         "generate-dependencies-with-compile", "MD", "generate-nonsystem-dependencies-with-compile",
         "MMD", "generate-dependency-targets", "MP", "forward-unknown-to-host-compiler",
         "forward-unknown-to-host-linker", "forward-unknown-opts"},
        {Act::Silent, Val::None});
    // Dropped, with a value.
    Add({"library", "l", "library-path", "L", "output-directory", "odir", "compiler-bindir",
         "ccbin", "archiver-binary", "arbin", "libdevice-directory", "ldir", "target-directory",
         "target-dir", "optimization-info", "opt-info", "dopt", "Ofast-compile", "Ofc", "threads",
         "t", "split-compile", "split-compile-extended", "fdevice-time-trace", "keep-dir", "time",
         "run-args", "input-drive-prefix", "idp", "dependency-drive-prefix", "ddp", "drive-prefix",
         "dp", "cudart", "cudadevrt", "machine", "m", "entries", "e", "host-linker-script", "hls",
         "jump-table-density", "jtd", "frandom-seed", "sanitize", "compress-mode", "qpp-config",
         "diag-error", "diag-suppress", "diag-warn"},
        {Act::Drop, Val::Any});
    Add({"prec-div", "prec-sqrt", "fmad", "static-global-template-stub",
         "device-entity-has-hidden-visibility", "brief-diagnostics", "brief-diag",
         "device-stack-protector"},
        {Act::Drop, Val::Bool});
    Add({"Werror"}, {Act::Drop, Val::Kind});
    // Dropped, no value.
    Add({"cuda", "cubin", "fatbin", "ptx", "optix-ir", "ltoir", "preprocess", "E", "device-w", "dw",
         "device-link", "dlink", "link", "lib", "run", "objdir-as-tempdir", "objtemp",
         "allow-unsupported-compiler", "use-local-env", "force-cl-env-setup", "profile", "pg",
         "generate-line-info", "lineinfo", "dlink-time-opt", "dlto", "lto", "gen-opt-lto", "shared",
         "no-host-device-initializer-list", "nohdinitlist", "no-host-device-move-forward",
         "nohdmoveforward", "m64", "dont-use-profile", "noprof", "dryrun", "verbose", "v",
         "fdevice-syntax-only", "keep", "save-temps", "clean-targets", "clean", "no-align-double",
         "no-device-link", "nodlink", "extra-device-vectorization", "keep-device-functions",
         "source-in-ptx", "src-in-ptx", "restrict", "Wdefault-stream-launch",
         "Wmissing-launch-bounds", "Wext-lambda-captures-this", "Wno-deprecated-gpu-targets",
         "resource-usage", "res-usage", "extensible-whole-program", "ewp", "no-compress",
         "compile-as-tools-patch", "astoolspatch", "list-gpu-code", "code-ls", "list-gpu-arch",
         "arch-ls", "display-error-number", "err-no", "no-display-error-number", "no-err-no",
         "augment-host-linker-script", "aug-hls", "relocatable-link", "r", "relocatable-ptx",
         "reloc-ptx", "jobserver", "help", "h", "version", "V"},
        {Act::Drop, Val::None});
    return T;
  }();
  return Table;
}

const OptInfo *lookupOption(const std::string &Name) {
  const auto &T = nvccOptions();
  auto It = T.find(Name);
  return It == T.end() ? nullptr : &It->second;
}

bool isOptionsFileFlag(const std::string &Name) { return Name == "options-file" || Name == "optf"; }

// ---------------------------------------------------------------------------
// --options-file and @file expansion.

struct Expander {
  std::string Directory;
  std::string Error;

  void addError(const std::string &Msg) {
    if (!Error.empty())
      Error += "; ";
    Error += Msg;
  }

  void readFile(const std::string &File, const std::string &What, int Depth,
                std::vector<std::string> &Out) {
    if (Depth >= kMaxOptionsFileDepth) {
      addError(What + " '" + File + "' nested more than " + std::to_string(kMaxOptionsFileDepth) +
               " levels deep (does it name itself?)");
      return;
    }
    namespace fs = std::filesystem;
    fs::path Path(File);
    if (Path.is_relative() && !Directory.empty())
      Path = fs::path(Directory) / Path;
    std::error_code Ec;
    if (!fs::is_regular_file(Path, Ec)) {
      addError("cannot read " + What + " '" + File + "' (" + Path.string() + ")");
      return;
    }
    std::ifstream In(Path, std::ios::binary);
    std::stringstream SS;
    if (In)
      SS << In.rdbuf();
    if (!In) {
      addError("cannot read " + What + " '" + File + "' (" + Path.string() + ")");
      return;
    }
    expand(splitCommandLine(SS.str()), Depth + 1, Out);
  }

  void expand(const std::vector<std::string> &In, int Depth, std::vector<std::string> &Out) {
    for (size_t I = 0; I < In.size(); ++I) {
      const std::string &Tok = In[I];
      if (Tok.size() > 1 && Tok[0] == '@') {
        readFile(Tok.substr(1), "response file", Depth, Out);
        continue;
      }
      if (Tok.size() > 1 && Tok[0] == '-') {
        std::string Body = Tok.substr(startsWith(Tok, "--") ? 2 : 1);
        size_t Eq = Body.find('=');
        if (isOptionsFileFlag(Body.substr(0, Eq))) {
          std::string Value;
          if (Eq != std::string::npos) {
            Value = Body.substr(Eq + 1);
          } else if (I + 1 < In.size()) {
            Value = In[++I];
          } else {
            addError(Tok + " at the end of the command names no file");
            continue;
          }
          for (const std::string &File : splitList(Value))
            readFile(File, "options file", Depth, Out);
          continue;
        }
      }
      Out.push_back(Tok);
    }
  }
};

// ---------------------------------------------------------------------------

struct PtxasState {
  bool PendingMaxRReg = false;
};

void takePtxasItem(const std::string &Item, PtxasState &S, TranslatedCommand &R) {
  R.ptxasFlags.push_back(Item);
  if (S.PendingMaxRReg) {
    S.PendingMaxRReg = false;
    if (auto N = parsePositiveInt(Item))
      R.maxRegisterCount = *N;
    return;
  }
  if (Item == "-maxrregcount" || Item == "--maxrregcount") {
    S.PendingMaxRReg = true;
    return;
  }
  for (std::string_view P : {"-maxrregcount=", "--maxrregcount="})
    if (startsWith(Item, P)) {
      if (auto N = parsePositiveInt(std::string_view(Item).substr(P.size())))
        R.maxRegisterCount = *N;
      else
        R.notes.push_back("ptxas option '" + Item + "' has no valid register count; ignored");
    }
}

void addArch(std::vector<std::string> &Archs, const std::string &A) {
  if (std::find(Archs.begin(), Archs.end(), A) == Archs.end())
    Archs.push_back(A);
}

// The arch as Clang 22 spells it: it has no family-specific targets (sm_100f),
// the arch-specific one (sm_100a) offers a superset of their features.
std::string clangArchName(const std::string &A, TranslatedCommand &R) {
  if (A.size() > 4 && A.back() == 'f' && std::isdigit(static_cast<unsigned char>(A[A.size() - 2]))) {
    std::string C = A.substr(0, A.size() - 1) + "a";
    R.notes.push_back(A + ": Clang 22 has no family-specific targets; parsed as " + C);
    return C;
  }
  return A;
}

TranslatedCommand translateClang(const std::vector<std::string> &Argv, size_t Compiler) {
  TranslatedCommand R;
  R.clangArgs.assign(Argv.begin() + static_cast<std::ptrdiff_t>(Compiler), Argv.end());
  PtxasState Ptxas;
  auto TakeArchs = [&R](const std::string &Value) {
    for (const std::string &V : splitList(Value)) {
      if (V == "native" || V == "all") {
        R.symbolicArch = V;
      } else if (auto A = normalizeArch(V)) {
        addArch(R.archs, *A);
      }
    }
  };
  const auto &A = R.clangArgs;
  for (size_t I = 1; I < A.size(); ++I) {
    const std::string &Tok = A[I];
    bool HasNext = I + 1 < A.size();
    if (startsWith(Tok, "--cuda-gpu-arch=")) {
      TakeArchs(Tok.substr(16));
    } else if (startsWith(Tok, "--offload-arch=")) {
      TakeArchs(Tok.substr(15));
    } else if ((Tok == "--cuda-gpu-arch" || Tok == "--offload-arch") && HasNext) {
      TakeArchs(A[++I]);
    } else if (startsWith(Tok, "--no-cuda-gpu-arch=") || startsWith(Tok, "--no-offload-arch=")) {
      for (const std::string &V : splitList(Tok.substr(Tok.find('=') + 1))) {
        if (V == "all") {
          R.archs.clear();
        } else if (auto N = normalizeArch(V)) {
          R.archs.erase(std::remove(R.archs.begin(), R.archs.end(), *N), R.archs.end());
        }
      }
    } else if (Tok == "-Xcuda-ptxas" && HasNext) {
      takePtxasItem(A[++I], Ptxas, R);
    } else if (Tok == "-fgpu-rdc") {
      R.relocatableDeviceCode = true;
    } else if (Tok == "-fno-gpu-rdc") {
      R.relocatableDeviceCode = false;
    } else if (Tok == "--cuda-noopt-device-debug") {
      R.deviceDebug = true;
    }
  }
  return R;
}

class NvccTranslator {
public:
  NvccTranslator(std::vector<std::string> Tokens, TranslatedCommand &R)
      : T(std::move(Tokens)), R(R) {}

  void run() {
    for (const std::string &Tok : T)
      if (Tok == "-forward-unknown-to-host-compiler" || Tok == "--forward-unknown-to-host-compiler" ||
          Tok == "-forward-unknown-opts" || Tok == "--forward-unknown-opts")
        ForwardUnknown = true;
    for (I = 0; I < T.size(); ++I)
      one();
    finish();
  }

private:
  std::vector<std::string> T;
  TranslatedCommand &R;
  size_t I = 0;
  bool ForwardUnknown = false;

  std::vector<std::string> Flags, Inputs;
  std::optional<std::string> Lang;
  bool Rdc = false;
  // Archs: each -gencode where it stands; -arch/-code together where the first of them stands.
  std::vector<std::pair<size_t, std::vector<std::string>>> ArchEvents;
  std::vector<std::string> ArchValues, CodeValues;
  std::optional<size_t> ArchPairPos;
  PtxasState Ptxas;
  // A host flag whose value is in the next -Xcompiler item (-Xcompiler -isystem -Xcompiler /x).
  std::optional<std::pair<std::string, bool>> PendingHost; // flag, pass?

  void drop(const std::string &Spelled) { R.droppedFlags.push_back(Spelled); }

  void hostItem(const std::string &Item, const std::string &Origin) {
    if (PendingHost) {
      auto [Flag, Pass] = *PendingHost;
      PendingHost.reset();
      if (Pass) {
        Flags.push_back(Flag);
        Flags.push_back(Item);
      } else {
        drop(Origin + Flag + " " + Item);
      }
      return;
    }
    switch (classifyHostFlag(Item)) {
    case HostKind::Pass:
      Flags.push_back(Item);
      break;
    case HostKind::PassWithValue:
      PendingHost = {Item, true};
      break;
    case HostKind::Drop:
      drop(Origin + Item);
      break;
    case HostKind::DropWithValue:
      PendingHost = {Item, false};
      break;
    }
  }

  void unknownFlag(const std::string &Tok) {
    if (!ForwardUnknown) {
      drop(Tok);
      return;
    }
    HostKind K = classifyHostFlag(Tok);
    if (K == HostKind::Pass) {
      Flags.push_back(Tok);
    } else if (K == HostKind::Drop) {
      drop(Tok);
    } else if (I + 1 < T.size()) {
      const std::string &V = T[++I];
      if (K == HostKind::PassWithValue) {
        Flags.push_back(Tok);
        Flags.push_back(V);
      } else {
        drop(Tok + " " + V);
      }
    } else {
      drop(Tok);
      R.notes.push_back(Tok + " at the end of the command has no value");
    }
  }

  static bool looksLikeLevel(const std::string &V) {
    return V == "0" || V == "1" || V == "2" || V == "3" || V == "s" || V == "z" || V == "g" ||
           V == "fast";
  }

  void one() {
    const std::string &Tok = T[I];
    if (Tok.empty())
      return;
    if (Tok[0] != '-' || Tok == "-") {
      Inputs.push_back(Tok);
      return;
    }
    std::string Body = Tok.substr(startsWith(Tok, "--") ? 2 : 1);
    size_t Eq = Body.find('=');
    std::string Name = Body.substr(0, Eq);
    std::optional<std::string> Joined;
    if (Eq != std::string::npos)
      Joined = Body.substr(Eq + 1);
    const OptInfo *Info = lookupOption(Name);
    if (!Info && !startsWith(Tok, "--")) {
      // Joined short forms: -DFOO=1, -I/path, -O3, -lfoo, -isystem/path.
      for (std::string_view P : {"isystem", "MF", "MT", "D", "U", "I", "L", "l", "O"}) {
        if (startsWith(Body, P) && Body.size() > P.size()) {
          Info = lookupOption(std::string(P));
          Name = P;
          Joined = Body.substr(P.size());
          break;
        }
      }
    }
    if (!Info) {
      unknownFlag(Tok);
      return;
    }

    std::string Spelled = Tok;
    std::string Value;
    bool HaveValue = false;
    if (Info->V != Val::None) {
      if (Joined) {
        Value = *Joined;
        HaveValue = true;
      } else if (I + 1 < T.size()) {
        const std::string &Next = T[I + 1];
        bool Take = true;
        if (Info->V == Val::Bool)
          Take = Next == "true" || Next == "false";
        else if (Info->V == Val::Level)
          Take = looksLikeLevel(Next);
        else if (Info->V == Val::Kind)
          Take = !Next.empty() && Next[0] != '-';
        if (Take) {
          Value = Next;
          HaveValue = true;
          Spelled += " " + Next;
          ++I;
        }
      }
      if (!HaveValue && Info->V == Val::Any) {
        if (Info->A != Act::Silent)
          drop(Tok);
        R.notes.push_back(Tok + " at the end of the command has no value");
        return;
      }
    }

    switch (Info->A) {
    case Act::Arch:
      if (!ArchPairPos)
        ArchPairPos = I;
      for (const std::string &V : splitList(Value)) {
        std::string Clean = trimQuotesAndBrackets(V);
        if (Clean == "native" || Clean == "all" || Clean == "all-major") {
          R.symbolicArch = Clean;
          drop(Spelled);
          R.notes.push_back(Spelled + ": the target archs " +
                            (Clean == "native" ? std::string("depend on the GPUs of the build machine")
                                               : "are a list the toolkit chooses") +
                            "; none recorded, name the GPU to analyse for");
        } else if (auto A = normalizeArch(Clean)) {
          ArchValues.push_back(*A);
        } else {
          drop(Spelled);
          R.notes.push_back(Spelled + ": unrecognized arch '" + V + "'");
        }
      }
      break;
    case Act::Code:
      if (!ArchPairPos)
        ArchPairPos = I;
      for (const std::string &V : splitList(trimQuotesAndBrackets(Value))) {
        if (auto A = normalizeArch(V))
          CodeValues.push_back(*A);
        else
          R.notes.push_back(Spelled + ": unrecognized code '" + V + "'");
      }
      break;
    case Act::Gencode:
      if (auto Archs = parseGencode(Value)) {
        ArchEvents.emplace_back(I, *Archs);
      } else {
        drop(Spelled);
        R.notes.push_back(Spelled + ": no arch found in it");
      }
      break;
    case Act::MaxRReg:
      if (auto N = parsePositiveInt(trimQuotesAndBrackets(Value))) {
        R.maxRegisterCount = *N;
      } else {
        drop(Spelled);
        R.notes.push_back(Spelled + ": not a register count");
      }
      break;
    case Act::Rdc:
      if (Value == "true") {
        Rdc = true;
      } else if (Value == "false") {
        Rdc = false;
      } else {
        drop(Spelled);
        R.notes.push_back(Spelled + ": expected true or false");
      }
      break;
    case Act::DeviceC:
      Rdc = true;
      break;
    case Act::Xcompiler:
      for (const std::string &Part : splitList(Value))
        for (const std::string &Item : splitCommandLine(Part))
          hostItem(Item, "-Xcompiler ");
      break;
    case Act::Xptxas:
      drop(Spelled);
      for (const std::string &Part : splitList(Value))
        for (const std::string &Item : splitCommandLine(Part))
          takePtxasItem(Item, Ptxas, R);
      break;
    case Act::Define:
      for (const std::string &V : splitList(Value))
        Flags.push_back("-D" + V);
      break;
    case Act::Undef:
      for (const std::string &V : splitList(Value))
        Flags.push_back("-U" + V);
      break;
    case Act::Include:
      for (const std::string &V : splitList(Value))
        Flags.push_back("-I" + V);
      break;
    case Act::SysInclude:
      for (const std::string &V : splitList(Value)) {
        Flags.push_back("-isystem");
        Flags.push_back(V);
      }
      break;
    case Act::PreInclude:
      for (const std::string &V : splitList(Value)) {
        Flags.push_back("-include");
        Flags.push_back(V);
      }
      break;
    case Act::Optimize:
      Flags.push_back("-O" + Value);
      break;
    case Act::Lang:
      if (Value == "cu" || Value == "cuda") {
        Lang = "cuda";
      } else if (Value == "c++" || Value == "c") {
        Lang = Value;
      } else {
        drop(Spelled);
        R.notes.push_back(Spelled + ": unknown language");
      }
      break;
    case Act::Std:
      Flags.push_back("-std=" + Value);
      break;
    case Act::TemplBacktrace:
      Flags.push_back("-ftemplate-backtrace-limit=" + Value);
      break;
    case Act::TemplDepth:
      Flags.push_back("-ftemplate-depth=" + Value);
      break;
    case Act::Ftz:
      if (!HaveValue) {
        drop(Spelled);
      } else {
        Flags.push_back(Value == "true" ? "-fgpu-flush-denormals-to-zero"
                                        : "-fno-gpu-flush-denormals-to-zero");
      }
      break;
    case Act::DefaultStream:
      if (Value == "per-thread" || Value == "legacy") {
        Flags.push_back("-fgpu-default-stream=" + Value);
      } else if (Value == "null") {
        Flags.push_back("-fgpu-default-stream=legacy");
      } else {
        drop(Spelled);
      }
      break;
    case Act::FastMath:
      Flags.push_back("-ffast-math");
      Flags.push_back("-fgpu-flush-denormals-to-zero");
      R.notes.push_back(Spelled + ": passed as -ffast-math -fgpu-flush-denormals-to-zero "
                                  "(Clang's -ffast-math also makes device math approximate)");
      break;
    case Act::NoExceptions:
      Flags.push_back("-fno-exceptions");
      break;
    case Act::Pass:
      Flags.push_back(Info->Clang);
      break;
    case Act::DeviceDebug:
      R.deviceDebug = true;
      drop(Spelled);
      R.notes.push_back(Spelled + ": nvcc builds unoptimized device code; its register use and "
                                  "occupancy differ from a release build");
      break;
    case Act::NoteDrop:
      drop(Spelled);
      R.notes.push_back(Spelled + ": " + Info->Note);
      break;
    case Act::Drop:
      if (Info->V == Val::Bool && !HaveValue)
        R.notes.push_back(Tok + " has no true/false value");
      drop(Spelled);
      break;
    case Act::Silent:
    case Act::OptionsFile:
      break;
    }
  }

  void finish() {
    if (PendingHost) {
      drop("-Xcompiler " + PendingHost->first);
      R.notes.push_back("-Xcompiler " + PendingHost->first + " has no value");
    }
    if (Ptxas.PendingMaxRReg)
      R.notes.push_back("-Xptxas --maxrregcount has no value");
    if (ArchPairPos) {
      if (!CodeValues.empty())
        ArchEvents.emplace_back(*ArchPairPos, CodeValues);
      else if (!ArchValues.empty())
        ArchEvents.emplace_back(*ArchPairPos, ArchValues);
    }
    std::stable_sort(ArchEvents.begin(), ArchEvents.end(),
                     [](const auto &A, const auto &B) { return A.first < B.first; });
    for (const auto &Event : ArchEvents)
      for (const std::string &A : Event.second)
        addArch(R.archs, A);

    R.relocatableDeviceCode = Rdc;
    R.clangArgs.push_back("clang++");
    R.clangArgs.insert(R.clangArgs.end(), Flags.begin(), Flags.end());
    if (Rdc)
      R.clangArgs.push_back("-fgpu-rdc");
    for (const std::string &A : R.archs)
      R.clangArgs.push_back("--cuda-gpu-arch=" + clangArchName(A, R));
    if (Lang) {
      R.clangArgs.push_back("-x");
      R.clangArgs.push_back(*Lang);
    }
    R.clangArgs.insert(R.clangArgs.end(), Inputs.begin(), Inputs.end());
  }
};

} // namespace

std::vector<std::string> splitCommandLine(std::string_view S) {
  std::vector<std::string> Out;
  std::string Cur;
  bool InWord = false;
  auto IsSpace = [](char C) {
    return C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v';
  };
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (IsSpace(C)) {
      if (InWord)
        Out.push_back(std::move(Cur));
      Cur.clear();
      InWord = false;
      continue;
    }
    if (C == '\\') {
      if (I + 1 >= S.size()) {
        Cur += C; // a trailing backslash stays
        InWord = true;
        continue;
      }
      ++I;
      if (S[I] == '\n')
        continue; // line continuation
      Cur += S[I];
      InWord = true;
      continue;
    }
    InWord = true;
    if (C == '\'') {
      for (++I; I < S.size() && S[I] != '\''; ++I)
        Cur += S[I];
      continue;
    }
    if (C == '"') {
      for (++I; I < S.size() && S[I] != '"'; ++I) {
        if (S[I] == '\\' && I + 1 < S.size() &&
            std::string_view("\"\\$`\n").find(S[I + 1]) != std::string_view::npos) {
          ++I;
          if (S[I] != '\n')
            Cur += S[I];
          continue;
        }
        Cur += S[I];
      }
      continue;
    }
    Cur += C;
  }
  if (InWord)
    Out.push_back(std::move(Cur));
  return Out;
}

bool isNvccCommand(const std::vector<std::string> &Argv) {
  size_t C = compilerIndex(Argv);
  return C < Argv.size() && baseName(Argv[C]) == "nvcc";
}

bool isClangCommand(const std::vector<std::string> &Argv) {
  size_t C = compilerIndex(Argv);
  return C < Argv.size() && isClangName(baseName(Argv[C]));
}

TranslatedCommand translateCompileCommand(const std::vector<std::string> &Argv,
                                          const std::string &Directory) {
  TranslatedCommand R;
  try {
    size_t Compiler = compilerIndex(Argv);
    if (Compiler >= Argv.size()) {
      R.error = Argv.empty() ? "empty compile command" : "compile command names no compiler";
      return R;
    }
    if (baseName(Argv[Compiler]) != "nvcc")
      return translateClang(Argv, Compiler);

    Expander E{Directory, {}};
    std::vector<std::string> Tokens;
    E.expand(std::vector<std::string>(Argv.begin() + static_cast<std::ptrdiff_t>(Compiler) + 1,
                                      Argv.end()),
             0, Tokens);
    R.error = E.Error;
    R.isNvcc = true;
    NvccTranslator(std::move(Tokens), R).run();
  } catch (const std::exception &Ex) {
    // Only std::bad_alloc and the like can get here.
    R.error = std::string("internal error translating the compile command: ") + Ex.what();
  }
  return R;
}

} // namespace occlint
