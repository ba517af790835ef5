// `occlint resources`: the resource report of each kernel per arch (registers,
// shared memory, spills, stack, barriers), from a ptxas log or by running the
// device compile of a source file.
#include "ArgParser.h"
#include "ExitCodes.h"
#include "UserTrust.h"
#include "gpu/GpuDatabase.h"
#include "gpu/PtxasReport.h"
#include "toolchain/CompileCommandTranslator.h"
#include "toolchain/ProgramAllowlist.h"
#include "toolchain/ResourceCompiler.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace occlint {

static const char *const ResourcesHelp = R"(usage: occlint resources FILE.cu [options] [-- compiler flags]
       occlint resources --ptxas-log BUILD.LOG [options]

  --ptxas-log FILE     read a build log with ptxas -v output (nvcc -Xptxas -v, clang -Xcuda-ptxas -v)
  --gpu GPU            target (product, sm_XX or sm_XX:SMs) whose arch to compile for; repeatable
                       (default: sm_90, or the archs named by -arch/--cuda-gpu-arch in the flags)
  --cuda-path DIR      CUDA toolkit (default: $CUDA_PATH, /usr/local/cuda)
  --compiler PATH      compiler for FILE.cu (default: the toolkit's nvcc)
  --allow-compiler GLOB  also allow this program to run, e.g. an -ccbin in the flags
                       (realpath glob; repeatable; docs/security.md)
  --no-cache           always recompile
  --format text|json   output format (default text)
)";

static nlohmann::json toJson(const PtxasReport &Report) {
  nlohmann::json Functions = nlohmann::json::array();
  for (const FunctionResources &F : Report.functions) {
    nlohmann::json J = {{"name", F.mangledName},       {"displayName", F.displayName}, {"arch", F.arch},
                        {"kernel", F.isEntry},         {"registers", F.registers},     {"barriers", F.barriers},
                        {"sharedMemory", F.sharedMem}, {"stackFrame", F.stackFrame},   {"spillStores", F.spillStores},
                        {"spillLoads", F.spillLoads}};
    if (!F.sourceFile.empty())
      J["file"] = F.sourceFile;
    if (F.cumulativeStack)
      J["cumulativeStack"] = *F.cumulativeStack;
    nlohmann::json Banks = nlohmann::json::object();
    for (const auto &[Bank, Bytes] : F.constantBanks)
      Banks[std::to_string(Bank)] = Bytes;
    J["constantBanks"] = Banks;
    J["warnings"] = F.warnings;
    Functions.push_back(J);
  }
  return {{"version", 1}, {"functions", Functions}, {"warnings", Report.warnings}};
}

static void printTable(std::ostream &OS, const PtxasReport &Report) {
  std::vector<const FunctionResources *> Rows;
  for (const FunctionResources &F : Report.functions)
    Rows.push_back(&F);
  // Kernels first, then device functions; by name, then arch.
  std::stable_sort(Rows.begin(), Rows.end(), [](auto *A, auto *B) {
    return std::tie(B->isEntry, A->displayName, A->arch) < std::tie(A->isEntry, B->displayName, B->arch);
  });
  size_t NameWidth = 8;
  for (auto *F : Rows)
    NameWidth = std::max(NameWidth, std::min<size_t>(F->displayName.size(), 60));
  OS << std::left << std::setw(int(NameWidth) + 2) << "function" << std::setw(9) << "arch" << std::right << std::setw(5)
     << "regs" << std::setw(10) << "smem(B)" << std::setw(10) << "stack(B)" << std::setw(16) << "spill st/ld(B)"
     << std::setw(10) << "barriers" << "\n";
  for (auto *F : Rows) {
    std::string Name = F->displayName.size() > 60 ? F->displayName.substr(0, 57) + "..." : F->displayName;
    if (!F->isEntry)
      Name += " (device)";
    OS << std::left << std::setw(int(NameWidth) + 2) << Name << std::setw(9) << F->arch << std::right << std::setw(5)
       << F->registers << std::setw(10) << F->sharedMem << std::setw(10) << F->stackFrame << std::setw(16)
       << (std::to_string(F->spillStores) + "/" + std::to_string(F->spillLoads)) << std::setw(10) << F->barriers
       << "\n";
    for (const std::string &W : F->warnings)
      OS << "    ptxas warning: " << W << "\n";
  }
  for (const std::string &W : Report.warnings)
    OS << "ptxas warning: " << W << "\n";
}

