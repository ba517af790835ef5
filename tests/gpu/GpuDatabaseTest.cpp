// Tests of the GPU database (data/gpus.json compiled in) and --gpu resolution.
// The expected numbers below are written out independently of the JSON file,
// from the CUDA C Programming Guide, cuda_occupancy.h (CUDA 13.0) and an H200
// measurement, so a wrong number in the file fails here.
#include "gpu/GpuDatabase.h"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace occlint;

namespace {

const GpuDatabase &db() { return GpuDatabase::builtin(); }

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string sourceJson() { return readFile(std::string(OCCLINT_SOURCE_DIR) + "/data/gpus.json"); }

// Runs fromJson and returns the exception message ("" if it did not throw).
std::string fromJsonError(const std::string &Text) {
  try {
    GpuDatabase::fromJson(Text);
  } catch (const std::runtime_error &E) {
    return E.what();
  }
  return "";
}

struct ExpectedArch {
  const char *Name;
  int Major, Minor;
  int ThreadsPerSM, BlocksPerSM, RegsPerBlock;
  int64_t SmemPerSM, SmemOptin, Reserved;
  int SmemUnit, MaxRegsPerThread, SubPartitions, Barriers, Virtual;
  size_t Carveouts;
};

// Per arch: Programming Guide inputs, then cuda_occupancy.h's rules.
const ExpectedArch kExpected[] = {
    // name    M  m  thr   blk regs/blk smem/SM  optin    resv  su  rpt sp bar vr carve
    {"sm_50", 5, 0, 2048, 32, 65536, 65536, 49152, 0, 256, 255, 4, 64, 0, 0},
    {"sm_52", 5, 2, 2048, 32, 65536, 98304, 49152, 0, 256, 255, 4, 64, 0, 0},
    {"sm_53", 5, 3, 2048, 32, 32768, 65536, 49152, 0, 256, 255, 4, 64, 0, 0},
    {"sm_60", 6, 0, 2048, 32, 65536, 65536, 49152, 0, 256, 255, 2, 64, 0, 0},
    {"sm_61", 6, 1, 2048, 32, 65536, 98304, 49152, 0, 256, 255, 4, 64, 0, 0},
    {"sm_62", 6, 2, 2048, 32, 32768, 65536, 49152, 0, 256, 255, 4, 64, 0, 0},
    {"sm_70", 7, 0, 2048, 32, 65536, 98304, 98304, 0, 256, 256, 4, 64, 0, 6},
    {"sm_72", 7, 2, 2048, 32, 65536, 98304, 98304, 0, 256, 256, 4, 64, 0, 6},
    {"sm_75", 7, 5, 1024, 16, 65536, 65536, 65536, 0, 256, 256, 4, 32, 0, 2},
    {"sm_80", 8, 0, 2048, 32, 65536, 167936, 166912, 1024, 128, 256, 4, 64, 0, 8},
    {"sm_86", 8, 6, 1536, 16, 65536, 102400, 101376, 1024, 128, 256, 4, 16, 0, 6},
    {"sm_87", 8, 7, 1536, 16, 65536, 167936, 166912, 1024, 128, 256, 4, 16, 0, 8},
    {"sm_89", 8, 9, 1536, 24, 65536, 102400, 101376, 1024, 128, 256, 4, 24, 0, 6},
    {"sm_90", 9, 0, 2048, 32, 65536, 233472, 232448, 1024, 128, 256, 4, 64, 0, 10},
    {"sm_100", 10, 0, 2048, 32, 65536, 233472, 232448, 1024, 128, 256, 4, 64, 128, 10},
    {"sm_101", 10, 1, 1536, 24, 65536, 233472, 232448, 1024, 128, 256, 4, 24, 128, 10},
    {"sm_103", 10, 3, 2048, 32, 65536, 233472, 232448, 1024, 128, 256, 4, 64, 128, 10},
    {"sm_110", 11, 0, 1536, 24, 65536, 233472, 232448, 1024, 128, 256, 4, 24, 128, 10},
    {"sm_120", 12, 0, 1536, 24, 65536, 102400, 101376, 1024, 128, 256, 4, 24, 128, 6},
    {"sm_121", 12, 1, 1536, 24, 65536, 102400, 101376, 1024, 128, 256, 4, 24, 128, 6},
};

} // namespace

