// The ptxas log parser against real logs committed in test-inputs/ptxas/
// (made by test-inputs/ptxas/regenerate.sh with nvcc 13.0.88, clang 22.1.8).
// Every number asserted here is one the compiler printed in those files.
#include "gpu/PtxasReport.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

using namespace occlint;

namespace {

std::string readLog(const std::string &name) {
  std::string path = std::string(OCCLINT_SOURCE_DIR) + "/test-inputs/ptxas/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "missing test input " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const FunctionResources &get(const PtxasReport &r, const std::string &name, const std::string &arch) {
  static const FunctionResources none;
  const FunctionResources *f = r.find(name, arch);
  EXPECT_NE(f, nullptr) << name << " for " << arch;
  return f ? *f : none;
}

bool hasWarning(const FunctionResources &f, const std::string &needle) {
  return std::any_of(f.warnings.begin(), f.warnings.end(),
                     [&](const std::string &w) { return w.find(needle) != std::string::npos; });
}

struct ArchNumbers {
  std::string arch;
  int bigSharedRegs, usePickRegs;
  int64_t boundsStack, boundsStores, boundsLoads;
  int64_t maxnregStack, maxnregStores, maxnregLoads;
  bool hasCmem; // sm_90 and newer print no cmem[0] in nvcc 13
};

// Read from test-inputs/ptxas/nvcc_sm*.log.
const std::vector<ArchNumbers> kPerArch = {
    {"sm_75", 10, 40, 832, 1460, 1776, 640, 1192, 1396, true},
    {"sm_80", 10, 32, 832, 1460, 1776, 640, 1192, 1396, true},
    {"sm_86", 10, 40, 776, 1344, 1668, 624, 1160, 1332, true},
    {"sm_89", 10, 40, 776, 1344, 1668, 624, 1160, 1332, true},
    {"sm_90", 18, 32, 840, 1476, 1800, 640, 1196, 1388, false},
    {"sm_100", 26, 32, 976, 1628, 2376, 624, 1180, 1372, false},
    {"sm_120", 26, 40, 1032, 1696, 2424, 600, 1172, 1364, false},
};

} // namespace

TEST(PtxasReport, PerArchNvccLogs) {
  for (const auto &n : kPerArch) {
    SCOPED_TRACE(n.arch);
    std::string digits = n.arch.substr(3);
    PtxasReport r = parsePtxasLog(readLog("nvcc_sm" + digits + ".log"));
    // kernels.cu: 5 kernels + the device function pick; spill.cu: 2; bounds.cu: 1.
    EXPECT_EQ(r.functions.size(), 9u);
    EXPECT_TRUE(r.warnings.empty());
    for (const auto &f : r.functions)
      EXPECT_EQ(f.arch, n.arch) << f.mangledName;

    auto &big = get(r, "_Z9bigSharedPKfPf", n.arch);
    EXPECT_TRUE(big.isEntry);
    EXPECT_EQ(big.registers, n.bigSharedRegs);
    EXPECT_EQ(big.barriers, 1);
    EXPECT_EQ(big.sharedMem, 40960);
    EXPECT_EQ(big.stackFrame, 0);

    auto &reduce = get(r, "_Z11blockReducePKfPf", n.arch);
    EXPECT_EQ(reduce.barriers, 1);
    EXPECT_EQ(reduce.sharedMem, 1024);

    auto &use = get(r, "_Z7usePickPKfPfi", n.arch);
    EXPECT_EQ(use.registers, n.usePickRegs);
    EXPECT_EQ(use.stackFrame, 128);
    ASSERT_TRUE(use.cumulativeStack.has_value());
    EXPECT_EQ(*use.cumulativeStack, 128);

    auto &pick = get(r, "_Z4pickPKfi", n.arch);
    EXPECT_FALSE(pick.isEntry);
    EXPECT_EQ(pick.displayName, "pick(float const*, int)");
    EXPECT_EQ(pick.registers, 0);

    auto &sf = get(r, "_Z5scaleIfEvPT_S0_i", n.arch);
    auto &sd = get(r, "_Z5scaleIdEvPT_S0_i", n.arch);
    EXPECT_EQ(sf.displayName, "void scale<float>(float*, float, int)");
    EXPECT_EQ(sd.displayName, "void scale<double>(double*, double, int)");
    EXPECT_EQ(sf.registers, 8);
    // scale<double> needs 10 registers on Blackwell (sm_100, sm_120), 8 before.
    EXPECT_EQ(sd.registers, n.arch == "sm_100" || n.arch == "sm_120" ? 10 : 8);

    auto &bounds = get(r, "_Z12hungryBoundsPKfPfi", n.arch);
    EXPECT_EQ(bounds.registers, 64);
    EXPECT_EQ(bounds.stackFrame, n.boundsStack);
    EXPECT_EQ(bounds.spillStores, n.boundsStores);
    EXPECT_EQ(bounds.spillLoads, n.boundsLoads);
    EXPECT_TRUE(hasWarning(bounds, "Registers are spilled to local memory"));

    auto &maxn = get(r, "_Z13hungryMaxnregPKfPfi", n.arch);
    EXPECT_EQ(maxn.registers, 32);
    EXPECT_EQ(maxn.stackFrame, n.maxnregStack);
    EXPECT_EQ(maxn.spillStores, n.maxnregStores);
    EXPECT_EQ(maxn.spillLoads, n.maxnregLoads);
    ASSERT_EQ(maxn.warnings.size(), 1u);
    EXPECT_NE(maxn.warnings[0].find(std::to_string(n.maxnregStores) + " bytes spill stores"), std::string::npos);

    auto &many = get(r, "_Z14tooManyThreadsPf", n.arch);
    EXPECT_TRUE(hasWarning(many, "Value of threads per SM for entry _Z14tooManyThreadsPf is out of range"));

    if (n.hasCmem) {
      EXPECT_EQ(big.constantBanks.at(0), 368);
      EXPECT_EQ(use.constantBanks.at(0), 372);
    } else {
      EXPECT_TRUE(big.constantBanks.empty());
    }
  }
}

