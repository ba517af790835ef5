// Tests of the nvcc -> Clang compile command translation. The CMake command
// lines below were written by CMake 3.25.1 (Ninja and Unix Makefiles
// generators) for nvcc 13.0 into compile_commands.json, copied verbatim.
#include "toolchain/CompileCommandTranslator.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

using namespace occlint;
namespace fs = std::filesystem;

namespace {

using Args = std::vector<std::string>;

TranslatedCommand tr(const std::string &Command, const std::string &Dir = "/build") {
  return translateCompileCommand(splitCommandLine(Command), Dir);
}

bool contains(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

// Index of S in V, or -1.
long indexOf(const std::vector<std::string> &V, const std::string &S) {
  auto It = std::find(V.begin(), V.end(), S);
  return It == V.end() ? -1 : It - V.begin();
}

std::string joined(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V)
    Out += (Out.empty() ? "" : " ") + S;
  return Out;
}

// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
public:
  TempDir() {
    static std::atomic<int> Counter{0};
    Path = fs::temp_directory_path() / ("occlint-cct-" + std::to_string(::getpid()) + "-" + std::to_string(Counter++));
    fs::remove_all(Path);
    fs::create_directories(Path);
  }
  ~TempDir() {
    std::error_code Ec;
    fs::remove_all(Path, Ec);
  }
  std::string write(const std::string &Rel, const std::string &Text) const {
    fs::path P = Path / Rel;
    fs::create_directories(P.parent_path());
    std::ofstream(P, std::ios::binary) << Text;
    return P.string();
  }
  std::string str() const { return Path.string(); }

private:
  fs::path Path;
};

// --- Real CMake-written commands ------------------------------------------------

// CMAKE_CUDA_ARCHITECTURES "75;90", Release, Ninja; target_compile_options
// -maxrregcount=64 --use_fast_math -lineinfo --expt-relaxed-constexpr;
// a definition, an include directory and cuda_std_17.
const char *kCMakeNinjaA = "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 -I/tmp/cmproj/inc -O3 "
                           "-DNDEBUG --generate-code=arch=compute_75,code=[compute_75,sm_75] "
                           "--generate-code=arch=compute_90,code=[compute_90,sm_90] -maxrregcount=64 --use_fast_math "
                           "-lineinfo --expt-relaxed-constexpr -std=c++17 -x cu -c /tmp/cmproj/a.cu -o "
                           "CMakeFiles/a.dir/a.cu.o";
// The same as Ninja runs it (ninja -t commands): with the dependency-file flags.
const char *kCMakeNinjaBuildA =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 -I/tmp/cmproj/inc -O3 "
    "-DNDEBUG --generate-code=arch=compute_75,code=[compute_75,sm_75] "
    "--generate-code=arch=compute_90,code=[compute_90,sm_90] -maxrregcount=64 --use_fast_math "
    "-lineinfo --expt-relaxed-constexpr -std=c++17 -MD -MT CMakeFiles/a.dir/a.cu.o -MF "
    "CMakeFiles/a.dir/a.cu.o.d -x cu -c /tmp/cmproj/a.cu -o CMakeFiles/a.dir/a.cu.o";
// CUDA_SEPARABLE_COMPILATION ON, POSITION_INDEPENDENT_CODE ON.
const char *kCMakeNinjaRdcB =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -O3 -DNDEBUG "
    "--generate-code=arch=compute_75,code=[compute_75,sm_75] "
    "--generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC -std=c++17 -x cu "
    "-rdc=true -c /tmp/cmproj/b.cu -o CMakeFiles/b.dir/b.cu.o";
// CUDA_ARCHITECTURES "80-real;86-virtual".
const char *kCMakeNinjaRealVirtualC =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -O3 -DNDEBUG "
    "--generate-code=arch=compute_80,code=[sm_80] --generate-code=arch=compute_86,code=[compute_86] "
    "-std=c++17 -x cu -c /tmp/cmproj/c.cu -o CMakeFiles/c.dir/c.cu.o";
// Unix Makefiles, Debug: include directories go through an options file
// (CMakeFiles/a.dir/includes_CUDA.rsp, holding "-I/tmp/cmproj/inc\n"),
// and empty variables leave runs of spaces.
const char *kCMakeMakeA =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO=1 --options-file "
    "CMakeFiles/a.dir/includes_CUDA.rsp -g --generate-code=arch=compute_75,code=[compute_75,sm_75] "
    "--generate-code=arch=compute_90,code=[compute_90,sm_90] -maxrregcount=64 --use_fast_math "
    "-lineinfo --expt-relaxed-constexpr -std=c++17 -x cu -c /tmp/cmproj/a.cu -o "
    "CMakeFiles/a.dir/a.cu.o";
const char *kCMakeMakeRdcB =
    "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler   -g "
    "--generate-code=arch=compute_75,code=[compute_75,sm_75] "
    "--generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC -std=c++17 -x cu "
    "-rdc=true -c /tmp/cmproj/b.cu -o CMakeFiles/b.dir/b.cu.o";

TEST(CompileCommandTranslator, CMakeNinjaCommandTranslatesExactly) {
  TranslatedCommand R = tr(kCMakeNinjaA, "/tmp/cmproj/build");
  EXPECT_TRUE(R.isNvcc);
  EXPECT_EQ(R.error, "");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "-DFOO=1", "-I/tmp/cmproj/inc", "-O3", "-DNDEBUG", "-ffast-math",
                               "-fgpu-flush-denormals-to-zero", "-std=c++17", "--cuda-gpu-arch=sm_75",
                               "--cuda-gpu-arch=sm_90", "-x", "cuda", "/tmp/cmproj/a.cu"}));
  EXPECT_EQ(R.archs, (Args{"sm_75", "sm_90"}));
  EXPECT_EQ(R.maxRegisterCount, 64);
  EXPECT_FALSE(R.relocatableDeviceCode);
  EXPECT_FALSE(R.deviceDebug);
  EXPECT_EQ(R.droppedFlags, (Args{"-lineinfo", "--expt-relaxed-constexpr"}));
  EXPECT_TRUE(R.ptxasFlags.empty());
}

