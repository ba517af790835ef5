// analyzeCompileCommand, withCaptureFlags, normalizedCompileArguments: how the
// compiler launcher reads a build's compile command.
#include "toolchain/LauncherCommand.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

using namespace occlint;
using Args = std::vector<std::string>;

namespace {

const Args kCMakeNvcc = {"/usr/local/cuda/bin/nvcc",
                         "-forward-unknown-to-host-compiler",
                         "-DSTENCIL_RADIUS=4",
                         "-I/p/include",
                         "-O3",
                         "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                         "--generate-code=arch=compute_90,code=[compute_90,sm_90]",
                         "-maxrregcount=64",
                         "-MD",
                         "-MT",
                         "CMakeFiles/k.dir/src/a.cu.o",
                         "-MF",
                         "CMakeFiles/k.dir/src/a.cu.o.d",
                         "-x",
                         "cu",
                         "-c",
                         "/p/src/a.cu",
                         "-o",
                         "CMakeFiles/k.dir/src/a.cu.o"};

std::vector<std::string> archsOf(const Args &argv) {
  auto inv = analyzeCompileCommand(argv);
  return inv.sassArchs ? *inv.sassArchs : std::vector<std::string>{"<unknown>"};
}

} // namespace

TEST(LauncherCommand, ReadsCMakesNvccCommand) {
  CompileInvocation inv = analyzeCompileCommand(kCMakeNvcc);
  EXPECT_EQ(inv.kind, LaunchedCompiler::Nvcc);
  EXPECT_EQ(inv.compilerIndex, 0u);
  EXPECT_TRUE(inv.capturable) << inv.whyNot;
  EXPECT_FALSE(inv.reportRequested);
  EXPECT_EQ(inv.source, "/p/src/a.cu");
  EXPECT_EQ(inv.output, "CMakeFiles/k.dir/src/a.cu.o");
  EXPECT_TRUE(inv.writesDepfile);
  EXPECT_EQ(inv.depfile, "CMakeFiles/k.dir/src/a.cu.o.d");
  ASSERT_TRUE(inv.sassArchs);
  EXPECT_EQ(*inv.sassArchs, (Args{"sm_80", "sm_90"}));
}

TEST(LauncherCommand, FindsTheCompilerBehindLaunchers) {
  Args argv = {"ccache", "/usr/bin/sccache", "nvcc", "-c", "a.cu", "-o", "a.o"};
  CompileInvocation inv = analyzeCompileCommand(argv);
  EXPECT_EQ(inv.compilerIndex, 2u);
  EXPECT_EQ(inv.kind, LaunchedCompiler::Nvcc);
  EXPECT_TRUE(inv.capturable);
  EXPECT_FALSE(inv.writesDepfile);
  EXPECT_EQ(inv.depfile, "");
  // Added right after the compiler, never before a launcher.
  EXPECT_EQ(withCaptureFlags(argv, inv, "/b/a.o.occlint.d"),
            (Args{"ccache", "/usr/bin/sccache", "nvcc", "-Xptxas", "-v", "-MD", "-MF", "/b/a.o.occlint.d", "-c", "a.cu",
                  "-o", "a.o"}));
  EXPECT_FALSE(analyzeCompileCommand({"ccache"}).capturable);
  EXPECT_FALSE(analyzeCompileCommand({}).capturable);
}