TEST(GpuDatabase, BuiltinLoads) {
  ASSERT_NO_THROW(db());
  EXPECT_EQ(db().archs().size(), std::size(kExpected));
  EXPECT_GE(db().products().size(), 16u);
}

TEST(GpuDatabase, BuiltinMatchesDataFile) {
  std::string Text = sourceJson();
  ASSERT_FALSE(Text.empty()) << "cannot read data/gpus.json";
  GpuDatabase Fresh = GpuDatabase::fromJson(Text);
  EXPECT_EQ(Fresh.archs().size(), db().archs().size()) << "rebuild: the compiled-in copy is stale";
  EXPECT_EQ(Fresh.products().size(), db().products().size());
}

TEST(GpuDatabase, EveryArchPresentWithHeaderAndGuideValues) {
  for (const ExpectedArch &E : kExpected) {
    SCOPED_TRACE(E.Name);
    const ArchLimits *A = db().findArch(E.Name);
    ASSERT_NE(A, nullptr);
    EXPECT_EQ(A->name, E.Name);
    EXPECT_EQ(A->major, E.Major);
    EXPECT_EQ(A->minor, E.Minor);
    EXPECT_FALSE(A->family.empty());
    EXPECT_EQ(A->warpSize, 32);
    EXPECT_EQ(A->maxThreadsPerBlock, 1024);
    EXPECT_EQ(A->maxThreadsPerSM, E.ThreadsPerSM);
    EXPECT_EQ(A->maxWarpsPerSM, E.ThreadsPerSM / 32);
    EXPECT_EQ(A->maxBlocksPerSM, E.BlocksPerSM);
    EXPECT_EQ(A->regsPerSM, 65536);
    EXPECT_EQ(A->regsPerBlock, E.RegsPerBlock);
    EXPECT_EQ(A->regAllocUnit, 256);
    EXPECT_EQ(A->maxRegsPerThread, E.MaxRegsPerThread);
    EXPECT_EQ(A->subPartitionsPerSM, E.SubPartitions);
    EXPECT_EQ(A->sharedMemPerSM, E.SmemPerSM);
    EXPECT_EQ(A->sharedMemPerBlock, 49152);
    EXPECT_EQ(A->sharedMemPerBlockOptin, E.SmemOptin);
    EXPECT_EQ(A->reservedSharedMemPerBlock, E.Reserved);
    EXPECT_EQ(A->smemAllocUnit, E.SmemUnit);
    EXPECT_EQ(A->maxBarriersPerSM, E.Barriers);
    EXPECT_EQ(A->barrierLimitEnforced, E.Major >= 9);
    EXPECT_EQ(A->maxVirtualResourcesPerSM, E.Virtual);
    ASSERT_EQ(A->carveoutBytes.size(), E.Carveouts);
    if (!A->carveoutBytes.empty())
      EXPECT_EQ(A->carveoutBytes.back(), A->sharedMemPerSM);
    for (const char *Field :
         {"warpSize", "maxThreadsPerBlock", "maxThreadsPerSM", "maxWarpsPerSM", "maxBlocksPerSM", "regsPerSM",
          "regsPerBlock", "regAllocUnit", "maxRegsPerThread", "sharedMemPerSM", "sharedMemPerBlock",
          "sharedMemPerBlockOptin", "smemAllocUnit", "reservedSharedMemPerBlock", "maxBarriersPerSM", "carveoutBytes"})
      EXPECT_FALSE(A->sourceOf(Field).empty()) << "no source for " << Field;
    EXPECT_FALSE(A->defaultProduct.empty());
  }
}

TEST(GpuDatabase, PartitionedGlobalCachingFollowsHeader) {
  std::set<std::string> With = {"sm_52", "sm_53", "sm_61", "sm_62"};
  for (const ArchLimits &A : db().archs())
    EXPECT_EQ(A.partitionedGlobalCaching, With.count(A.name) == 1) << A.name;
}