TEST(CompileCommandTranslator, NinjaBuildCommandDropsDependencyFlags) {
  TranslatedCommand A = tr(kCMakeNinjaA, "/tmp/cmproj/build");
  TranslatedCommand B = tr(kCMakeNinjaBuildA, "/tmp/cmproj/build");
  EXPECT_EQ(A.clangArgs, B.clangArgs);
  EXPECT_EQ(A.droppedFlags, B.droppedFlags);
  for (const char *F : {"-MD", "-MT", "-MF", "-c", "-o", "CMakeFiles/a.dir/a.cu.o", "CMakeFiles/a.dir/a.cu.o.d",
                        "-forward-unknown-to-host-compiler"})
    EXPECT_FALSE(contains(B.clangArgs, F)) << F;
}

TEST(CompileCommandTranslator, CMakeSeparableCompilation) {
  for (const char *Cmd : {kCMakeNinjaRdcB, kCMakeMakeRdcB}) {
    TranslatedCommand R = tr(Cmd, "/tmp/cmproj/build");
    EXPECT_TRUE(R.relocatableDeviceCode) << Cmd;
    EXPECT_TRUE(contains(R.clangArgs, "-fgpu-rdc"));
    EXPECT_TRUE(contains(R.clangArgs, "-fPIC"));
    EXPECT_EQ(R.archs, (Args{"sm_75", "sm_90"}));
    EXPECT_EQ(R.clangArgs.back(), "/tmp/cmproj/b.cu");
    EXPECT_FALSE(R.maxRegisterCount);
    EXPECT_TRUE(R.droppedFlags.empty()) << joined(R.droppedFlags);
  }
  EXPECT_TRUE(contains(tr(kCMakeMakeRdcB).clangArgs, "-g"));
}

TEST(CompileCommandTranslator, CMakeRealAndVirtualArchitectures) {
  TranslatedCommand R = tr(kCMakeNinjaRealVirtualC, "/tmp/cmproj/build");
  EXPECT_EQ(R.archs, (Args{"sm_80", "sm_86"}));
  EXPECT_TRUE(contains(R.clangArgs, "--cuda-gpu-arch=sm_80"));
  EXPECT_TRUE(contains(R.clangArgs, "--cuda-gpu-arch=sm_86"));
}

TEST(CompileCommandTranslator, CMakeMakefilesOptionsFileIsReadRelativeToDirectory) {
  TempDir D;
  D.write("build/CMakeFiles/a.dir/includes_CUDA.rsp", "-I/tmp/cmproj/inc\n");
  TranslatedCommand R = tr(kCMakeMakeA, D.str() + "/build");
  EXPECT_EQ(R.error, "");
  EXPECT_EQ(R.clangArgs,
            (Args{"clang++", "-DFOO=1", "-I/tmp/cmproj/inc", "-g", "-ffast-math", "-fgpu-flush-denormals-to-zero",
                  "-std=c++17", "--cuda-gpu-arch=sm_75", "--cuda-gpu-arch=sm_90", "-x", "cuda", "/tmp/cmproj/a.cu"}));
  EXPECT_EQ(R.maxRegisterCount, 64);
}

TEST(CompileCommandTranslator, MissingOptionsFileIsAnErrorNamingIt) {
  TempDir D;
  TranslatedCommand R = tr(kCMakeMakeA, D.str());
  EXPECT_NE(R.error.find("CMakeFiles/a.dir/includes_CUDA.rsp"), std::string::npos) << R.error;
  EXPECT_NE(R.error.find("options file"), std::string::npos) << R.error;
  // The rest is still translated.
  EXPECT_EQ(R.archs, (Args{"sm_75", "sm_90"}));
  EXPECT_EQ(R.clangArgs.back(), "/tmp/cmproj/a.cu");

  TranslatedCommand S = tr("nvcc @missing.rsp -c k.cu", D.str());
  EXPECT_NE(S.error.find("missing.rsp"), std::string::npos) << S.error;
  TranslatedCommand T = tr("nvcc -c k.cu -optf", D.str());
  EXPECT_NE(T.error.find("-optf"), std::string::npos) << T.error;
  TranslatedCommand U = tr("nvcc -c k.cu --options-file .", D.str());
  EXPECT_NE(U.error.find("'.'"), std::string::npos) << U.error;
}

// --- isNvccCommand ----------------------------------------------------------------

TEST(CompileCommandTranslator, RecognizesNvccBehindLaunchers) {
  EXPECT_TRUE(isNvccCommand({"nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"/usr/local/cuda/bin/nvcc"}));
  EXPECT_TRUE(isNvccCommand({"C:\\CUDA\\bin\\nvcc.exe", "-c"}));
  EXPECT_TRUE(isNvccCommand({"ccache", "nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/sccache", "/usr/local/cuda/bin/nvcc", "-c", "a.cu"}));
  EXPECT_TRUE(isNvccCommand({"/usr/bin/ccache", "distcc", "nvcc"}));
  EXPECT_FALSE(isNvccCommand({}));
  EXPECT_FALSE(isNvccCommand({"ccache"}));
  EXPECT_FALSE(isNvccCommand({"clang++", "-x", "cuda"}));
  EXPECT_FALSE(isNvccCommand({"/usr/bin/g++", "nvcc"}));
  EXPECT_FALSE(isNvccCommand({"nvcc-wrapper"}));
  EXPECT_FALSE(isNvccCommand({"/opt/nvcc/bin/clang++"}));
  EXPECT_TRUE(isClangCommand({"/usr/lib/llvm-22/bin/clang++"}));
  EXPECT_TRUE(isClangCommand({"ccache", "clang-22"}));
  EXPECT_TRUE(isClangCommand({"clang++-22"}));
  EXPECT_FALSE(isClangCommand({"clang-tidy"}));
  EXPECT_FALSE(isClangCommand({"nvcc"}));

  TranslatedCommand R = tr("ccache /usr/local/cuda/bin/nvcc -arch=sm_80 -c a.cu");
  EXPECT_TRUE(R.isNvcc);
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "--cuda-gpu-arch=sm_80", "a.cu"}));
}

// --- Target archs ---------------------------------------------------------------------

Args archsOf(const std::string &Flags) { return tr("nvcc " + Flags + " -c k.cu").archs; }