TEST(LauncherCommand, SeesTheReportAlreadyAskedFor) {
  for (const Args &extra : {Args{"-Xptxas", "-v"}, Args{"-Xptxas=-v"}, Args{"-Xptxas", "-O3,-v"},
                            Args{"--ptxas-options=-v"}, Args{"--ptxas-options", "--verbose"},
                            Args{"-Xptxas", "--verbose,-warn-spills"}, Args{"--resource-usage"}, Args{"-res-usage"}}) {
    Args argv = {"nvcc", "-c", "a.cu", "-o", "a.o"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    CompileInvocation inv = analyzeCompileCommand(argv);
    EXPECT_TRUE(inv.reportRequested) << extra[0];
    EXPECT_TRUE(inv.capturable) << extra[0];
    // Nothing added but the dependency file.
    EXPECT_EQ(withCaptureFlags(argv, inv, "").size(), argv.size());
  }
  EXPECT_FALSE(analyzeCompileCommand({"nvcc", "-Xptxas", "-O3,-warn-spills", "-c", "a.cu"}).reportRequested);
  EXPECT_FALSE(analyzeCompileCommand({"nvcc", "-Xcompiler", "-v", "-c", "a.cu"}).reportRequested);
  Args clang = {"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_90", "-c", "a.cpp", "-Xcuda-ptxas", "-v", "-o", "a.o"};
  CompileInvocation inv = analyzeCompileCommand(clang);
  EXPECT_EQ(inv.kind, LaunchedCompiler::Clang);
  EXPECT_TRUE(inv.capturable) << inv.whyNot;
  EXPECT_TRUE(inv.reportRequested);
  EXPECT_EQ(inv.source, "a.cpp"); // -x cuda
}

TEST(LauncherCommand, AddsClangsPtxasFlag) {
  Args argv = {"/usr/bin/clang++-22",
               "--cuda-gpu-arch=sm_80",
               "--offload-arch=sm_90",
               "-c",
               "k.cu",
               "-o",
               "k.o",
               "-MD",
               "-MF",
               "k.d"};
  CompileInvocation inv = analyzeCompileCommand(argv);
  EXPECT_EQ(inv.kind, LaunchedCompiler::Clang);
  EXPECT_TRUE(inv.capturable);
  EXPECT_EQ(inv.depfile, "k.d");
  ASSERT_TRUE(inv.sassArchs);
  EXPECT_EQ(*inv.sassArchs, (Args{"sm_80", "sm_90"}));
  Args run = withCaptureFlags(argv, inv, "");
  EXPECT_EQ(Args(run.begin(), run.begin() + 3), (Args{"/usr/bin/clang++-22", "-Xcuda-ptxas", "-v"}));
}

TEST(LauncherCommand, LeavesAloneWhatRunsNoPtxas) {
  for (const Args &argv :
       {Args{"nvcc", "-E", "a.cu"}, Args{"nvcc", "-M", "a.cu"}, Args{"nvcc", "-ptx", "a.cu", "-o", "a.ptx"},
        Args{"nvcc", "--preprocess", "a.cu"}, Args{"nvcc", "a.o", "b.o", "-o", "app"},
        Args{"nvcc", "-dlink", "a.o", "-o", "dl.o"}, Args{"nvcc", "--dryrun", "-c", "a.cu"},
        Args{"nvcc", "-v", "-c", "a.cu"}, Args{"nvcc", "-c", "a.cu", "b.cu"}, Args{"nvcc", "-c", "host.cpp"},
        Args{"nvcc", "--version"}, Args{"nvcc", "a.cu", "--run"}, Args{"gcc", "-c", "a.cu"},
        Args{"ccache", "g++", "-c", "a.cpp"}, Args{"clang++", "--cuda-host-only", "-c", "a.cu"},
        Args{"clang++", "-fsyntax-only", "a.cu"}, Args{"clang++", "-x", "cuda", "--cuda-device-only", "-S", "a.cu"},
        Args{"clang++", "-###", "-c", "a.cu"}, Args{"clang++", "-c", "a.cpp"}}) {
    CompileInvocation inv = analyzeCompileCommand(argv);
    EXPECT_FALSE(inv.capturable) << argv[1] << " " << argv.back();
    EXPECT_FALSE(inv.whyNot.empty());
  }
  // A CUDA source named otherwise, through -x cu; a compile-and-link.
  EXPECT_TRUE(analyzeCompileCommand({"nvcc", "-x", "cu", "-c", "k.cpp", "-o", "k.o"}).capturable);
  EXPECT_TRUE(analyzeCompileCommand({"nvcc", "k.cu", "-o", "app"}).capturable);
}

TEST(LauncherCommand, SassArchsAreThoseTheCommandNames) {
  EXPECT_EQ(archsOf({"nvcc", "-arch=sm_86", "-c", "a.cu"}), Args{"sm_86"});
  EXPECT_EQ(archsOf({"nvcc", "-arch", "sm_90a", "-c", "a.cu"}), Args{"sm_90a"});
  EXPECT_EQ(archsOf({"nvcc", "-arch=compute_80", "-code=sm_80,sm_86", "-c", "a.cu"}), (Args{"sm_80", "sm_86"}));
  EXPECT_EQ(archsOf({"nvcc", "-gencode", "arch=compute_90a,code=sm_90a",
                     "-gencode=arch=compute_80,code=\"sm_80,compute_80\"", "-c", "a.cu"}),
            (Args{"sm_90a", "sm_80"}));
  // PTX or LTO only: ptxas runs for no arch.
  EXPECT_EQ(archsOf({"nvcc", "-gencode", "arch=compute_90,code=compute_90", "-c", "a.cu"}), Args{});
  EXPECT_EQ(archsOf({"nvcc", "-rdc=true", "-gencode", "arch=compute_90,code=lto_90", "-c", "a.cu"}), Args{});
  // The toolkit decides.
  EXPECT_EQ(archsOf({"nvcc", "-c", "a.cu"}), Args{"<unknown>"});
  EXPECT_EQ(archsOf({"nvcc", "-arch=native", "-c", "a.cu"}), Args{"<unknown>"});
  EXPECT_EQ(archsOf({"nvcc", "-arch=all-major", "-c", "a.cu"}), Args{"<unknown>"});
  EXPECT_EQ(archsOf({"clang++", "-x", "cuda", "-c", "a.cu"}), Args{"<unknown>"});
  EXPECT_EQ(archsOf({"clang++", "--cuda-gpu-arch=sm_80,sm_90", "-c", "a.cu"}), (Args{"sm_80", "sm_90"}));
}

TEST(LauncherCommand, DependencyFileOfMDWithoutMF) {
  auto inv = analyzeCompileCommand({"nvcc", "-MD", "-c", "src/a.cu", "-o", "out/a.cu.o"});
  EXPECT_TRUE(inv.writesDepfile);
  EXPECT_EQ(inv.depfile, "out/a.cu.d");
  inv = analyzeCompileCommand(
      {"nvcc", "--generate-dependencies-with-compile", "--dependency-output=x.d", "-c", "a.cu", "-o", "a.o"});
  EXPECT_EQ(inv.depfile, "x.d");
  inv = analyzeCompileCommand({"clang++", "-MMD", "-MFk.d", "-c", "a.cu", "-o", "a.o"});
  EXPECT_EQ(inv.depfile, "k.d");
  // -MF without -MD or -MMD: no compile writes it.
  inv = analyzeCompileCommand({"nvcc", "-MF", "x.d", "-c", "a.cu", "-o", "a.o"});
  EXPECT_FALSE(inv.writesDepfile);
  EXPECT_EQ(inv.depfile, "");
}

TEST(LauncherCommand, ReadsOptionsFiles) {
  occlint::testing::ScratchDir dir;
  dir.write("flags.txt", "-c kernels.cu -o \"obj dir/k.o\" -Xptxas -v\n");
  auto inv = analyzeCompileCommand({"nvcc", "--options-file", "flags.txt"}, dir.path().string());
  EXPECT_TRUE(inv.capturable) << inv.whyNot;
  EXPECT_EQ(inv.source, "kernels.cu");
  EXPECT_EQ(inv.output, "obj dir/k.o");
  EXPECT_TRUE(inv.reportRequested);
  inv = analyzeCompileCommand({"nvcc", "@missing.rsp", "-c", "a.cu"}, dir.path().string());
  EXPECT_FALSE(inv.error.empty());
  EXPECT_TRUE(inv.capturable);
}

TEST(LauncherCommand, NormalFormDropsLaunchersAndDependencyFlags) {
  Args database = {"/usr/local/cuda/bin/nvcc", "-O3", "-x", "cu", "-c", "/p/a.cu", "-o", "a.o"};
  Args built = {"ccache", "/usr/local/cuda/bin/nvcc",
                "-O3",    "-MD",
                "-MT",    "a.o",
                "-MF",    "a.o.d",
                "-x",     "cu",
                "-c",     "/p/a.cu",
                "-o",     "a.o"};
  EXPECT_EQ(normalizedCompileArguments(built), database);
  EXPECT_EQ(normalizedCompileArguments({"clang++", "-MMD", "-MFa.d", "-MQ", "x", "-MP", "-c", "a.cu"}),
            (Args{"clang++", "-c", "a.cu"}));
  EXPECT_EQ(normalizedCompileArguments(
                {"nvcc", "--dependency-output=a.d", "--generate-dependencies-with-compile", "-c", "a.cu"}),
            (Args{"nvcc", "-c", "a.cu"}));
  EXPECT_NE(normalizedCompileArguments({"nvcc", "-O2", "-c", "a.cu"}),
            normalizedCompileArguments({"nvcc", "-O3", "-c", "a.cu"}));
}