TEST(GpuDatabase, CarveoutsFollowAlignUpShmemSizeVoltaPlus) {
  const std::vector<int64_t> Volta = {0, 8192, 16384, 32768, 65536, 98304};
  const std::vector<int64_t> Turing = {32768, 65536};
  const std::vector<int64_t> A100 = {0, 8192, 16384, 32768, 65536, 102400, 135168, 167936};
  const std::vector<int64_t> Hopper = {0, 8192, 16384, 32768, 65536, 102400, 135168, 167936, 200704, 233472};
  EXPECT_EQ(db().findArch("sm_50")->carveoutBytes, std::vector<int64_t>{});
  EXPECT_EQ(db().findArch("sm_70")->carveoutBytes, Volta);
  EXPECT_EQ(db().findArch("sm_75")->carveoutBytes, Turing);
  EXPECT_EQ(db().findArch("sm_80")->carveoutBytes, A100);
  EXPECT_EQ(db().findArch("sm_87")->carveoutBytes, A100);
  EXPECT_EQ(db().findArch("sm_90")->carveoutBytes, Hopper);
  EXPECT_EQ(db().findArch("sm_100")->carveoutBytes, Hopper);
  EXPECT_EQ(db().findArch("sm_110")->carveoutBytes, Hopper);
  std::vector<int64_t> Small = {0, 8192, 16384, 32768, 65536, 102400};
  EXPECT_EQ(db().findArch("sm_86")->carveoutBytes, Small);
  EXPECT_EQ(db().findArch("sm_89")->carveoutBytes, Small);
  EXPECT_EQ(db().findArch("sm_120")->carveoutBytes, Small);
}

TEST(GpuDatabase, GuideSpotCheckSm80) {
  const ArchLimits *A = db().findArch("sm_80");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->maxThreadsPerSM, 2048);
  EXPECT_EQ(A->maxBlocksPerSM, 32);
  EXPECT_EQ(A->regsPerSM, 65536);
  EXPECT_EQ(A->sharedMemPerSM, 164 * 1024);
  EXPECT_EQ(A->sharedMemPerSM, 167936);
  EXPECT_EQ(A->sharedMemPerBlockOptin, 163 * 1024);
  EXPECT_EQ(A->sharedMemPerBlockOptin, 166912);
  EXPECT_EQ(A->defaultProduct, "A100 80GB");
}

TEST(GpuDatabase, MeasuredH200Sm90) {
  const ArchLimits *A = db().findArch("sm_90");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->family, "Hopper");
  EXPECT_EQ(A->regsPerSM, 65536);
  EXPECT_EQ(A->regsPerBlock, 65536);
  EXPECT_EQ(A->maxThreadsPerSM, 2048);
  EXPECT_EQ(A->maxBlocksPerSM, 32);
  EXPECT_EQ(A->sharedMemPerSM, 233472);
  EXPECT_EQ(A->sharedMemPerBlockOptin, 232448);
  EXPECT_EQ(A->reservedSharedMemPerBlock, 1024);
  EXPECT_EQ(A->sharedMemPerBlock, 48 * 1024);
  EXPECT_NE(A->sourceOf("sharedMemPerSM").find("measured on H200"), std::string::npos);
}

TEST(GpuDatabase, DefaultProductsExistAndMatchArch) {
  for (const ArchLimits &A : db().archs()) {
    SCOPED_TRACE(A.name);
    const GpuProduct *P = db().findProduct(A.defaultProduct);
    ASSERT_NE(P, nullptr) << A.defaultProduct;
    // sm_101 is CUDA 12.8/12.9's name for Thor, which CUDA 13 calls sm_110.
    if (A.name == "sm_101")
      EXPECT_EQ(P->arch, "sm_110");
    else
      EXPECT_EQ(P->arch, A.name);
  }
}