TEST(CompileCommandTranslator, ArchForms) {
  EXPECT_EQ(archsOf("-arch=sm_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("-arch sm_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("--gpu-architecture=compute_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("--gpu-architecture compute_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("-arch=sm_90a"), (Args{"sm_90a"}));
  EXPECT_EQ(archsOf("-arch=compute_90"), (Args{"sm_90"}));
  EXPECT_EQ(archsOf(""), Args{});
  // -code gives the real archs; compute_XX in it counts as sm_XX.
  EXPECT_EQ(archsOf("-arch=compute_80 -code=sm_80,sm_86"), (Args{"sm_80", "sm_86"}));
  EXPECT_EQ(archsOf("-arch compute_80 -code sm_80,compute_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("--gpu-architecture=compute_80 --gpu-code=sm_86"), (Args{"sm_86"}));
  EXPECT_EQ(archsOf("--gpu-code sm_89 --gpu-architecture compute_89"), (Args{"sm_89"}));
}

TEST(CompileCommandTranslator, GencodeForms) {
  EXPECT_EQ(archsOf("-gencode arch=compute_80,code=sm_80"), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("-gencode=arch=compute_90a,code=[sm_90a,compute_90a]"), (Args{"sm_90a"}));
  EXPECT_EQ(archsOf("--generate-code=arch=compute_75,code=[compute_75,sm_75]"), (Args{"sm_75"}));
  EXPECT_EQ(archsOf("--generate-code arch=compute_75,code=sm_75"), (Args{"sm_75"}));
  // Makefile style, with escaped quotes.
  EXPECT_EQ(archsOf("-gencode arch=compute_80,code=\\\"sm_80,compute_80\\\""), (Args{"sm_80"}));
  EXPECT_EQ(archsOf("-gencode arch=compute_86,code=compute_86"), (Args{"sm_86"}));
  EXPECT_EQ(archsOf("-gencode arch=compute_100,code=lto_100"), (Args{"sm_100"}));
  // Several, in order, no duplicates.
  EXPECT_EQ(archsOf("-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 "
                    "-gencode arch=compute_80,code=compute_80 -gencode=arch=compute_86,code=sm_86"),
            (Args{"sm_90", "sm_80", "sm_86"}));
  // -gencode and -arch together keep command order.
  EXPECT_EQ(archsOf("-gencode arch=compute_75,code=sm_75 -arch=sm_80"), (Args{"sm_75", "sm_80"}));
  EXPECT_EQ(archsOf("-arch=sm_80 -gencode arch=compute_75,code=sm_75"), (Args{"sm_80", "sm_75"}));

  TranslatedCommand R = tr("nvcc -gencode arch=compute_80,code=sm_80 -gencode "
                           "arch=compute_90a,code=sm_90a -c k.cu");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90a", "k.cu"}));
  EXPECT_TRUE(R.droppedFlags.empty());

  TranslatedCommand Bad = tr("nvcc -gencode foo -c k.cu");
  EXPECT_TRUE(Bad.archs.empty());
  EXPECT_EQ(Bad.droppedFlags, (Args{"-gencode foo"}));
  EXPECT_EQ(Bad.clangArgs.back(), "k.cu");
}

TEST(CompileCommandTranslator, ArchsLeftToTheDeviceLink) {
  // ptxas runs at the device link for LTO-IR only codes (nvcc --dryrun shows
  // no ptxas for them); with sm_XX as well it also runs at compile time.
  auto linkTime = [](const std::string &Flags) { return tr("nvcc " + Flags + " -c k.cu").linkTimeArchs; };
  EXPECT_EQ(linkTime("-rdc=true -gencode arch=compute_90,code=lto_90"), (Args{"sm_90"}));
  EXPECT_EQ(linkTime("-rdc=true -gencode arch=compute_90,code=[sm_90,lto_90]"), Args{});
  EXPECT_EQ(linkTime("-rdc=true -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=lto_90"),
            (Args{"sm_90"}));
  EXPECT_EQ(linkTime("-dlto -arch=sm_90"), (Args{"sm_90"}));
  EXPECT_EQ(linkTime("--dlink-time-opt -arch=sm_80"), (Args{"sm_80"}));
  EXPECT_EQ(linkTime("-arch=lto_90"), (Args{"sm_90"}));
  EXPECT_EQ(linkTime("-arch=compute_90 -code=lto_90"), (Args{"sm_90"}));
  EXPECT_EQ(linkTime("-arch=compute_90 -code=sm_90,lto_90"), Args{});
  EXPECT_EQ(linkTime("-arch=sm_90"), Args{});
  EXPECT_EQ(linkTime("-gencode arch=compute_90,code=sm_90"), Args{});
  // -dlto with explicit SASS codes leaves them to the compile.
  EXPECT_EQ(linkTime("-dlto -gencode arch=compute_90,code=sm_90"), Args{});
  // The archs themselves are unchanged, and -dlto is a dropped flag.
  TranslatedCommand R = tr("nvcc -dlto -arch=sm_90 -c k.cu");
  EXPECT_EQ(R.archs, (Args{"sm_90"}));
  EXPECT_EQ(R.droppedFlags, (Args{"-dlto"}));
}

TEST(CompileCommandTranslator, SymbolicArchsLeaveArchsEmpty) {
  for (const char *A : {"native", "all", "all-major"}) {
    TranslatedCommand R = tr(std::string("nvcc -arch=") + A + " -c k.cu");
    EXPECT_TRUE(R.archs.empty()) << A;
    EXPECT_EQ(R.symbolicArch, A);
    EXPECT_EQ(R.droppedFlags, (Args{std::string("-arch=") + A}));
    ASSERT_FALSE(R.notes.empty());
    EXPECT_NE(R.notes[0].find("none recorded"), std::string::npos) << R.notes[0];
    EXPECT_EQ(R.clangArgs, (Args{"clang++", "k.cu"}));
  }
  // CMAKE_CUDA_ARCHITECTURES=all / native, as CMake 3.25 writes them.
  for (const char *A : {"all", "native"}) {
    TranslatedCommand C = tr(std::string("/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler  "
                                         "-arch=") +
                             A + " -x cu -c /tmp/cmproj2/a.cu -o CMakeFiles/a.dir/a.cu.o");
    EXPECT_EQ(C.symbolicArch, A);
    EXPECT_EQ(C.clangArgs, (Args{"clang++", "-x", "cuda", "/tmp/cmproj2/a.cu"}));
  }
  TranslatedCommand S = tr("nvcc -arch native -c k.cu");
  EXPECT_EQ(S.symbolicArch, "native");
  EXPECT_EQ(S.clangArgs, (Args{"clang++", "k.cu"}));
  // With -gencode as well, the -gencode archs are known.
  TranslatedCommand G = tr("nvcc -arch=all -gencode arch=compute_90,code=sm_90 -c k.cu");
  EXPECT_EQ(G.archs, (Args{"sm_90"}));
  EXPECT_EQ(G.symbolicArch, "all");
}

TEST(CompileCommandTranslator, FamilySpecificArchIsParsedAsArchSpecific) {
  TranslatedCommand R = tr("nvcc -gencode arch=compute_100f,code=sm_100f -c k.cu");
  EXPECT_EQ(R.archs, (Args{"sm_100f"}));
  EXPECT_TRUE(contains(R.clangArgs, "--cuda-gpu-arch=sm_100a"));
  ASSERT_EQ(R.notes.size(), 1u);
  EXPECT_NE(R.notes[0].find("sm_100a"), std::string::npos);
}

// --- Registers, rdc, debug --------------------------------------------------------------

TEST(CompileCommandTranslator, MaxRegisterCountForms) {
  for (const char *F :
       {"-maxrregcount=32", "-maxrregcount 32", "--maxrregcount=32", "--maxrregcount 32", "-Xptxas --maxrregcount=32",
        "-Xptxas -maxrregcount=32", "-Xptxas=--maxrregcount=32", "--ptxas-options=-v,--maxrregcount=32",
        "-Xptxas -maxrregcount -Xptxas 32", "-Xptxas \"-maxrregcount 32\""}) {
    TranslatedCommand R = tr(std::string("nvcc ") + F + " -c k.cu");
    EXPECT_EQ(R.maxRegisterCount, 32) << F;
    EXPECT_EQ(R.clangArgs, (Args{"clang++", "k.cu"})) << F;
  }
  EXPECT_EQ(tr("nvcc -maxrregcount=32 -maxrregcount=40 -c k.cu").maxRegisterCount, 40);
  TranslatedCommand Bad = tr("nvcc -maxrregcount=lots -c k.cu");
  EXPECT_FALSE(Bad.maxRegisterCount);
  EXPECT_EQ(Bad.droppedFlags, (Args{"-maxrregcount=lots"}));
  EXPECT_FALSE(tr("nvcc -c k.cu").maxRegisterCount);
}

TEST(CompileCommandTranslator, RelocatableDeviceCodeForms) {
  for (const char *F : {"-rdc=true", "-rdc true", "--relocatable-device-code=true", "--relocatable-device-code true",
                        "-dc", "--device-c"}) {
    TranslatedCommand R = tr(std::string("nvcc ") + F + " k.cu");
    EXPECT_TRUE(R.relocatableDeviceCode) << F;
    EXPECT_EQ(R.clangArgs, (Args{"clang++", "-fgpu-rdc", "k.cu"})) << F;
    EXPECT_TRUE(R.droppedFlags.empty()) << F;
  }
  TranslatedCommand Off = tr("nvcc -rdc=true -rdc=false -c k.cu");
  EXPECT_FALSE(Off.relocatableDeviceCode);
  EXPECT_FALSE(contains(Off.clangArgs, "-fgpu-rdc"));
  // "-rdc" does not swallow the source file.
  TranslatedCommand NoValue = tr("nvcc -c -rdc k.cu");
  EXPECT_FALSE(NoValue.relocatableDeviceCode);
  EXPECT_EQ(NoValue.clangArgs.back(), "k.cu");
}

TEST(CompileCommandTranslator, DeviceDebugAndLineInfo) {
  TranslatedCommand R = tr("nvcc -G -lineinfo --generate-line-info -c k.cu");
  EXPECT_TRUE(R.deviceDebug);
  EXPECT_EQ(R.droppedFlags, (Args{"-G", "-lineinfo", "--generate-line-info"}));
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "k.cu"}));
  EXPECT_TRUE(tr("nvcc --device-debug -c k.cu").deviceDebug);
  EXPECT_FALSE(tr("nvcc -g -c k.cu").deviceDebug);
  EXPECT_EQ(tr("nvcc -g -c k.cu").clangArgs, (Args{"clang++", "-g", "k.cu"}));
}

// --- Host compiler options -------------------------------------------------------------

TEST(CompileCommandTranslator, XcompilerForms) {
  TranslatedCommand R = tr("nvcc -Xcompiler -fPIC,-Wall -Xcompiler=-march=native,-O2 "
                           "--compiler-options -fopenmp --compiler-options=-fvisibility=hidden,-shared "
                           "-Xcompiler \"-Wextra -mavx2\" -Xcompiler -isystem,/opt/x "
                           "-Xcompiler -DHOST=1,-pipe -Xcompiler -Werror -c k.cu");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "-fPIC", "-Wall", "-O2", "-fopenmp", "-fvisibility=hidden", "-Wextra",
                               "-isystem", "/opt/x", "-DHOST=1", "k.cu"}));
  EXPECT_EQ(R.droppedFlags, (Args{"-Xcompiler -march=native", "-Xcompiler -shared", "-Xcompiler -mavx2",
                                  "-Xcompiler -pipe", "-Xcompiler -Werror"}));
  // A value in the next -Xcompiler.
  TranslatedCommand S = tr("nvcc -Xcompiler -include -Xcompiler pre.h -c k.cu");
  EXPECT_EQ(S.clangArgs, (Args{"clang++", "-include", "pre.h", "k.cu"}));
  // GCC-only -f flags that Clang rejects are dropped.
  TranslatedCommand G = tr("nvcc -Xcompiler -fno-gnu-unique,-fconcepts,-fno-strict-aliasing -c k.cu");
  EXPECT_EQ(G.clangArgs, (Args{"clang++", "-fno-strict-aliasing", "k.cu"}));
}

