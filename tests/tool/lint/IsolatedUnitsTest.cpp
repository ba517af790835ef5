// Each file analysed in a process of its own (lint/IsolatedAnalysis.h) sends
// back the facts records of its own parses only. The child is a fork of
// occlint, whose record sink already holds the files analysed before it:
// sent back too, they were collected again, doubling with every file (the
// 20th file of a project took gigabytes). The outputs dedupe kernels and
// launches, so only the records themselves show it.
#include "TestFiles.h"

#include "lint/LintPipeline.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

using namespace occlint::testing;

namespace {

std::vector<std::string> writeUnits(const ScratchDir &Dir, int Count) {
  std::vector<std::string> Files;
  for (int I = 0; I < Count; ++I) {
    const std::string Name = "unit" + std::to_string(I) + ".cu";
    Dir.write(Name, "__global__ void k" + std::to_string(I) + "(float *p) { p[threadIdx.x] = 1; }\n" + "void launch" +
                        std::to_string(I) + "(float *p) { k" + std::to_string(I) + "<<<64, 128>>>(p); }\n");
    Files.push_back((Dir.path() / Name).string());
  }
  return Files;
}

void expectOneRecordPerFile(unsigned Jobs) {
  ScratchDir Dir;
  const std::vector<std::string> Files = writeUnits(Dir, 6);
  occlint::LintSettings Settings;
  Settings.noCompile = true;
  Settings.quiet = true;
  Settings.jobs = Jobs;
  Settings.checks = "-*,cuda-*";
  Settings.gpus = {"H100"};
  ASSERT_TRUE(Settings.isolateFiles); // the default: one process per file
  clang::tooling::FixedCompilationDatabase Database(Dir.path().string(), {"-x", "cuda"});
  std::string Log;
  llvm::raw_string_ostream LogStream(Log);
  const occlint::LintResult Result = occlint::runLint(Settings, Database, Files, OCCLINT_BINARY, LogStream);
  ASSERT_EQ(Result.setupExitCode, 0) << Result.error << "\n" << Log;
  std::multiset<std::string> MainFiles;
  for (const auto &Unit : Result.units)
    MainFiles.insert(Unit.mainFile);
  EXPECT_EQ(Result.units.size(), Files.size()) << Log;
  for (const std::string &File : Files)
    EXPECT_EQ(MainFiles.count(File), 1u) << File;
}

TEST(IsolatedAnalysis, EachFileSendsBackOnlyItsOwnRecordsOneJob) { expectOneRecordPerFile(1); }
TEST(IsolatedAnalysis, EachFileSendsBackOnlyItsOwnRecordsTwoJobs) { expectOneRecordPerFile(2); }

} // namespace
