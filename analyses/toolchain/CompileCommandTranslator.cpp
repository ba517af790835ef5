// nvcc compile command -> Clang CUDA command: finding the compiler behind
// launchers, reading a Clang command's archs, and translating nvcc's options
// one by one. Its parts: the flag tables (NvccFlagTable.cpp), arch parsing
// (NvccArchs.cpp), --options-file and @file reading (ResponseFiles.cpp) and
// command-line text helpers (CommandLineText.cpp). docs/compile-commands.md
// has the table of what happens to each option.
#include "toolchain/CompileCommandTranslator.h"

#include "toolchain/CommandLineText.h"
#include "toolchain/NvccArchs.h"
#include "toolchain/NvccFlagTable.h"
#include "toolchain/ResponseFiles.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <exception>
#include <utility>

namespace occlint {

using namespace translator_detail;

namespace {

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
  return Name == "ccache" || Name == "sccache" || Name == "distcc" || Name == "icecc" || Name == "buildcache";
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
    if (Name.starts_with(std::string(Stem) + "-")) {
      std::string_view Rest = std::string_view(Name).substr(Stem.size() + 1);
      if (!Rest.empty() &&
          std::all_of(Rest.begin(), Rest.end(), [](char C) { return (C >= '0' && C <= '9') || C == '.'; }))
        return true;
    }
  }
  return false;
}

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
    if (Item.starts_with(P)) {
      if (auto N = parsePositiveInt(std::string_view(Item).substr(P.size())))
        R.maxRegisterCount = *N;
      else
        R.notes.push_back("ptxas option '" + Item + "' has no valid register count; ignored");
    }
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
    if (Tok.starts_with("--cuda-gpu-arch=")) {
      TakeArchs(Tok.substr(16));
    } else if (Tok.starts_with("--offload-arch=")) {
      TakeArchs(Tok.substr(15));
    } else if ((Tok == "--cuda-gpu-arch" || Tok == "--offload-arch") && HasNext) {
      TakeArchs(A[++I]);
    } else if (Tok.starts_with("--no-cuda-gpu-arch=") || Tok.starts_with("--no-offload-arch=")) {
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
  NvccTranslator(std::vector<std::string> Tokens, TranslatedCommand &R) : T(std::move(Tokens)), R(R) {}

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
  // Device code left to the device link: -code's and -gencode's raw code
  // names (lto_XX), and -dlto.
  std::vector<std::string> RawCodes, LinkTimeFromGencode, LtoArchValues;
  bool LinkTimeOpt = false;
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
    return V == "0" || V == "1" || V == "2" || V == "3" || V == "s" || V == "z" || V == "g" || V == "fast";
  }

  void one() {
    const std::string &Tok = T[I];
    if (Tok.empty())
      return;
    if (Tok[0] != '-' || Tok == "-") {
      Inputs.push_back(Tok);
      return;
    }
    std::string Body = Tok.substr(Tok.starts_with("--") ? 2 : 1);
    size_t Eq = Body.find('=');
    std::string Name = Body.substr(0, Eq);
    std::optional<std::string> Joined;
    if (Eq != std::string::npos)
      Joined = Body.substr(Eq + 1);
    const OptInfo *Info = lookupOption(Name);
    if (!Info && !Tok.starts_with("--")) {
      // Joined short forms: -DFOO=1, -I/path, -O3, -lfoo, -isystem/path.
      for (std::string_view P : {"isystem", "MF", "MT", "D", "U", "I", "L", "l", "O"}) {
        if (Body.starts_with(P) && Body.size() > P.size()) {
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
          if (Clean.starts_with("lto_"))
            addArch(LtoArchValues, *A); // -arch=lto_90: LTO-IR only
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
        RawCodes.push_back(V);
        if (auto A = normalizeArch(V))
          CodeValues.push_back(*A);
        else
          R.notes.push_back(Spelled + ": unrecognized code '" + V + "'");
      }
      break;
    case Act::Gencode:
      if (auto Archs = parseGencode(Value)) {
        ArchEvents.emplace_back(I, *Archs);
        for (const std::string &A : linkTimeOnlyArchs(gencodeCodes(Value)))
          addArch(LinkTimeFromGencode, A);
      } else {
        drop(Spelled);
        R.notes.push_back(Spelled + ": no arch found in it");
      }
      break;
    case Act::LinkTimeOpt:
      LinkTimeOpt = true;
      drop(Spelled);
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
        Flags.push_back(Value == "true" ? "-fgpu-flush-denormals-to-zero" : "-fno-gpu-flush-denormals-to-zero");
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
    // Left to the device link: -gencode's lto-only codes; -code's; and with
    // -dlto, the archs of -arch alone (nvcc then runs no ptxas for them).
    R.linkTimeArchs = LinkTimeFromGencode;
    if (ArchPairPos) {
      if (!CodeValues.empty()) {
        for (const std::string &A : linkTimeOnlyArchs(RawCodes))
          addArch(R.linkTimeArchs, A);
      } else {
        for (const std::string &A : ArchValues)
          if (LinkTimeOpt || std::find(LtoArchValues.begin(), LtoArchValues.end(), A) != LtoArchValues.end())
            addArch(R.linkTimeArchs, A);
      }
    }

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

bool isNvccCommand(const std::vector<std::string> &Argv) {
  size_t C = compilerIndex(Argv);
  return C < Argv.size() && baseName(Argv[C]) == "nvcc";
}

bool isClangCommand(const std::vector<std::string> &Argv) {
  size_t C = compilerIndex(Argv);
  return C < Argv.size() && isClangName(baseName(Argv[C]));
}

TranslatedCommand translateCompileCommand(const std::vector<std::string> &Argv, const std::string &Directory) {
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
    E.expand(std::vector<std::string>(Argv.begin() + static_cast<std::ptrdiff_t>(Compiler) + 1, Argv.end()), 0, Tokens);
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