TEST(PtxasReport, Sm75Specifics) {
  PtxasReport r = parsePtxasLog(readLog("nvcc_sm75.log"));
  auto &many = get(r, "_Z14tooManyThreadsPf", "sm_75");
  EXPECT_EQ(many.registers, 39);
  EXPECT_EQ(many.constantBanks.at(0), 360);
  // "0 bytes gmem, 256 bytes cmem[3]" is module-wide: not any function's.
  EXPECT_EQ(many.constantBanks.count(3), 0u);
}

TEST(PtxasReport, MultiGencodeAndArchVariants) {
  PtxasReport r = parsePtxasLog(readLog("nvcc_multi_gencode.log"));
  EXPECT_EQ(r.functions.size(), 18u); // 6 functions x sm_80, sm_90a, sm_120
  EXPECT_EQ(get(r, "_Z9bigSharedPKfPf", "sm_80").registers, 10);
  EXPECT_EQ(get(r, "_Z9bigSharedPKfPf", "sm_120").registers, 26);
  // sm_90a is kept as printed; a plain sm_90 query finds it too.
  auto &a = get(r, "_Z9bigSharedPKfPf", "sm_90a");
  EXPECT_EQ(a.arch, "sm_90a");
  EXPECT_EQ(a.registers, 18);
  EXPECT_EQ(r.find("_Z9bigSharedPKfPf", "sm_90"), &a);
  EXPECT_EQ(get(r, "_Z4pickPKfi", "sm_90").arch, "sm_90a");
  EXPECT_EQ(r.find("_Z9bigSharedPKfPf", "sm_9"), nullptr);
  EXPECT_EQ(r.find("_Z9bigSharedPKfPf", "sm_89"), nullptr);
  EXPECT_EQ(r.find("_Z9bigSharedPKfPf", "sm_100"), nullptr);
  EXPECT_EQ(get(r, "_Z7usePickPKfPfi", "sm_80").registers, 32);
}

TEST(PtxasReport, ArchMatchingRule) {
  EXPECT_TRUE(archMatches("sm_90", "sm_90"));
  EXPECT_TRUE(archMatches("sm_90a", "sm_90"));
  EXPECT_TRUE(archMatches("sm_100f", "sm_100"));
  EXPECT_FALSE(archMatches("sm_90", "sm_90a"));
  EXPECT_FALSE(archMatches("sm_900", "sm_90"));
  EXPECT_FALSE(archMatches("sm_90", "sm_9"));
  // An exact match is preferred over a variant.
  PtxasReport r;
  FunctionResources v, e;
  v.mangledName = e.mangledName = "_Z1kv";
  v.arch = "sm_90a";
  v.registers = 1;
  e.arch = "sm_90";
  e.registers = 2;
  r.functions = {v, e};
  EXPECT_EQ(r.find("_Z1kv", "sm_90")->registers, 2);
  EXPECT_EQ(r.find("_Z1kv", "sm_90a")->registers, 1);
  EXPECT_EQ(r.findAll("_Z1kv", "sm_90").size(), 2u);
}