TEST(CompileCommandTranslator, UnknownFlagsGoToTheHostFilterOnlyWhenForwarded) {
  TranslatedCommand F = tr("nvcc -forward-unknown-to-host-compiler -Wall -fPIC -march=native "
                           "-iquote q -pthread -c k.cu");
  EXPECT_EQ(F.clangArgs, (Args{"clang++", "-Wall", "-fPIC", "-iquote", "q", "-pthread", "k.cu"}));
  EXPECT_EQ(F.droppedFlags, (Args{"-march=native"}));
  TranslatedCommand N = tr("nvcc -Wall --frobnicate -c k.cu");
  EXPECT_EQ(N.clangArgs, (Args{"clang++", "k.cu"}));
  EXPECT_EQ(N.droppedFlags, (Args{"-Wall", "--frobnicate"}));
}

// --- Other tools' options -----------------------------------------------------------------

TEST(CompileCommandTranslator, PtxasAndOtherToolOptionsAreDropped) {
  TranslatedCommand R = tr("nvcc -Xptxas -v,-warn-spills -Xptxas=-O3 --ptxas-options -dlcm=cg "
                           "-Xcudafe --diag_suppress=177 -Xnvlink --suppress-stack-size-warning "
                           "-Xfatbin -compress-all -Xarchive -x -Xlinker -z -c k.cu");
  EXPECT_EQ(R.ptxasFlags, (Args{"-v", "-warn-spills", "-O3", "-dlcm=cg"}));
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "k.cu"}));
  EXPECT_EQ(R.droppedFlags,
            (Args{"-Xptxas -v,-warn-spills", "-Xptxas=-O3", "--ptxas-options -dlcm=cg", "-Xcudafe --diag_suppress=177",
                  "-Xnvlink --suppress-stack-size-warning", "-Xfatbin -compress-all", "-Xarchive -x", "-Xlinker -z"}));
  EXPECT_FALSE(R.maxRegisterCount);
}