TEST(GpuDatabase, RequiredProductsResolve) {
  struct Want {
    const char *Spec, *Arch, *Name;
    int Sms;
  };
  const Want Wants[] = {
      {"V100", "sm_70", "V100", 80},
      {"T4", "sm_75", "T4", 40},
      {"A100 40GB", "sm_80", "A100 40GB", 108},
      {"A100 80GB", "sm_80", "A100 80GB", 108},
      {"A100", "sm_80", "A100 80GB", 108},
      {"A10", "sm_86", "A10", 72},
      {"A30", "sm_80", "A30", 56},
      {"RTX 3090", "sm_86", "RTX 3090", 82},
      {"RTX 4090", "sm_89", "RTX 4090", 128},
      {"L4", "sm_89", "L4", 58},
      {"L40S", "sm_89", "L40S", 142},
      {"H100 SXM", "sm_90", "H100 SXM", 132},
      {"H100", "sm_90", "H100 SXM", 132},
      {"H100 PCIe", "sm_90", "H100 PCIe", 114},
      {"H200", "sm_90", "H200", 132},
      {"GH200", "sm_90", "GH200", 132},
      {"B200", "sm_100", "B200", 148},
      {"RTX 5090", "sm_120", "RTX 5090", 170},
      {"Jetson Nano", "sm_53", "Jetson Nano", 1},
      {"Jetson TX2", "sm_62", "Jetson TX2", 2},
      {"Jetson AGX Xavier", "sm_72", "Jetson AGX Xavier", 8},
      {"Jetson AGX Orin", "sm_87", "Jetson AGX Orin", 16},
      {"Jetson AGX Thor", "sm_110", "Jetson AGX Thor", 20},
      // Aliases and spelling variants.
      {"a100-40gb", "sm_80", "A100 40GB", 108},
      {"a100_40gb", "sm_80", "A100 40GB", 108},
      {"h100-sxm", "sm_90", "H100 SXM", 132},
      {"h100 pcie", "sm_90", "H100 PCIe", 114},
      {"rtx3090", "sm_86", "RTX 3090", 82},
      {"geforce rtx 4090", "sm_89", "RTX 4090", 128},
      {"NVIDIA H200", "sm_90", "H200", 132},
      {"  t4  ", "sm_75", "T4", 40},
  };
  for (const Want &W : Wants) {
    SCOPED_TRACE(W.Spec);
    std::string Err;
    auto T = db().resolve(W.Spec, Err);
    ASSERT_TRUE(T.has_value()) << Err;
    EXPECT_EQ(T->arch.name, W.Arch);
    EXPECT_EQ(T->productName, W.Name);
    EXPECT_EQ(T->smCount, W.Sms);
  }
}

TEST(GpuDatabase, ProductLookupIgnoresCaseSpacesDashesUnderscores) {
  const GpuProduct *P = db().findProduct("H100 PCIe");
  ASSERT_NE(P, nullptr);
  for (const char *S : {"h100 pcie", "H100-PCIE", "h100_pcie", "H100PCIe", "h 1 0 0 - p c i e"})
    EXPECT_EQ(db().findProduct(S), P) << S;
  EXPECT_EQ(db().findProduct("H100 PCI"), nullptr);
  EXPECT_EQ(db().findProduct(""), nullptr);
}

TEST(GpuDatabase, ArchSpellings) {
  const ArchLimits *A = db().findArch("sm_90");
  ASSERT_NE(A, nullptr);
  for (const char *S : {"sm90", "90", "9.0", "compute_90", "SM_90", "sm_90a", " sm_90 "})
    EXPECT_EQ(db().findArch(S), A) << S;
  EXPECT_EQ(db().findArch("sm_100")->major, 10);
  EXPECT_EQ(db().findArch("12.1")->name, "sm_121");
  EXPECT_EQ(db().findArch("compute_103")->name, "sm_103");
  EXPECT_EQ(db().findArch("sm_100f")->name, "sm_100");
  EXPECT_EQ(db().findArch("sm_99"), nullptr);
  EXPECT_EQ(db().findArch("sm_35"), nullptr); // Kepler: not supported by CUDA 13
  EXPECT_EQ(db().findArch("H100"), nullptr);
  EXPECT_EQ(db().findArch(""), nullptr);
}