TEST(PtxasReport, ResourceUsageWholeProgram) {
  // nvcc 13 --resource-usage without -rdc implies -Xptxas -v: the same format.
  PtxasReport r = parsePtxasLog(readLog("nvcc_resource_usage.log"));
  ASSERT_EQ(r.functions.size(), 2u);
  auto &b = get(r, "_Z12hungryBoundsPKfPfi", "sm_86");
  EXPECT_EQ(b.registers, 64);
  EXPECT_EQ(b.spillStores, 1344);
  EXPECT_EQ(b.spillLoads, 1668);
  EXPECT_EQ(b.constantBanks.at(0), 372);
}

TEST(PtxasReport, ResourceUsageDeviceLink) {
  // nvcc --resource-usage -dlink (rdc): nvlink's report, "(target: sm_XX)" on each line.
  PtxasReport r = parsePtxasLog(readLog("nvcc_resource_usage_dlink.log"));
  EXPECT_EQ(r.functions.size(), 10u); // 5 kernels x sm_80, sm_90
  auto &u80 = get(r, "_Z7usePickPKfPfi", "sm_80");
  EXPECT_TRUE(u80.isEntry);
  EXPECT_EQ(u80.registers, 24);
  EXPECT_EQ(u80.stackFrame, 136);
  EXPECT_EQ(u80.constantBanks.at(0), 372);
  auto &b90 = get(r, "_Z9bigSharedPKfPf", "sm_90");
  EXPECT_EQ(b90.registers, 18);
  EXPECT_EQ(b90.barriers, 1);
  EXPECT_EQ(b90.sharedMem, 41984); // nvlink counts the 1 KB the system reserves on sm_90
  EXPECT_EQ(b90.constantBanks.at(0), 544);
  EXPECT_EQ(get(r, "_Z9bigSharedPKfPf", "sm_80").sharedMem, 40960);
  // The "Resource usage is not shown" nvcc warning names no function.
}

TEST(PtxasReport, ClangXcudaPtxas) {
  PtxasReport r = parsePtxasLog(readLog("clang_sm90.log"));
  EXPECT_EQ(r.functions.size(), 6u);
  auto &u = get(r, "_Z7usePickPKfPfi", "sm_90");
  EXPECT_EQ(u.registers, 16);
  EXPECT_EQ(u.stackFrame, 128);
  EXPECT_FALSE(get(r, "_Z4pickPKfi", "sm_90").isEntry);
  EXPECT_EQ(get(r, "_Z9bigSharedPKfPf", "sm_90").sharedMem, 40960);
  EXPECT_TRUE(r.warnings.empty()); // the clang driver warning is not ptxas's
}

TEST(PtxasReport, PlainPtxas) {
  PtxasReport r = parsePtxasLog(readLog("ptxas_sm89.log"));
  ASSERT_EQ(r.functions.size(), 2u);
  auto &m = get(r, "_Z13hungryMaxnregPKfPfi", "sm_89");
  EXPECT_EQ(m.registers, 32);
  EXPECT_EQ(m.stackFrame, 624);
  EXPECT_EQ(m.spillStores, 1160);
  EXPECT_EQ(m.spillLoads, 1332);
}

TEST(PtxasReport, MakeJ2LogWithUnrelatedOutput) {
  PtxasReport r = parsePtxasLog(readLog("make_j2.log"));
  EXPECT_EQ(r.functions.size(), 8u); // kernels.cu (6) + spill.cu (2), sm_86
  EXPECT_TRUE(r.warnings.empty());   // the g++ warning and CMake lines are ignored
  EXPECT_EQ(get(r, "_Z12hungryBoundsPKfPfi", "sm_86").spillLoads, 1668);
  EXPECT_EQ(get(r, "_Z9bigSharedPKfPf", "sm_86").sharedMem, 40960);
  // Both "Building CUDA object" lines came before any ptxas output: which file a
  // block belongs to cannot be known, so none is claimed.
  for (const auto &f : r.functions)
    EXPECT_EQ(f.sourceFile, "") << f.mangledName;
}