TEST(CompileCommandTranslator, LanguageExtensionFlagsAreDroppedWithANote) {
  TranslatedCommand R = tr("nvcc --expt-relaxed-constexpr -expt-relaxed-constexpr --extended-lambda "
                           "--expt-extended-lambda -extended-lambda -c k.cu");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "k.cu"}));
  EXPECT_EQ(R.droppedFlags.size(), 5u);
  ASSERT_EQ(R.notes.size(), 5u);
  EXPECT_NE(R.notes[0].find("by default"), std::string::npos);
  EXPECT_NE(R.notes[2].find("lambdas"), std::string::npos);
  EXPECT_EQ(R.notes[3].rfind("--expt-extended-lambda: ", 0), 0u) << R.notes[3];
}

// --- The rest of the table ---------------------------------------------------------------

TEST(CompileCommandTranslator, DroppedNvccFlags) {
  TranslatedCommand R = tr("nvcc -ccbin /usr/bin/g++-12 --compiler-bindir=/usr/bin/g++ --keep --keep-dir kd "
                           "-Wno-deprecated-gpu-targets --diag-suppress=20012 --diag-suppress 177,550 "
                           "-Werror=cross-execution-space-call -Werror all-warnings -t 4 --threads 0 -t=2 "
                           "--resource-usage -res-usage -odir obj --default-stream per-thread -prec-div=false "
                           "-fmad false -cudart shared -c k.cu -o k.o");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "-fgpu-default-stream=per-thread", "k.cu"}));
  EXPECT_EQ(R.droppedFlags,
            (Args{"-ccbin /usr/bin/g++-12", "--compiler-bindir=/usr/bin/g++", "--keep", "--keep-dir kd",
                  "-Wno-deprecated-gpu-targets", "--diag-suppress=20012", "--diag-suppress 177,550",
                  "-Werror=cross-execution-space-call", "-Werror all-warnings", "-t 4", "--threads 0", "-t=2",
                  "--resource-usage", "-res-usage", "-odir obj", "-prec-div=false", "-fmad false", "-cudart shared"}));
}

TEST(CompileCommandTranslator, FastMathStdAndOptimization) {
  for (const char *F : {"--use_fast_math", "-use_fast_math"}) {
    TranslatedCommand R = tr(std::string("nvcc ") + F + " -c k.cu");
    EXPECT_EQ(R.clangArgs, (Args{"clang++", "-ffast-math", "-fgpu-flush-denormals-to-zero", "k.cu"}));
  }
  for (const char *F : {"-std=c++17", "-std c++17", "--std=c++17", "--std c++17"})
    EXPECT_EQ(tr(std::string("nvcc ") + F + " -c k.cu").clangArgs, (Args{"clang++", "-std=c++17", "k.cu"})) << F;
  EXPECT_EQ(tr("nvcc -O3 -O 2 --optimize 1 --optimize=0 -Ofast -c k.cu").clangArgs,
            (Args{"clang++", "-O3", "-O2", "-O1", "-O0", "-Ofast", "k.cu"}));
  // "-O" alone does not take the source file as its level.
  EXPECT_EQ(tr("nvcc -c -O k.cu").clangArgs, (Args{"clang++", "-O", "k.cu"}));
  EXPECT_EQ(tr("nvcc -ftz=true -ftz false -noeh -w -Wreorder -c k.cu").clangArgs,
            (Args{"clang++", "-fgpu-flush-denormals-to-zero", "-fno-gpu-flush-denormals-to-zero", "-fno-exceptions",
                  "-w", "-Wreorder", "k.cu"}));
  EXPECT_EQ(tr("nvcc -ftemplate-depth 100 --ftemplate-backtrace-limit=5 -c k.cu").clangArgs,
            (Args{"clang++", "-ftemplate-depth=100", "-ftemplate-backtrace-limit=5", "k.cu"}));
}

TEST(CompileCommandTranslator, PreprocessorFlagsJoinedAndSeparate) {
  TranslatedCommand R = tr("nvcc -DA -D B=2 --define-macro=C --define-macro D=4 -UE -U F --undefine-macro=G "
                           "-Iinc -I inc2 --include-path=inc3 --include-path inc4 -isystem /sys -isystem/sys2 "
                           "--system-include=/sys3 -include pre.h --pre-include=pre2.h -c k.cu");
  EXPECT_EQ(R.clangArgs, (Args{"clang++",  "-DA",    "-DB=2",    "-DC",    "-DD=4",    "-UE",    "-UF",      "-UG",
                               "-Iinc",    "-Iinc2", "-Iinc3",   "-Iinc4", "-isystem", "/sys",   "-isystem", "/sys2",
                               "-isystem", "/sys3",  "-include", "pre.h",  "-include", "pre2.h", "k.cu"}));
  EXPECT_TRUE(R.droppedFlags.empty()) << joined(R.droppedFlags);
  // nvcc splits -D values at commas (nvcc -DFOO=a,b defines FOO=a and b).
  EXPECT_EQ(tr("nvcc -DFOO=a,b -I/x,/y -c k.cu").clangArgs,
            (Args{"clang++", "-DFOO=a", "-Db", "-I/x", "-I/y", "k.cu"}));
}