TEST(GpuDatabase, ResolveArchUsesDefaultProduct) {
  std::string Err;
  for (const char *S : {"sm_90", "sm90", "90", "9.0", "compute_90"}) {
    auto T = db().resolve(S, Err);
    ASSERT_TRUE(T.has_value()) << S << ": " << Err;
    EXPECT_EQ(T->arch.name, "sm_90") << S;
    EXPECT_EQ(T->productName, "H100 SXM") << S;
    EXPECT_EQ(T->smCount, 132) << S;
  }
  auto T = db().resolve("sm_80", Err);
  ASSERT_TRUE(T.has_value()) << Err;
  EXPECT_EQ(T->productName, "A100 80GB");
  EXPECT_EQ(T->smCount, 108);
  T = db().resolve("sm_53", Err);
  ASSERT_TRUE(T.has_value()) << Err;
  EXPECT_EQ(T->productName, "Jetson Nano");
  EXPECT_EQ(T->smCount, 1);
}

TEST(GpuDatabase, ResolveExplicitSmCount) {
  std::string Err;
  auto T = db().resolve("sm_90:132", Err);
  ASSERT_TRUE(T.has_value()) << Err;
  EXPECT_EQ(T->arch.name, "sm_90");
  EXPECT_EQ(T->productName, "sm_90:132");
  EXPECT_EQ(T->smCount, 132);

  T = db().resolve("89:7", Err);
  ASSERT_TRUE(T.has_value()) << Err;
  EXPECT_EQ(T->arch.name, "sm_89");
  EXPECT_EQ(T->productName, "sm_89:7");
  EXPECT_EQ(T->smCount, 7);

  T = db().resolve("H100:100", Err);
  ASSERT_TRUE(T.has_value()) << Err;
  EXPECT_EQ(T->arch.name, "sm_90");
  EXPECT_EQ(T->productName, "H100 SXM:100");
  EXPECT_EQ(T->smCount, 100);
}

TEST(GpuDatabase, ResolveErrors) {
  std::string Err;
  EXPECT_FALSE(db().resolve("sm_90:0", Err).has_value());
  EXPECT_EQ(Err.rfind("invalid SM count '0' in 'sm_90:0'", 0), 0u) << Err;
  EXPECT_FALSE(db().resolve("sm_90:abc", Err).has_value());
  EXPECT_EQ(Err.rfind("invalid SM count 'abc' in 'sm_90:abc'", 0), 0u) << Err;
  EXPECT_FALSE(db().resolve("sm_90:", Err).has_value());
  EXPECT_EQ(Err.rfind("invalid SM count '' in 'sm_90:'", 0), 0u) << Err;
  EXPECT_FALSE(db().resolve("sm_90:-4", Err).has_value());
  EXPECT_NE(Err.find("invalid SM count '-4'"), std::string::npos) << Err;

  EXPECT_FALSE(db().resolve("sm_99", Err).has_value());
  EXPECT_EQ(Err.rfind("unknown architecture 'sm_99'", 0), 0u) << Err;
  EXPECT_NE(Err.find("sm_90"), std::string::npos) << Err;
  EXPECT_FALSE(db().resolve("sm_99:10", Err).has_value());
  EXPECT_EQ(Err.rfind("unknown architecture 'sm_99'", 0), 0u) << Err;

  EXPECT_FALSE(db().resolve("", Err).has_value());
  EXPECT_FALSE(Err.empty());
  EXPECT_FALSE(db().resolve("zzzzzzzzzzzz", Err).has_value());
  EXPECT_EQ(Err.rfind("unknown GPU 'zzzzzzzzzzzz'", 0), 0u) << Err;
  for (const std::string &E : {Err})
    EXPECT_EQ(E.find('\n'), std::string::npos);
}

