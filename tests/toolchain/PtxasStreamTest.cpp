// PtxasStderrFilter and splitPtxasLogByArch: the report lines the launcher
// added come out of the build log, byte for byte, whatever the read sizes;
// the kept log splits per arch and parses.
#include "toolchain/PtxasStream.h"
#include "gpu/PtxasReport.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

using namespace occlint;

namespace {

// A compiler's stderr with the report interleaved: host compiler output,
// ptxas warnings (printed without -v too) and -v's lines.
const std::string kHost1 = "a.cu(3): warning #177-D: variable \"unused\" was declared but never referenced\n";
const std::string kWarn = "ptxas warning : Registers are spilled to local memory in function '_Z1kPf', 8 bytes spill "
                          "stores, 8 bytes spill loads\n";
const std::string kVerbose80 =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_80'\n"
    "ptxas info    : Function properties for _Z1kPf\n"
    "    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers, 8 bytes cumulative stack size, 360 bytes cmem[0]\n"
    "ptxas info    : Compile time = 1.000 ms\n";
// An advisory ptxas prints with or without -v (nvcc 13, sm_90a, setmaxnreg): it stays.
const std::string kAdvisory = "ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to "
                              "determine register count at entry.\n";
const std::string kVerbose90 = "ptxas info    : 0 bytes gmem\n"
                               "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
                               "ptxas info    : Function properties for _Z1kPf\n"
                               "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 40 registers, used 0 barriers\n"
                               "ptxas info    : Compile time = 1.000 ms\n"
                               "ptxas info    : Function properties for _Z1ff\n"
                               "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n";
const std::string kHost2 = "    int unused = 0;\n" // four spaces, like a stack line, but not one
                           "progress without a newline";

std::string filtered(const std::string &in, bool strip, size_t chunk, std::string *log = nullptr) {
  PtxasStderrFilter f(strip);
  std::string out;
  for (size_t at = 0; at < in.size(); at += chunk)
    out += f.feed(std::string_view(in).substr(at, chunk));
  out += f.finish();
  if (log)
    *log = f.log();
  return out;
}

} // namespace

TEST(PtxasStream, VerboseLines) {
  EXPECT_TRUE(isPtxasVerboseLine("ptxas info    : 0 bytes gmem"));
  EXPECT_TRUE(isPtxasVerboseLine("ptxas info    : Used 10 registers, used 0 barriers\r"));
  EXPECT_TRUE(isPtxasVerboseLine("    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"));
  EXPECT_FALSE(isPtxasVerboseLine("    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads, and more"));
  EXPECT_FALSE(isPtxasVerboseLine("     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"));
  EXPECT_TRUE(isPtxasVerboseLine("ptxas info    : 1 bytes gmem, 8 bytes cmem[4]"));
  EXPECT_TRUE(isPtxasVerboseLine(
      "ptxas info    : Overriding maximum register limit 256 for '_Z1kPf' with  40 of maxrregcount option"));
  EXPECT_FALSE(isPtxasVerboseLine("ptxas info    : (C7508) Potential Performance Loss: 'setmaxnreg' ignored; unable to "
                                  "determine register count at entry."));
  EXPECT_FALSE(isPtxasVerboseLine("ptxas info    : something a later ptxas prints"));
  EXPECT_FALSE(isPtxasVerboseLine("ptxas warning : Registers are spilled"));
  EXPECT_FALSE(isPtxasVerboseLine("    int x = 0;"));
  EXPECT_TRUE(isPtxasLine("ptxas warning : Registers are spilled"));
  EXPECT_TRUE(isPtxasLine("ptxas fatal   : Ptx assembly aborted due to errors"));
  EXPECT_FALSE(isPtxasLine("nvcc warning : The 'compute_75' architecture is deprecated"));
}

TEST(PtxasStream, StripsExactlyTheAddedLinesWhateverTheReadSizes) {
  const std::string plain = kHost1 + kWarn + kAdvisory + kHost2;
  const std::string verbose = kHost1 + kWarn + kVerbose80 + kAdvisory + kVerbose90 + kHost2;
  for (size_t chunk : {size_t(1), size_t(2), size_t(7), size_t(64), size_t(65536)}) {
    std::string log;
    EXPECT_EQ(filtered(verbose, /*strip=*/true, chunk, &log), plain) << "chunk " << chunk;
    EXPECT_EQ(log, kWarn + kVerbose80 + kAdvisory + kVerbose90) << "chunk " << chunk;
    // Asked for by the build itself: nothing taken out, the log kept all the same.
    EXPECT_EQ(filtered(verbose, /*strip=*/false, chunk, &log), verbose) << "chunk " << chunk;
    EXPECT_EQ(log, kWarn + kVerbose80 + kAdvisory + kVerbose90);
  }
  EXPECT_EQ(filtered("", true, 1), "");
  // A last line without a newline that is a report line is taken out too.
  EXPECT_EQ(filtered("x\nptxas info    : 0 bytes gmem", true, 3), "x\n");
}