TEST(CompileCommandTranslator, LanguageFlag) {
  EXPECT_EQ(tr("nvcc -x cu -c k.cpp").clangArgs, (Args{"clang++", "-x", "cuda", "k.cpp"}));
  EXPECT_EQ(tr("nvcc --x=cu -c k.cpp").clangArgs, (Args{"clang++", "-x", "cuda", "k.cpp"}));
  // nvcc's -x applies to every input, wherever it stands; Clang's to those after it.
  EXPECT_EQ(tr("nvcc -c k.cpp -x cu").clangArgs, (Args{"clang++", "-x", "cuda", "k.cpp"}));
  EXPECT_EQ(tr("nvcc -x c++ -c k.cpp").clangArgs, (Args{"clang++", "-x", "c++", "k.cpp"}));
  EXPECT_EQ(tr("nvcc -c k.cu").clangArgs, (Args{"clang++", "k.cu"}));
}

TEST(CompileCommandTranslator, ResponseAndOptionsFiles) {
  TempDir D;
  D.write("opts.txt", "-DQUOTED=\"a b\" 'single quoted' back\\ slash\n"
                      "--maxrregcount=48 -optf nested/more.txt\n");
  D.write("nested/more.txt", "-arch=sm_86 @resp.rsp");
  D.write("resp.rsp", "-I\"/path with space\" -DX=\\\"str\\\"");
  D.write("list1.txt", "-DL1");
  D.write("list2.txt", "-DL2");
  TranslatedCommand R = tr("nvcc --options-file opts.txt -optf=list1.txt,list2.txt -c k.cu", D.str());
  EXPECT_EQ(R.error, "");
  EXPECT_EQ(R.clangArgs, (Args{"clang++", "-DQUOTED=a b", "-I/path with space", "-DX=\"str\"", "-DL1", "-DL2",
                               "--cuda-gpu-arch=sm_86", "single quoted", "back slash", "k.cu"}));
  EXPECT_EQ(R.maxRegisterCount, 48);
  EXPECT_EQ(R.archs, (Args{"sm_86"}));

  // An absolute path is read as it is.
  TranslatedCommand Abs = tr("nvcc @" + D.str() + "/list1.txt -c k.cu", "/nonexistent");
  EXPECT_EQ(Abs.error, "");
  EXPECT_EQ(Abs.clangArgs, (Args{"clang++", "-DL1", "k.cu"}));
}

TEST(CompileCommandTranslator, SelfIncludingOptionsFileStopsAtTheDepthLimit) {
  TempDir D;
  D.write("loop.txt", "-DLOOP --options-file loop.txt");
  TranslatedCommand R = tr("nvcc --options-file loop.txt -c k.cu", D.str());
  EXPECT_NE(R.error.find("loop.txt"), std::string::npos) << R.error;
  EXPECT_NE(R.error.find("nested"), std::string::npos) << R.error;
  EXPECT_EQ(R.clangArgs.back(), "k.cu");
}

// Found by fuzz-nvcc-command (tests/fuzz/regressions/fuzz-nvcc-command/): a
// response file naming itself twice was read 2^16 times (10 s); three times,
// 3^16 times (a hang).
TEST(CompileCommandTranslator, FilesNamingThemselvesSeveralTimesAreReadABoundedNumberOfTimes) {
  TempDir D;
  D.write("loop.rsp", "-DLOOP @loop.rsp @loop.rsp @loop.rsp");
  TranslatedCommand R = tr("nvcc @loop.rsp -c k.cu", D.str());
  EXPECT_NE(R.error.find("more than 256 options and response files read"), std::string::npos) << R.error;
  EXPECT_EQ(std::count(R.clangArgs.begin(), R.clangArgs.end(), "-DLOOP"), 256) << R.error;
  EXPECT_EQ(R.clangArgs.back(), "k.cu");
}

// A command naming a program as its response file (`@/usr/local/cuda/bin/nvcc`)
// had its 30 MB read and split into words (fuzz-compile-database).
TEST(CompileCommandTranslator, AnOversizedResponseFileIsNotRead) {
  TempDir D;
  D.write("huge.rsp", "-DHUGE " + std::string((4u << 20) + 1, 'x'));
  D.write("small.rsp", "-DSMALL");
  TranslatedCommand R = tr("nvcc @huge.rsp @small.rsp -c k.cu", D.str());
  EXPECT_NE(R.error.find("response file 'huge.rsp'"), std::string::npos) << R.error;
  EXPECT_NE(R.error.find("more than the 4 MB an options file may have"), std::string::npos) << R.error;
  EXPECT_EQ(std::count(R.clangArgs.begin(), R.clangArgs.end(), "-DHUGE"), 0);
  EXPECT_EQ(std::count(R.clangArgs.begin(), R.clangArgs.end(), "-DSMALL"), 1) << "the other file is read";
  EXPECT_EQ(R.clangArgs.back(), "k.cu");
}

TEST(CompileCommandTranslator, SplitCommandLineLikeAShell) {
  EXPECT_EQ(splitCommandLine("  a  b\tc\n d "), (Args{"a", "b", "c", "d"}));
  EXPECT_EQ(splitCommandLine("'a b' \"c d\" e\\ f"), (Args{"a b", "c d", "e f"}));
  EXPECT_EQ(splitCommandLine("\"a\\\"b\\\\c\\d\""), (Args{"a\"b\\c\\d"}));
  EXPECT_EQ(splitCommandLine("'a\\b'"), (Args{"a\\b"}));
  EXPECT_EQ(splitCommandLine("x'' ''"), (Args{"x", ""}));
  EXPECT_EQ(splitCommandLine("a\\\nb"), (Args{"ab"}));
  EXPECT_EQ(splitCommandLine("\"unterminated"), (Args{"unterminated"}));
  EXPECT_EQ(splitCommandLine("trailing\\"), (Args{"trailing\\"}));
  EXPECT_EQ(splitCommandLine(""), Args{});
}

