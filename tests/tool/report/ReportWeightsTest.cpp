// KernelWeights (tool/report/ReportWeights.h): the kernel time tables of
// `occlint report --weights`, as nsys, ncu and a table of our own write them.
#include "report/ReportWeights.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

using occlint::KernelWeights;
using occlint::testing::ScratchDir;

namespace {

TEST(ReportWeights, NsysKernelSummaryGivesEachKernelItsShare) {
  ScratchDir D;
  const std::string File =
      D.write("nsys.csv", "Time (%),Total Time (ns),Instances,Avg (ns),Name\n"
                          "75.0,\"7,500\",3,2500,\"void reduce<256>(const float *, float *, int)\"\n"
                          "20.0,2000,1,2000,void saxpy(int, float, const float *, float *)\n"
                          "5.0,500,1,500,\"void reduce<512>(const float *, float *, int)\"\n");
  KernelWeights W;
  ASSERT_EQ(W.read(File), "");
  EXPECT_DOUBLE_EQ(*W.shareOf("reduce<256>"), 0.75);
  EXPECT_DOUBLE_EQ(*W.shareOf("saxpy"), 0.2);
  EXPECT_DOUBLE_EQ(*W.shareOf("reduce<512>"), 0.05);
  EXPECT_FALSE(W.shareOf("reduce<128>")) << "another instantiation is not this one";
  EXPECT_FALSE(W.shareOf("reduce")) << "two kernels of that base name: ambiguous";
  EXPECT_FALSE(W.shareOf("absent"));
}

TEST(ReportWeights, NcuCsvAfterItsOwnLinesAndAKernelOfManyLaunches) {
  ScratchDir D;
  const std::string File = D.write("ncu.csv", "==PROF== Connected to process 1\n"
                                              "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                                              "\"0\",\"fill(float*, int)\",\"100\"\n"
                                              "\"1\",\"fill(float*, int)\",\"100\"\n"
                                              "\"2\",\"scan<float>(float*)\",\"200\"\n");
  KernelWeights W;
  ASSERT_EQ(W.read(File), "");
  EXPECT_DOUBLE_EQ(*W.shareOf("fill"), 0.5);
  EXPECT_DOUBLE_EQ(*W.shareOf("scan<float>"), 0.5);
}

TEST(ReportWeights, BadFilesAreErrorsNamingTheFileAndLine) {
  ScratchDir D;
  KernelWeights W;
  EXPECT_NE(W.read((D.path() / "missing.csv").string()).find("missing.csv: cannot read"), std::string::npos);
  const std::string NoHeader = D.write("h.csv", "a,b\n1,2\n");
  EXPECT_NE(W.read(NoHeader).find("no header with a kernel column"), std::string::npos);
  const std::string BadTime = D.write("t.csv", "kernel,time\nk,fast\n");
  EXPECT_NE(KernelWeights().read(BadTime).find("t.csv:2: the time 'fast' is not a number"), std::string::npos);
  const std::string Empty = D.write("e.csv", "kernel,time\n");
  EXPECT_NE(KernelWeights().read(Empty).find("no kernel with a time"), std::string::npos);
}

} // namespace
