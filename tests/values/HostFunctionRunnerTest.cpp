// Unit tests of runHostFunction: C++ snippets parsed with Clang, a function
// of the snippet run on exact arguments; the value expected is what the
// compiled program returns (each worked out in the comment beside it), or a
// stop with its reason.
#include "values/HostFunctionRunner.h"

#include "ParsedSnippet.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using clang::tidy::occlint::HostRunOutcome;
using clang::tidy::occlint::runHostFunction;

namespace {

class Program {
public:
  explicit Program(const std::string &Code) : Snippet(Code) {}

  bool parsed() const { return Snippet.parsed(); }

  HostRunOutcome run(const std::string &Name, std::vector<__int128> Arguments) {
    const clang::FunctionDecl *F = Snippet.definition(Name);
    if (!F) {
      ADD_FAILURE() << "no definition of " << Name;
      return {};
    }
    return runHostFunction(Snippet.context(), *F, Arguments);
  }

  long long value(const std::string &Name, std::vector<__int128> Arguments) {
    HostRunOutcome Out = run(Name, std::move(Arguments));
    EXPECT_TRUE(Out.value.has_value()) << Name << " stopped: " << Out.whyNot;
    return Out.value ? static_cast<long long>(*Out.value) : -999999;
  }

  std::string stop(const std::string &Name, std::vector<__int128> Arguments) {
    HostRunOutcome Out = run(Name, std::move(Arguments));
    EXPECT_FALSE(Out.value.has_value()) << Name << " returned " << static_cast<long long>(Out.value.value_or(0));
    return Out.whyNot;
  }

private:
  occlint::testing::ParsedSnippet Snippet;
};

#define PROGRAM(Var, Code)                                                                                             \
  Program Var(Code);                                                                                                   \
  ASSERT_TRUE(Var.parsed())

TEST(HostFunctionRunnerTest, LoopsThatRoundABlockSize) {
  PROGRAM(P, "unsigned nextPow2(unsigned x) {\n"
             "  --x; x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16;\n"
             "  return ++x;\n"
             "}\n"
             "int largestPowerOfTwoLessOrEqual(int n) {\n"
             "  int p = 1;\n"
             "  while (p * 2 <= n) p *= 2;\n"
             "  return p;\n"
             "}\n"
             "int roundUpToWarps(int n) { int w = 0; for (int i = 0; i < n; i += 32) ++w; return w * 32; }\n"
             "int doLoop(int n) { int k = 0; do { k += 64; } while (k < n); return k; }\n");
  EXPECT_EQ(P.value("nextPow2", {100}), 128);
  EXPECT_EQ(P.value("nextPow2", {256}), 256);
  EXPECT_EQ(P.value("largestPowerOfTwoLessOrEqual", {1000}), 512);
  EXPECT_EQ(P.value("largestPowerOfTwoLessOrEqual", {1}), 1);
  EXPECT_EQ(P.value("roundUpToWarps", {100}), 128); // i = 0, 32, 64, 96: four warps
  EXPECT_EQ(P.value("doLoop", {0}), 64);            // the body runs once before the test
}

TEST(HostFunctionRunnerTest, BranchesSwitchesBreakAndContinue) {
  PROGRAM(P, "int pick(int n) {\n"
             "  if (n < 128) return 64;\n"
             "  else if (n < 4096) return 256;\n"
             "  return 1024;\n"
             "}\n"
             "int bySwitch(int kind) {\n"
             "  int t = 0;\n"
             "  switch (kind) {\n"
             "  case 0: t = 32; break;\n"
             "  case 1:\n"
             "  case 2: t = 128;\n" // falls through to case 3
             "  case 3: t += 1; break;\n"
             "  default: t = 7;\n"
             "  }\n"
             "  return t;\n"
             "}\n"
             "int loops(int n) {\n"
             "  int s = 0;\n"
             "  for (int i = 0; i < n; ++i) { if (i % 2) continue; if (i > 6) break; s += i; }\n"
             "  return s;\n"
             "}\n"
             "int withInit(int n) { if (int h = n / 2; h > 10) return h; return 0; }\n");
  EXPECT_EQ(P.value("pick", {100}), 64);
  EXPECT_EQ(P.value("pick", {1000}), 256);
  EXPECT_EQ(P.value("pick", {100000}), 1024);
  EXPECT_EQ(P.value("bySwitch", {0}), 32);
  EXPECT_EQ(P.value("bySwitch", {1}), 129);
  EXPECT_EQ(P.value("bySwitch", {3}), 1);
  EXPECT_EQ(P.value("bySwitch", {9}), 7);
  EXPECT_EQ(P.value("loops", {100}), 12); // 0 + 2 + 4 + 6, then 8 > 6 breaks
  EXPECT_EQ(P.value("withInit", {64}), 32);
}

TEST(HostFunctionRunnerTest, CallsConstantsAndConversions) {
  PROGRAM(P, "#include <algorithm>\n"
             "constexpr int kMaxThreads = 1024;\n"
             "const int kWarp = 32;\n"
             "enum Size { Small = 128, Large = 512 };\n"
             "static int down(int n) { return n <= 32 ? n : down(n / 2); }\n"
             "int clampThreads(int n) { int t = std::min(n, kMaxThreads); t = std::max(t, kWarp); return t; }\n"
             "int viaHelper(int n) { int d = down(n); return d + Large + (int)sizeof(double); }\n"
             "unsigned wraps(unsigned x) { x -= 1; return x; }\n"
             "int narrows(int n) { char c = n; short s = 70000; return c + s; }\n"
             "bool isBig(int n) { return n > 1000; }\n");
  EXPECT_EQ(P.value("clampThreads", {5000}), 1024);
  EXPECT_EQ(P.value("clampThreads", {7}), 32);
  EXPECT_EQ(P.value("viaHelper", {100}), 25 + 512 + 8); // 100 -> 50 -> 25
  EXPECT_EQ(P.value("wraps", {0}), 4294967295LL);
  EXPECT_EQ(P.value("narrows", {300}), 44 + 4464); // (char)300 = 44, (short)70000 = 4464
  EXPECT_EQ(P.value("isBig", {5000}), 1);
}

TEST(HostFunctionRunnerTest, StopsWhereTheValueIsNotCertain) {
  PROGRAM(P, "int g = 5;\n"
             "int external(int);\n"
             "void fill(int *p);\n"
             "int readsGlobal(int n) { return n + g; }\n"
             "int callsUndefined(int n) { return external(n); }\n"
             "int takesPointer(int *p) { return *p; }\n"
             "int passesPointer(int n) { int v = n; fill(&v); return v; }\n"
             "int forever(int n) { while (true) ++n; return n; }\n"
             "int divides(int n) { return 100 / n; }\n"
             "int overflows(int n) { return n * n; }\n"
             "int unset(int n) { int v; if (n > 0) v = 1; return v; }\n"
             "int noReturn(int n) { if (n > 0) return 1; }\n"
             "int floats(int n) { double d = n * 1.5; return (int)d; }\n"
             "int deep(int n) { return n == 0 ? 0 : 1 + deep(n - 1); }\n");
  EXPECT_EQ(P.stop("readsGlobal", {1}), "it reads 'g', which is not a constant");
  EXPECT_EQ(P.stop("callsUndefined", {1}), "it calls 'external', whose body is not in this translation unit");
  EXPECT_NE(P.stop("takesPointer", {0}), "");
  EXPECT_NE(P.stop("passesPointer", {1}), "");
  EXPECT_EQ(P.stop("forever", {0}), "it runs more than 20000 steps");
  EXPECT_EQ(P.stop("divides", {0}), "it divides by zero");
  EXPECT_EQ(P.value("divides", {3}), 33);
  EXPECT_EQ(P.stop("overflows", {100000}), "a signed operation overflows");
  EXPECT_EQ(P.stop("unset", {0}), "it reads 'v' before setting it");
  EXPECT_EQ(P.value("unset", {1}), 1);
  EXPECT_EQ(P.stop("noReturn", {0}), "'noReturn' ends without returning a value");
  EXPECT_EQ(P.stop("floats", {2}), "it declares 'd', which is not a local integer");
  EXPECT_EQ(P.value("deep", {5}), 5);
  EXPECT_EQ(P.stop("deep", {20}), "its calls nest deeper than 8");
}

} // namespace