// --- Robustness -------------------------------------------------------------------------------

TEST(CompileCommandTranslator, FlagsWithoutTheirValueAtTheEnd) {
  EXPECT_EQ(translateCompileCommand({}, "").error, "empty compile command");
  EXPECT_NE(translateCompileCommand({"ccache"}, "").error, "");
  for (const char *F : {"-o",         "-MF",      "-MT",      "-ccbin",
                        "-Xcompiler", "-Xptxas",  "-gencode", "-arch",
                        "-code",      "-I",       "-D",       "-U",
                        "-x",         "-t",       "-odir",    "--default-stream",
                        "-isystem",   "-include", "-std",     "-maxrregcount",
                        "-rdc",       "-O",       "-Werror",  "--options-file",
                        "-optf",      "-ftz",     "-Xcudafe"}) {
    TranslatedCommand R = translateCompileCommand({"nvcc", "k.cu", F}, "/");
    EXPECT_EQ(std::count(R.clangArgs.begin(), R.clangArgs.end(), "k.cu"), 1) << F;
    EXPECT_EQ(R.clangArgs.back(), "k.cu") << F;
    EXPECT_TRUE(R.archs.empty()) << F;
  }
  TranslatedCommand P = translateCompileCommand({"nvcc", "k.cu", "-Xptxas", "-maxrregcount"}, "/");
  EXPECT_FALSE(P.maxRegisterCount);
  TranslatedCommand H = translateCompileCommand({"nvcc", "k.cu", "-Xcompiler", "-isystem"}, "/");
  EXPECT_EQ(H.clangArgs, (Args{"clang++", "k.cu"}));
}

TEST(CompileCommandTranslator, ValueFlagsDoNotSwallowTheSourceOrLeaveTheirValue) {
  // Each value-taking flag followed by its value, then the source file: only
  // the source file (and the translation) remains.
  TranslatedCommand R = tr("nvcc -ccbin g++ -o out.o -MF d.d -MT t -t 2 -odir o "
                           "--default-stream legacy -Xptxas -v -x cu -arch sm_80 k.cu");
  EXPECT_EQ(R.clangArgs,
            (Args{"clang++", "-fgpu-default-stream=legacy", "--cuda-gpu-arch=sm_80", "-x", "cuda", "k.cu"}));
  // Several inputs are kept, in order.
  EXPECT_EQ(tr("nvcc -c a.cu b.cu").clangArgs, (Args{"clang++", "a.cu", "b.cu"}));
}

TEST(CompileCommandTranslator, NeverThrowsOnRandomTokens) {
  const std::vector<std::string> Vocabulary = {"-arch",
                                               "-arch=",
                                               "-code",
                                               "-gencode",
                                               "-gencode=arch=,code=[",
                                               "arch=compute_",
                                               "-Xcompiler",
                                               "-Xcompiler=",
                                               "-Xptxas",
                                               "-maxrregcount",
                                               "--maxrregcount=",
                                               "-maxrregcount=-1",
                                               "-maxrregcount=99999999999999",
                                               "-rdc",
                                               "-rdc=",
                                               "-D",
                                               "-I",
                                               "-isystem",
                                               "-O",
                                               "-x",
                                               "-std",
                                               "-o",
                                               "-MF",
                                               "--options-file",
                                               "@",
                                               "@/nonexistent",
                                               "-",
                                               "--",
                                               "=",
                                               "",
                                               ",",
                                               "[]",
                                               "k.cu",
                                               "sm_",
                                               "compute_90a",
                                               "-Werror",
                                               "-ftz",
                                               "-G",
                                               "--use_fast_math",
                                               "-forward-unknown-to-host-compiler",
                                               "-fPIC",
                                               "-Wall",
                                               "-iquote",
                                               "-Xcompiler=-isystem",
                                               "\"",
                                               "'",
                                               "\\"};
  std::mt19937 Rng(12345);
  for (int Round = 0; Round < 3000; ++Round) {
    Args A{Round % 3 == 0 ? "clang++" : "nvcc"};
    size_t N = Rng() % 12;
    for (size_t K = 0; K < N; ++K)
      A.push_back(Vocabulary[Rng() % Vocabulary.size()]);
    TranslatedCommand R = translateCompileCommand(A, "/nonexistent");
    ASSERT_FALSE(R.clangArgs.empty()) << joined(A);
    if (R.maxRegisterCount)
      EXPECT_GT(*R.maxRegisterCount, 0) << joined(A);
  }
}

// --- Clang commands --------------------------------------------------------------------------

TEST(CompileCommandTranslator, ClangCommandsPassThrough) {
  Args Cmd = {"/usr/lib/llvm-22/bin/clang++",
              "-x",
              "cuda",
              "--cuda-gpu-arch=sm_80",
              "--offload-arch=sm_90a,sm_80",
              "-Xcuda-ptxas",
              "-maxrregcount=40",
              "-fgpu-rdc",
              "-c",
              "k.cu",
              "-o",
              "k.o"};
  TranslatedCommand R = translateCompileCommand(Cmd, "/build");
  EXPECT_FALSE(R.isNvcc);
  EXPECT_EQ(R.error, "");
  EXPECT_EQ(R.clangArgs, Cmd);
  EXPECT_EQ(R.archs, (Args{"sm_80", "sm_90a"}));
  EXPECT_EQ(R.maxRegisterCount, 40);
  EXPECT_EQ(R.ptxasFlags, (Args{"-maxrregcount=40"}));
  EXPECT_TRUE(R.relocatableDeviceCode);
  EXPECT_TRUE(R.droppedFlags.empty());

  TranslatedCommand S = translateCompileCommand(
      {"ccache", "clang++-22", "-Xcuda-ptxas", "--maxrregcount", "-Xcuda-ptxas", "64", "k.cu"}, "");
  EXPECT_EQ(S.clangArgs, (Args{"clang++-22", "-Xcuda-ptxas", "--maxrregcount", "-Xcuda-ptxas", "64", "k.cu"}));
  EXPECT_EQ(S.maxRegisterCount, 64);
  EXPECT_TRUE(S.archs.empty());
  EXPECT_EQ(translateCompileCommand({"clang++", "--offload-arch=native", "k.cu"}, "").symbolicArch, "native");
  EXPECT_EQ(translateCompileCommand(
                {"clang++", "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90", "--no-cuda-gpu-arch=sm_80", "k.cu"}, "")
                .archs,
            (Args{"sm_90"}));
}