TEST(GpuDatabase, UnknownNameListsCloseMatches) {
  std::string Err;
  EXPECT_FALSE(db().resolve("H1000", Err).has_value());
  EXPECT_EQ(Err.rfind("unknown GPU 'H1000'; did you mean: ", 0), 0u) << Err;
  EXPECT_NE(Err.find("H100"), std::string::npos) << Err;
  EXPECT_NE(Err.find("H200"), std::string::npos) << Err;
  EXPECT_EQ(Err.find('\n'), std::string::npos) << Err;
  EXPECT_EQ(Err.back(), '?');

  auto M = db().closeMatches("A1000");
  ASSERT_FALSE(M.empty());
  EXPECT_LE(M.size(), 3u);
  EXPECT_EQ(M.front().substr(0, 4), "A100") << M.front();
  M = db().closeMatches("sm_91");
  ASSERT_FALSE(M.empty());
  EXPECT_EQ(M.front(), "sm_90");
  EXPECT_EQ(db().closeMatches("rtx 4080", 1), std::vector<std::string>{"RTX 4090"});
  EXPECT_TRUE(db().closeMatches("completely different").empty());
}

TEST(GpuDatabase, FromJsonRejectsMalformedJson) {
  std::string Msg = fromJsonError("{\"archs\": [ {\"name\": ");
  EXPECT_NE(Msg.find("malformed JSON"), std::string::npos) << Msg;
  Msg = fromJsonError("[]");
  EXPECT_NE(Msg.find("archs"), std::string::npos) << Msg;
}

TEST(GpuDatabase, FromJsonNamesMissingField) {
  std::string Text = sourceJson();
  ASSERT_FALSE(Text.empty());
  ASSERT_EQ(fromJsonError(Text), ""); // the unmodified file is accepted
  for (const char *Field : {"regsPerSM", "sharedMemPerBlockOptin", "maxBlocksPerSM", "sources"}) {
    nlohmann::json J = nlohmann::json::parse(Text);
    J["archs"][13].erase(Field);
    std::string Msg = fromJsonError(J.dump());
    EXPECT_NE(Msg.find(std::string("missing field '") + Field + "'"), std::string::npos) << Field << ": " << Msg;
    EXPECT_NE(Msg.find("sm_90"), std::string::npos) << Msg;
  }
  nlohmann::json J = nlohmann::json::parse(Text);
  J["products"][0].erase("smCount");
  std::string Msg = fromJsonError(J.dump());
  EXPECT_NE(Msg.find("missing field 'smCount'"), std::string::npos) << Msg;
}

TEST(GpuDatabase, FromJsonRejectsBadValues) {
  std::string Text = sourceJson();
  ASSERT_FALSE(Text.empty());
  auto WithArchField = [&](const char *Field, nlohmann::json V) {
    nlohmann::json J = nlohmann::json::parse(Text);
    J["archs"][0][Field] = V;
    return fromJsonError(J.dump());
  };
  EXPECT_NE(WithArchField("regsPerSM", "lots").find("'regsPerSM' must be an integer"), std::string::npos);
  EXPECT_NE(WithArchField("warpSize", 0).find("'warpSize' out of range"), std::string::npos);
  EXPECT_NE(WithArchField("maxWarpsPerSM", 63).find("'maxWarpsPerSM'"), std::string::npos);
  EXPECT_NE(WithArchField("defaultProduct", "H1000").find("unknown product 'H1000'"), std::string::npos);

  nlohmann::json J = nlohmann::json::parse(Text);
  J["archs"][0]["sources"].erase("maxBlocksPerSM");
  std::string Msg = fromJsonError(J.dump());
  EXPECT_NE(Msg.find("no entry for 'maxBlocksPerSM'"), std::string::npos) << Msg;

  J = nlohmann::json::parse(Text);
  J["products"][1]["aliases"] = {"h100"}; // already an alias of H100 SXM
  Msg = fromJsonError(J.dump());
  EXPECT_NE(Msg.find("already used"), std::string::npos) << Msg;

  J = nlohmann::json::parse(Text);
  J["products"][0]["arch"] = "sm_99";
  Msg = fromJsonError(J.dump());
  EXPECT_NE(Msg.find("unknown arch 'sm_99'"), std::string::npos) << Msg;
}