TEST(PtxasReport, SameFunctionFromTwoFiles) {
  std::string block = readLog("nvcc_resource_usage.log");
  std::string log = "[ 25%] Building CUDA object CMakeFiles/t.dir/src/a.cu.o\n" + block +
                    "[ 50%] Building CUDA object CMakeFiles/t.dir/src/b.cu.o\n" + block;
  PtxasReport r = parsePtxasLog(log);
  auto all = r.findAll("_Z12hungryBoundsPKfPfi", "sm_86");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->sourceFile, "src/a.cu");
  EXPECT_EQ(all[1]->sourceFile, "src/b.cu");

  // An echoed nvcc command names the file too.
  PtxasReport e = parsePtxasLog("/usr/local/cuda/bin/nvcc -c -O3 x/k.cu -o k.o\n" + block);
  EXPECT_EQ(get(e, "_Z12hungryBoundsPKfPfi", "sm_86").sourceFile, "x/k.cu");

  // Same function, arch and (unknown) file twice: the last one is kept.
  std::string second = block;
  second.replace(second.find("Used 64 registers"), 17, "Used 63 registers");
  PtxasReport s = parsePtxasLog(block + second);
  ASSERT_EQ(s.findAll("_Z12hungryBoundsPKfPfi", "sm_86").size(), 1u);
  EXPECT_EQ(get(s, "_Z12hungryBoundsPKfPfi", "sm_86").registers, 63);

  // merge follows the same rule.
  PtxasReport m = parsePtxasLog(block);
  m.merge(s);
  EXPECT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(get(m, "_Z12hungryBoundsPKfPfi", "sm_86").registers, 63);
}

TEST(PtxasReport, OlderLineForms) {
  // Forms older toolkits print: no barriers, several cmem banks, a+b sums.
  PtxasReport r = parsePtxasLog("ptxas info    : Compiling entry function '_Z1kPfS_' for 'sm_52'\n"
                                "ptxas info    : Function properties for _Z1kPfS_\n"
                                "    72 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : Used 46 registers, 176 bytes cmem[0], 16 bytes cmem[14]\n"
                                "ptxas info    : Compiling entry function '_Z1jv' for 'sm_20'\n"
                                "ptxas info    : Used 6 registers, 16+16 bytes smem, 328 bytes cmem[0]\n");
  auto &k = get(r, "_Z1kPfS_", "sm_52");
  EXPECT_EQ(k.registers, 46);
  EXPECT_EQ(k.stackFrame, 72);
  EXPECT_EQ(k.constantBanks.at(14), 16);
  EXPECT_EQ(get(r, "_Z1jv", "sm_20").sharedMem, 32);
}

TEST(PtxasReport, CuobjdumpResourceUsageForm) {
  // The layout of `cuobjdump -res-usage` (no cuobjdump in this toolkit install,
  // so this excerpt is typed after its documented format, not a committed log).
  PtxasReport r =
      parsePtxasLog("Fatbin elf code:\n================\narch = sm_52\ncode version = [1,7]\n"
                    "producer = <unknown>\nhost = linux\ncompile_size = 64bit\n\nResource usage:\n"
                    " Common:\n  GLOBAL:0\n Function _Z1kPfS_:\n"
                    "  REG:17 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:336 CONSTANT[2]:60 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
                    " Function _Z1ff:\n  REG:14 STACK:8 SHARED:0 LOCAL:0 TEXTURE:0 SURFACE:0 SAMPLER:0\n");
  ASSERT_EQ(r.functions.size(), 2u);
  auto &k = get(r, "_Z1kPfS_", "sm_52");
  EXPECT_EQ(k.registers, 17);
  EXPECT_EQ(k.constantBanks.at(2), 60);
  EXPECT_EQ(get(r, "_Z1ff", "sm_52").stackFrame, 8);
}

TEST(PtxasReport, UnattributableThingsAreDropped) {
  PtxasReport r = parsePtxasLog("ptxas info    : Used 12 registers\n" // no function yet
                                "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "nvlink info    : Function properties for '_Z1kv':\n" // no target arch
                                "nvlink info    : used 9 registers, used 0 barriers, 0 stack, 0 bytes smem\n"
                                "ptxas warning : some warning naming nothing\n"
                                "ptxas info    : Compiling entry function '_Z1kv' for 'not an arch'\n");
  EXPECT_TRUE(r.functions.empty());
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "some warning naming nothing");
}