// --- The translation parses ------------------------------------------------------------------

const char *kClang = "/usr/lib/llvm-22/bin/clang++";

std::string shellQuote(const std::string &S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

// Runs the translated command under Clang 22, device side only; returns
// {exit status, output}.
std::pair<int, std::string> runClang(const TranslatedCommand &R, const std::string &CudaPath, const TempDir &D) {
  std::string Cmd = "cd " + shellQuote(D.str()) + " && " + shellQuote(kClang);
  for (size_t I = 1; I < R.clangArgs.size(); ++I)
    Cmd += " " + shellQuote(R.clangArgs[I]);
  Cmd += " -fsyntax-only --cuda-device-only --cuda-path=" + shellQuote(CudaPath) + " -Wno-unknown-cuda-version 2>&1";
  std::string Output;
  FILE *P = ::popen(Cmd.c_str(), "r");
  if (!P)
    return {-1, "popen failed"};
  char Buf[4096];
  size_t N;
  while ((N = std::fread(Buf, 1, sizeof Buf, P)) > 0)
    Output.append(Buf, N);
  int Status = ::pclose(P);
  return {Status, Cmd + "\n" + Output};
}

TEST(CompileCommandTranslator, TranslatedCommandsParseWithClang22) {
  std::string CudaPath = OCCLINT_CUDA_PATH;
  if (CudaPath.empty())
    CudaPath = "/usr/local/cuda";
  if (!fs::exists(fs::path(CudaPath) / "include" / "cuda_runtime.h"))
    GTEST_SKIP() << "no CUDA toolkit at " << CudaPath;
  if (!fs::exists(kClang))
    GTEST_SKIP() << "no Clang 22 at " << kClang;

  TempDir D;
  const std::string Kernel =
      "#include <cstdio>\n"
      "#include \"inc.h\"\n"
      "constexpr int twice(int x) { return 2 * x; }\n" // host constexpr, called on the device
      "template <class F> __global__ void apply(float *p, F f) { p[threadIdx.x] = f(p[threadIdx.x]); }\n"
      "__global__ void k(float *p) { p[0] = __expf(p[1]) + twice(FROM_INC) + FOO; }\n"
      "void launch(float *p) {\n"
      "  apply<<<1, 32>>>(p, [] __device__(float v) { return v * 2.0f; });\n" // extended lambda
      "  k<<<1, 1>>>(p);\n"
      "}\n"
      "#ifndef NDEBUG\n#error NDEBUG expected\n#endif\n";
  D.write("inc/inc.h", "#define FROM_INC 3\n");
  std::string Cu = D.write("k.cu", Kernel);
  std::string Cpp = D.write("k.cpp", Kernel);

  // The real CMake command (Ninja), pointed at our file and include directory.
  std::string A = kCMakeNinjaBuildA;
  A.replace(A.find("/tmp/cmproj/inc"), 15, D.str() + "/inc");
  A.replace(A.find("/tmp/cmproj/a.cu"), 16, Cu);
  // The Makefiles one with an options file, and the rdc one.
  D.write("CMakeFiles/a.dir/includes_CUDA.rsp", "-I" + D.str() + "/inc\n");
  std::string MakeA = kCMakeMakeA;
  MakeA.replace(MakeA.find("/tmp/cmproj/a.cu"), 16, Cu);
  MakeA.replace(MakeA.find("-g "), 3, "-g -DNDEBUG ");
  std::string B = std::string(kCMakeNinjaRdcB) + " -DFOO=1 -Iinc";
  B.replace(B.find("/tmp/cmproj/b.cu"), 16, Cu);
  // A hand-written one with most of the table, on a .cpp file (-x cu matters).
  std::string Hand =
      "ccache /usr/local/cuda/bin/nvcc -ccbin /usr/bin/g++ -gencode=arch=compute_90a,code=[sm_90a,compute_90a] "
      "-gencode arch=compute_80,code=sm_80 -arch=compute_86 -code=sm_86 -maxrregcount 32 "
      "-Xptxas -v -Xcompiler -fPIC,-Wall,-march=native -Xcudafe --diag_suppress=177 "
      "--expt-relaxed-constexpr --extended-lambda -rdc true -G -lineinfo --use_fast_math "
      "-std c++17 -O2 -D FOO=1 -DNDEBUG -I inc -isystem inc -include cstdio -x cu "
      "-Wno-deprecated-gpu-targets -Werror=cross-execution-space-call -t 4 --resource-usage "
      "--keep -ftz=true --default-stream per-thread -MD -MT k.o -MF k.d -c k.cpp -o k.o";

  for (const std::string &Cmd : {A, MakeA, B, Hand}) {
    TranslatedCommand R = tr(Cmd, D.str());
    ASSERT_EQ(R.error, "") << Cmd;
    ASSERT_TRUE(R.isNvcc);
    auto [Status, Output] = runClang(R, CudaPath, D);
    EXPECT_EQ(Status, 0) << Output;
  }
  TranslatedCommand H = tr(Hand, D.str());
  EXPECT_EQ(H.archs, (Args{"sm_90a", "sm_80", "sm_86"}));
  EXPECT_EQ(H.maxRegisterCount, 32);
  EXPECT_TRUE(H.relocatableDeviceCode);
  EXPECT_TRUE(H.deviceDebug);
  EXPECT_EQ(H.clangArgs.back(), "k.cpp");
  EXPECT_EQ(H.clangArgs[H.clangArgs.size() - 3], "-x");

  // And the check itself fails on a command that is not CUDA for Clang.
  TranslatedCommand NotCuda = tr("nvcc -DFOO=1 -Iinc -DNDEBUG -c k.cpp", D.str());
  EXPECT_NE(runClang(NotCuda, CudaPath, D).first, 0);
}

} // namespace