TEST(PtxasStream, PassesALineOnAsSoonAsItCannotBePtxas) {
  PtxasStderrFilter f(true);
  EXPECT_EQ(f.feed("[ 50%] Buil"), "[ 50%] Buil");
  EXPECT_EQ(f.feed("ding\n"), "ding\n");
  EXPECT_EQ(f.feed("ptx"), ""); // could still be ptxas's: held
  EXPECT_EQ(f.feed("as"), "");
  EXPECT_EQ(f.feed(" info    : 0 bytes gmem\npt"), "");
  EXPECT_EQ(f.feed("x file\n"), "ptx file\n");
  EXPECT_EQ(f.feed("  "), "");
  EXPECT_EQ(f.feed("x"), "  x");
  EXPECT_EQ(f.finish(), "");
}

TEST(PtxasStream, SplitsPerArchAndEachPartParses) {
  std::string log =
      occlint::testing::readFile(std::string(OCCLINT_SOURCE_DIR) + "/test-inputs/ptxas/nvcc_multi_gencode.log");
  ASSERT_FALSE(log.empty());
  auto parts = splitPtxasLogByArch(log, std::vector<std::string>{"sm_80", "sm_90a", "sm_120"});
  ASSERT_EQ(parts.size(), 3u);
  PtxasReport whole = parsePtxasLog(log);
  for (const auto &[arch, text] : parts) {
    PtxasReport one = parsePtxasLog(text);
    ASSERT_FALSE(one.functions.empty()) << arch;
    for (const FunctionResources &fn : one.functions) {
      EXPECT_EQ(fn.arch, arch);
      const FunctionResources *same = whole.find(fn.mangledName, arch);
      ASSERT_NE(same, nullptr) << fn.mangledName;
      EXPECT_EQ(same->registers, fn.registers);
      EXPECT_EQ(same->stackFrame, fn.stackFrame);
    }
  }
  EXPECT_EQ(parsePtxasLog(parts["sm_90a"]).find("_Z9bigSharedPKfPf", "sm_90a")->registers, 18);
}

TEST(PtxasStream, WarningsGoWithTheRunTheyPrecede) {
  auto parts = splitPtxasLogByArch(kWarn + kVerbose80 + kAdvisory + kVerbose90, std::nullopt);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts["sm_80"], kWarn + kVerbose80);
  EXPECT_EQ(parts["sm_90"], kAdvisory + kVerbose90);
  PtxasReport r = parsePtxasLog(parts["sm_80"]);
  ASSERT_NE(r.find("_Z1kPf", "sm_80"), nullptr);
  EXPECT_EQ(r.find("_Z1kPf", "sm_80")->warnings.size(), 1u);
}

TEST(PtxasStream, RunsWithoutKernelsAreAttributedOnlyWithoutDoubt) {
  const std::string empty = "ptxas info    : 0 bytes gmem\n";
  // A file without kernels, two archs built: both archs ran ptxas, no kernel.
  auto parts = splitPtxasLogByArch(empty + empty, std::vector<std::string>{"sm_80", "sm_90"});
  EXPECT_EQ(parts, (std::map<std::string, std::string>{{"sm_80", ""}, {"sm_90", ""}}));
  // One arch with kernels, one without.
  parts = splitPtxasLogByArch(kVerbose80 + empty, std::vector<std::string>{"sm_80", "sm_90"});
  EXPECT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts["sm_90"], "");
  // The archs unknown, or the count does not match: only what the log names.
  EXPECT_TRUE(splitPtxasLogByArch(empty + empty, std::nullopt).empty());
  EXPECT_TRUE(splitPtxasLogByArch(empty, std::vector<std::string>{"sm_80", "sm_90"}).empty());
  EXPECT_TRUE(splitPtxasLogByArch("", std::vector<std::string>{"sm_80"}).empty());
}