TEST(PtxasReport, DeviceFunctionBeforeAnyEntryLearnsArch) {
  // -rdc: a device function's properties can precede the run's first entry.
  PtxasReport r = parsePtxasLog("ptxas info    : 0 bytes gmem\n"
                                "ptxas info    : Function properties for _Z1ff\n"
                                "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                                "ptxas info    : 0 bytes gmem\n"
                                "ptxas info    : Compiling entry function '_Z1kPfS_' for 'sm_52'\n"
                                "ptxas info    : Function properties for _Z1kPfS_\n"
                                "ptxas info    : Function properties for _Z1gf\n"
                                "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n");
  EXPECT_EQ(r.find("_Z1ff", "sm_52"), nullptr); // its run never named an arch
  auto &g = get(r, "_Z1gf", "sm_52");
  EXPECT_EQ(g.stackFrame, 16);
  EXPECT_FALSE(g.isEntry);
}

TEST(PtxasReport, Demangle) {
  EXPECT_EQ(demangleForDisplay("_Z4fillPf"), "fill(float*)");
  EXPECT_EQ(demangleForDisplay("plain_c_kernel"), "plain_c_kernel");
  EXPECT_EQ(demangleForDisplay("_Z"), "_Z");
  EXPECT_EQ(demangleForDisplay("_Zgarbage!!"), "_Zgarbage!!");
}

TEST(PtxasReport, FuzzedLogsNeverCrash) {
  std::vector<std::string> logs;
  for (const char *n : {"nvcc_sm75.log", "nvcc_sm90.log", "nvcc_multi_gencode.log", "nvcc_resource_usage_dlink.log",
                        "clang_sm90.log", "make_j2.log"})
    logs.push_back(readLog(n));
  std::mt19937 rng(12345);
  for (int iter = 0; iter < 300; ++iter) {
    std::string text = logs[iter % logs.size()];
    std::vector<std::string> lines;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);)
      lines.push_back(l);
    switch (iter % 4) {
    case 0:
      std::shuffle(lines.begin(), lines.end(), rng);
      break;
    case 1: // truncate lines at random points
      for (auto &l : lines)
        if (!l.empty() && rng() % 3 == 0)
          l.resize(rng() % l.size());
      break;
    case 2: // flip bytes
      for (auto &l : lines)
        for (auto &c : l)
          if (rng() % 40 == 0)
            c = static_cast<char>(rng() % 256);
      break;
    case 3: // interleave two logs line by line
    {
      std::stringstream other(logs[(iter + 1) % logs.size()]);
      std::vector<std::string> merged;
      std::string o;
      for (auto &l : lines) {
        merged.push_back(l);
        if (rng() % 2 && std::getline(other, o))
          merged.push_back(o);
      }
      lines = merged;
    } break;
    }
    std::string out;
    for (auto &l : lines)
      out += l + (rng() % 10 ? "\n" : "\r\n");
    out.resize(rng() % (out.size() + 1)); // cut anywhere
    PtxasReport r;
    EXPECT_NO_THROW(r = parsePtxasLog(out));
    for (const auto &f : r.functions) {
      EXPECT_FALSE(f.mangledName.empty());
      EXPECT_FALSE(f.arch.empty());
    }
  }
  // Pathological inputs.
  EXPECT_NO_THROW(parsePtxasLog(std::string(1 << 20, '\'')));
  EXPECT_NO_THROW(parsePtxasLog("ptxas info    : Used 99999999999999999999999 registers"));
  EXPECT_NO_THROW(parsePtxasLog(std::string("ptxas info    : Compiling entry function '") + '\0' + "' for 'sm_90'\n"));
}

// A log cut short after a kernel's "Compiling entry function" line (or in the
// middle of its "Used" line) says nothing about its registers: the kernel is
// left out (registers unknown, estimated), never reported with 0 registers.
TEST(PtxasReport, AKernelWhoseUsedLineIsCutIsLeftOut) {
  const char *Cut = "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                    "ptxas info    : Function properties for _Z1kPf\n"
                    "ptxas info    : Used 3";
  EXPECT_EQ(occlint::parsePtxasLog(Cut).find("_Z1kPf", "sm_90"), nullptr);
  const char *Whole = "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                      "ptxas info    : Function properties for _Z1kPf\n"
                      "ptxas info    : Used 0 registers, used 0 barriers, 352 bytes cmem[0]\n";
  const occlint::PtxasReport Report = occlint::parsePtxasLog(Whole); // find points into it
  const occlint::FunctionResources *K = Report.find("_Z1kPf", "sm_90");
  ASSERT_NE(K, nullptr);
  EXPECT_EQ(K->registers, 0);
  EXPECT_TRUE(K->registersReported);
}