static std::string readWholeFile(const ArgParser &Args, const std::string &Path) {
  std::error_code Ec;
  if (!std::filesystem::is_regular_file(Path, Ec))
    Args.fail(Path + ": no such file");
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    Args.fail(Path + ": cannot be read");
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

int runResourcesCommand(int Argc, const char **Argv) {
  ArgParser Args("resources", {"ptxas-log", "gpu", "cuda-path", "compiler", "format", "allow-compiler"},
                 {"help", "no-cache"});
  Args.parse(Argc, Argv);
  if (Args.has("help")) {
    std::cout << ResourcesHelp;
    return ExitOk;
  }
  const std::string Format = Args.value("format").value_or("text");
  if (Format != "text" && Format != "json")
    Args.fail("--format: '" + Format + "' is not one of text, json");

  std::vector<std::string> Files, Flags;
  bool AfterDashes = false;
  for (const std::string &P : Args.positional()) {
    if (P == "--" && !AfterDashes)
      AfterDashes = true;
    else
      (AfterDashes ? Flags : Files).push_back(P);
  }

  PtxasReport Report;
  if (auto Log = Args.value("ptxas-log")) {
    if (!Files.empty())
      Args.fail("give either --ptxas-log or a source file, not both");
    Report = parsePtxasLog(readWholeFile(Args, *Log));
    if (Report.functions.empty())
      Args.fail(*Log + ": no ptxas resource report in it (was the build run with -Xptxas -v?)");
  } else {
    if (Files.size() != 1)
      Args.fail(Files.empty() ? "no input: give FILE.cu or --ptxas-log LOG (see --help)"
                              : "one source file at a time (got " + std::to_string(Files.size()) + ")");
    readWholeFile(Args, Files.front()); // a clear error for a missing file
    CompileRequest Request;
    Request.sourceFile = Files.front();
    Request.cudaPath = Args.value("cuda-path").value_or("");
    std::optional<std::string> Toolkit = findCudaToolkit(Request.cudaPath);
    std::string Compiler = Args.value("compiler").value_or(Toolkit ? *Toolkit + "/bin/nvcc" : "nvcc");
    // What may run: the toolkit, the system host compilers, what the user
    // allowed, and the --compiler the user named here (docs/security.md).
    std::string TrustError;
    const UserTrust Trust = readUserTrust(TrustError);
    if (!TrustError.empty())
      Args.fail(TrustError);
    ProgramAllowlist Allowed = ProgramAllowlist::defaults(Toolkit.value_or(""));
    for (const std::string &Glob : Trust.allowCompilers)
      Allowed.allow(Glob);
    for (const std::string &Glob : Args.values("allow-compiler"))
      Allowed.allow(Glob);
    if (Args.has("compiler"))
      Allowed.allow(locateProgram(Compiler));
    setProcessAllowlist(std::move(Allowed));
    Request.command.push_back(Compiler);
    Request.command.insert(Request.command.end(), Flags.begin(), Flags.end());
    Request.command.push_back(Request.sourceFile);
    Request.useCache = !Args.has("no-cache");
    for (const std::string &Spec : Args.values("gpu")) {
      std::string Error;
      std::optional<TargetGpu> Gpu = GpuDatabase::builtin().resolve(Spec, Error);
      if (!Gpu)
        Args.fail("--gpu: " + Error);
      if (std::find(Request.archs.begin(), Request.archs.end(), Gpu->arch.name) == Request.archs.end())
        Request.archs.push_back(Gpu->arch.name);
    }
    if (Request.archs.empty()) // the archs the flags name (-arch, -gencode, --cuda-gpu-arch)
      Request.archs = translateCompileCommand(Request.command, "").archs;
    if (Request.archs.empty())
      Request.archs.push_back("sm_90");
    CompileOutcome Outcome = compileForResources(Request);
    for (const std::string &Program : Outcome.refusedPrograms)
      std::cerr << "occlint resources: note: did not run " << Program << ": it is not an allowed program"
                << (Outcome.hostCompilerSubstituted ? " (/usr/bin/g++ used as nvcc's host compiler instead)" : "")
                << "; to trust it, pass " << ProgramAllowlist::allowLineFor(Program) << " (docs/security.md)\n";
    for (const std::string &Flag : Outcome.droppedUnsafeFlags)
      std::cerr << "occlint resources: note: dropped '" << Flag
                << "': it would make the compiler run or load other code (docs/security.md)\n";
    if (!Outcome.ok) {
      std::cerr << "occlint resources: " << Request.sourceFile << ": " << Outcome.error << "\n";
      return ExitUsageOrInput;
    }
    Report = std::move(Outcome.report);
  }

  if (Format == "json")
    std::cout << toJson(Report).dump(2) << "\n";
  else
    printTable(std::cout, Report);
  return ExitOk;
}

} // namespace occlint
