// Unit tests of ValueEvaluator: ASTs built from CUDA snippets with occlint's
// built-in CUDA headers (source-only mode, as tool/lint/CudaCommandAdjuster.cpp
// sets it up), the expression under test found with AST matchers: the
// argument of probe(...) or the <<<grid, block>>> of a launch.
#include "values/ValueEvaluator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;
using clang::tidy::occlint::EvaluatedDim3;
using clang::tidy::occlint::EvaluatedValue;
using clang::tidy::occlint::ValueDerivation;
using clang::tidy::occlint::ValueEvaluator;

namespace {

// Every snippet starts with these lines (line numbers in tests are found by
// searching the full text, so the prelude's length does not matter).
const char *Prelude = R"cuda(#include <algorithm>
template <class T> __host__ __device__ void probe(T) {}
__global__ void kernel() {}
)cuda";

std::vector<std::string> parseArgs() {
  return {"-x",
          "cuda",
          "--cuda-device-only",
          "--cuda-gpu-arch=sm_90",
          "-nocudainc",
          "-nocudalib",
          "-resource-dir=" OCCLINT_CLANG_RESOURCE_DIR,
          "-std=c++17",
          "-Wno-unknown-cuda-version",
          "-isystem",
          OCCLINT_SOURCE_DIR "/tool/builtin-cuda",
          "-include",
          "occlint_cuda_builtin.h"};
}

class Snippet {
public:
  explicit Snippet(const std::string &Body) : Code(std::string(Prelude) + Body) {
    AST = tooling::buildASTFromCodeWithArgs(Code, parseArgs(), "input.cu");
  }

  bool parsed() const { return AST && !AST->getDiagnostics().hasErrorOccurred(); }
  ASTContext &ctx() { return AST->getASTContext(); }

  /// The arguments of every probe(...) call in source order (those in
  /// template patterns, which depend on the template's parameters, left out).
  std::vector<const Expr *> probes() {
    std::vector<const Expr *> Out;
    // Not hasArgument(): it would strip parentheses and implicit casts.
    for (const BoundNodes &N : match(
             callExpr(isExpansionInMainFile(), callee(functionDecl(hasName("probe"))), argumentCountIs(1)).bind("call"),
             ctx())) {
      const Expr *Arg = N.getNodeAs<CallExpr>("call")->getArg(0);
      if (!Arg->isInstantiationDependent())
        Out.push_back(Arg);
    }
    sortBySource(Out);
    return Out;
  }

  void sortBySource(std::vector<const Expr *> &Exprs) {
    const SourceManager &SM = ctx().getSourceManager();
    std::stable_sort(Exprs.begin(), Exprs.end(), [&](const Expr *A, const Expr *B) {
      return SM.getFileOffset(SM.getExpansionLoc(A->getBeginLoc())) <
             SM.getFileOffset(SM.getExpansionLoc(B->getBeginLoc()));
    });
  }

  /// The written grid (0) or block (1) argument of every launch (those in
  /// template patterns, which depend on the template's parameters, left out).
  std::vector<const Expr *> launchArgs(unsigned Index) {
    std::vector<const Expr *> Out;
    for (const BoundNodes &N : match(cudaKernelCallExpr().bind("launch"), ctx())) {
      const auto *Launch = N.getNodeAs<CUDAKernelCallExpr>("launch");
      const Expr *Arg = Launch->getConfig()->getArg(Index);
      if (!Arg->isInstantiationDependent())
        Out.push_back(Arg);
    }
    sortBySource(Out);
    return Out;
  }

  /// The 1-based line of the first occurrence of Needle in the full text.
  unsigned lineOf(const std::string &Needle) const {
    size_t Pos = Code.find(Needle);
    EXPECT_NE(Pos, std::string::npos) << Needle;
    if (Pos == std::string::npos)
      return 0;
    return 1 + static_cast<unsigned>(std::count(Code.begin(), Code.begin() + Pos, '\n'));
  }

  /// The line of a location in input.cu; 0 when it is elsewhere.
  unsigned lineOfLoc(SourceLocation Loc) {
    const SourceManager &SM = ctx().getSourceManager();
    SourceLocation Spelling = SM.getSpellingLoc(Loc);
    if (Spelling.isInvalid() || SM.getFileID(Spelling) != SM.getMainFileID())
      return 0;
    return SM.getSpellingLineNumber(Spelling);
  }

  std::string Code;
  std::unique_ptr<ASTUnit> AST;
};

/// The derivation step with exactly this text, or null.
const ValueDerivation *findStep(const std::vector<ValueDerivation> &Steps, const std::string &Text) {
  for (const ValueDerivation &D : Steps)
    if (D.text == Text)
      return &D;
  return nullptr;
}

std::string allSteps(const std::vector<ValueDerivation> &Steps) {
  std::string Out;
  for (const ValueDerivation &D : Steps)
    Out += "[" + D.text + "] ";
  return Out;
}

// Expects a derivation step with this text, placed on the line holding Needle.
#define EXPECT_STEP(S, Steps, Text, Needle)                                                                            \
  do {                                                                                                                 \
    const std::vector<ValueDerivation> Steps_ = (Steps);                                                               \
    const ValueDerivation *Step_ = findStep(Steps_, Text);                                                             \
    ASSERT_NE(Step_, nullptr) << "missing step '" << (Text) << "' in " << allSteps(Steps_);                            \
    EXPECT_EQ((S).lineOfLoc(Step_->loc), (S).lineOf(Needle)) << (Text);                                                \
  } while (0)

#define PARSE(S, Body)                                                                                                 \
  Snippet S(Body);                                                                                                     \
  ASSERT_TRUE(S.parsed()) << S.Code

EvaluatedValue probeValue(Snippet &S, unsigned Index = 0) {
  std::vector<const Expr *> P = S.probes();
  EXPECT_GT(P.size(), Index);
  if (P.size() <= Index)
    return EvaluatedValue::unknown("<no probe>");
  ValueEvaluator Eval(S.ctx());
  return Eval.evaluateInteger(*P[Index]);
}

/// The probe's argument read with its function called from Caller (two
/// frames: the probe's function, then the call of it in Caller).
EvaluatedValue probeValueCalledFrom(Snippet &S, unsigned Index, const std::string &Caller) {
  auto Probes = match(callExpr(isExpansionInMainFile(), callee(functionDecl(hasName("probe"))),
                               hasAncestor(functionDecl(isDefinition()).bind("fn")))
                          .bind("call"),
                      S.ctx());
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> Found;
  for (const BoundNodes &N : Probes)
    Found.emplace_back(N.getNodeAs<CallExpr>("call"), N.getNodeAs<FunctionDecl>("fn"));
  const SourceManager &SM = S.ctx().getSourceManager();
  std::sort(Found.begin(), Found.end(), [&](const auto &A, const auto &B) {
    return SM.getFileOffset(A.first->getBeginLoc()) < SM.getFileOffset(B.first->getBeginLoc());
  });
  EXPECT_GT(Found.size(), Index);
  if (Found.size() <= Index)
    return EvaluatedValue::unknown("<no probe>");
  const auto [Probe, Function] = Found[Index];
  auto Calls = match(callExpr(callee(functionDecl(equalsNode(Function))),
                              hasAncestor(functionDecl(hasName(Caller), isDefinition()).bind("caller")))
                         .bind("call"),
                     S.ctx());
  EXPECT_EQ(Calls.size(), 1u);
  if (Calls.empty())
    return EvaluatedValue::unknown("<no call>");
  clang::tidy::occlint::ValueContext Context;
  Context.frames = {{Function, Probe},
                    {Calls.front().getNodeAs<FunctionDecl>("caller"), Calls.front().getNodeAs<CallExpr>("call")}};
  clang::tidy::occlint::EvaluationTrace Trace;
  ValueEvaluator Eval(S.ctx());
  return Eval.evaluateInteger(*Probe->getArg(0), Context, &Trace);
}

EvaluatedDim3 launchDim3(Snippet &S, unsigned Arg, unsigned Index = 0) {
  std::vector<const Expr *> L = S.launchArgs(Arg);
  EXPECT_GT(L.size(), Index);
  if (L.size() <= Index)
    return {};
  ValueEvaluator Eval(S.ctx());
  return Eval.evaluateDim3(*L[Index]);
}

void expectExact(const EvaluatedValue &V, int64_t Expected) {
  EXPECT_TRUE(V.isExact()) << V.describe();
  if (V.isExact())
    EXPECT_EQ(V.exactValue(), Expected);
  EXPECT_TRUE(V.spelling.empty()) << V.spelling;
}

void expectRange(const EvaluatedValue &V, std::optional<int64_t> Min, std::optional<int64_t> Max) {
  EXPECT_FALSE(V.isExact()) << V.describe();
  EXPECT_EQ(V.min, Min) << V.describe();
  EXPECT_EQ(V.max, Max) << V.describe();
}

void expectUnknown(const EvaluatedValue &V, const std::string &Spelling) {
  EXPECT_TRUE(V.isUnknown()) << V.describe();
  EXPECT_EQ(V.spelling, Spelling);
  EXPECT_EQ(V.describe(), Spelling);
}

// ---------------------------------------------------------------------------
// The value types on their own.

TEST(EvaluatedValueTest, DescribesExactRangesAndUnknowns) {
  EXPECT_EQ(EvaluatedValue::exact(256).describe(), "256");
  EXPECT_TRUE(EvaluatedValue::exact(256).isExact());
  EXPECT_EQ(EvaluatedValue::range(128, 256).describe(), "128 to 256");
  EXPECT_TRUE(EvaluatedValue::range(128, 256).isBounded());
  EXPECT_FALSE(EvaluatedValue::range(128, 256).isExact());
  EXPECT_EQ(EvaluatedValue::range(std::nullopt, 40).describe(), "at most 40");
  EXPECT_EQ(EvaluatedValue::range(1, std::nullopt).describe(), "at least 1");
  EXPECT_FALSE(EvaluatedValue::range(1, std::nullopt).isBounded());
  EXPECT_EQ(EvaluatedValue::range(7, 7).describe(), "7");
  EXPECT_TRUE(EvaluatedValue::range(7, 7).isExact());
  EXPECT_EQ(EvaluatedValue::unknown().describe(), "unknown");
  EXPECT_TRUE(EvaluatedValue::unknown().isUnknown());
  EXPECT_EQ(EvaluatedValue::unknown("(n + 255) / 256").describe(), "(n + 255) / 256");
  EXPECT_EQ(EvaluatedValue::exact(-3).describe(), "-3");
}

TEST(EvaluatedDim3Test, ProductOfExactComponentsIsExact) {
  EvaluatedDim3 D;
  D.xyz = {EvaluatedValue::exact(16), EvaluatedValue::exact(8), EvaluatedValue::exact(2)};
  EXPECT_TRUE(D.isExact());
  EXPECT_EQ(D.exactValues(), (std::array<int64_t, 3>{16, 8, 2}));
  EvaluatedValue P = D.product();
  expectExact(P, 256);
  EvaluatedDim3 Default;
  expectExact(Default.product(), 1);
}

TEST(EvaluatedDim3Test, ProductOfRangesMultipliesIntervals) {
  EvaluatedDim3 D;
  D.xyz = {EvaluatedValue::range(2, 4), EvaluatedValue::exact(8), EvaluatedValue::range(1, 3)};
  expectRange(D.product(), 16, 96);
  D.xyz = {EvaluatedValue::range(std::nullopt, 40), EvaluatedValue::exact(2), EvaluatedValue::exact(1)};
  expectRange(D.product(), std::nullopt, 80);
  D.xyz = {EvaluatedValue::range(1, std::nullopt), EvaluatedValue::exact(32), EvaluatedValue::exact(1)};
  expectRange(D.product(), 32, std::nullopt);
}

TEST(EvaluatedDim3Test, ProductWithUnknownComponentIsUnknownWithSpelling) {
  EvaluatedDim3 D;
  D.xyz = {EvaluatedValue::unknown("bx"), EvaluatedValue::exact(4), EvaluatedValue::exact(1)};
  EvaluatedValue P = D.product();
  expectUnknown(P, "bx * 4");
  D.xyz = {EvaluatedValue::unknown("(n + 255) / 256"), EvaluatedValue::exact(1), EvaluatedValue::exact(1)};
  expectUnknown(D.product(), "(n + 255) / 256");
  D.xyz = {EvaluatedValue::unknown("(n + 255) / 256"), EvaluatedValue::range(2, 4), EvaluatedValue::exact(1)};
  expectUnknown(D.product(), "((n + 255) / 256) * (2 to 4)");
}

TEST(EvaluatedDim3Test, DerivationMergesComponentsWithoutDuplicates) {
  ValueDerivation A{SourceLocation(), "'a' is defined here as 16"};
  ValueDerivation B{SourceLocation(), "'b' is defined here as 4"};
  EvaluatedDim3 D;
  D.xyz[0] = EvaluatedValue::exact(16);
  D.xyz[0].derivation = {A};
  D.xyz[1] = EvaluatedValue::exact(4);
  D.xyz[1].derivation = {A, B};
  std::vector<ValueDerivation> Steps = D.derivation();
  ASSERT_EQ(Steps.size(), 2u) << allSteps(Steps);
  EXPECT_EQ(Steps[0].text, A.text);
  EXPECT_EQ(Steps[1].text, B.text);
  EXPECT_EQ(D.product().derivation.size(), 2u);
}

// ---------------------------------------------------------------------------
// Constants.

TEST(ValueEvaluatorTest, Literals) {
  PARSE(S, "void h() { probe(256); probe(0x40u); probe('A'); probe(true); }\n");
  expectExact(probeValue(S, 0), 256);
  expectExact(probeValue(S, 1), 64);
  expectExact(probeValue(S, 2), 65);
  expectExact(probeValue(S, 3), 1);
  EXPECT_TRUE(probeValue(S, 0).derivation.empty());
}

TEST(ValueEvaluatorTest, ConstexprGlobalGivesItsDefinition) {
  PARSE(S, "constexpr int kThreads = 256;\n"
           "void h() { probe(kThreads); }\n");
  EvaluatedValue V = probeValue(S);
  expectExact(V, 256);
  ASSERT_EQ(V.derivation.size(), 1u) << allSteps(V.derivation);
  EXPECT_STEP(S, V.derivation, "'kThreads' is defined here as 256", "constexpr int kThreads");
}

TEST(ValueEvaluatorTest, ConstGlobalStaticMemberAndConstLocal) {
  PARSE(S, "const int kA = 128;\n"
           "struct Cfg { static constexpr int kB = 2; };\n"
           "void h() {\n"
           "  const int kC = 3;\n"
           "  probe(kA * Cfg::kB);\n"
           "  probe(kC);\n"
           "}\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 256);
  EXPECT_STEP(S, V.derivation, "'kA' is defined here as 128", "const int kA");
  EXPECT_STEP(S, V.derivation, "'kB' is defined here as 2", "static constexpr int kB");
  EvaluatedValue L = probeValue(S, 1);
  expectExact(L, 3);
  EXPECT_STEP(S, L.derivation, "'kC' is defined here as 3", "const int kC");
}

TEST(ValueEvaluatorTest, ConstWithNonConstantInitializerIsItsInitializer) {
  PARSE(S, "void h(int n) {\n"
           "  const int twice = n * 2;\n"
           "  probe(twice);\n"
           "}\n");
  EvaluatedValue V = probeValue(S);
  expectUnknown(V, "twice");
  EXPECT_STEP(S, V.derivation, "'twice' is defined here as n * 2", "const int twice");
}

TEST(ValueEvaluatorTest, Enumerators) {
  PARSE(S, "enum { kTile = 64 };\n"
           "enum class Mode : int { Wide = 3 };\n"
           "void h() { probe(kTile * 2); probe(static_cast<int>(Mode::Wide)); }\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 128);
  EXPECT_STEP(S, V.derivation, "'kTile' is defined here as 64", "kTile = 64");
  EvaluatedValue W = probeValue(S, 1);
  expectExact(W, 3);
  EXPECT_STEP(S, W.derivation, "'Wide' is defined here as 3", "Wide = 3");
}

TEST(ValueEvaluatorTest, SizeofAndAlignof) {
  PARSE(S, "struct Pair { double a; int b; };\n"
           "void h() { probe(sizeof(double) * 32); probe(alignof(Pair)); probe(sizeof(Pair[4])); }\n");
  expectExact(probeValue(S, 0), 256);
  expectExact(probeValue(S, 1), 8);
  expectExact(probeValue(S, 2), 64);
}

TEST(ValueEvaluatorTest, ObjectLikeMacroExpandsToItsValue) {
  PARSE(S, "#define BLOCK 100\n"
           "void h() { probe(BLOCK); }\n");
  EvaluatedValue V = probeValue(S);
  expectExact(V, 100);
  ASSERT_EQ(V.derivation.size(), 1u) << allSteps(V.derivation);
  EXPECT_STEP(S, V.derivation, "'BLOCK' expands to 100", "#define BLOCK");
}

TEST(ValueEvaluatorTest, NestedMacrosGiveOneStepEachOuterFirst) {
  PARSE(S, "#define WARPS 4\n"
           "#define THREADS (WARPS * 32)\n"
           "void h() { probe(THREADS); probe(THREADS + 1); }\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 128);
  ASSERT_EQ(V.derivation.size(), 2u) << allSteps(V.derivation);
  EXPECT_EQ(V.derivation[0].text, "'THREADS' expands to 128");
  EXPECT_EQ(V.derivation[1].text, "'WARPS' expands to 4");
  EXPECT_STEP(S, V.derivation, "'THREADS' expands to 128", "#define THREADS");
  EXPECT_STEP(S, V.derivation, "'WARPS' expands to 4", "#define WARPS");
  EvaluatedValue W = probeValue(S, 1);
  expectExact(W, 129);
  EXPECT_STEP(S, W.derivation, "'THREADS' expands to 128", "#define THREADS");
}

TEST(ValueEvaluatorTest, MacroNamingAVariableAndMacroArguments) {
  PARSE(S, "constexpr int kThreads = 256;\n"
           "#define BLK kThreads\n"
           "#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))\n"
           "#define ID(x) x\n"
           "void h(int n) { probe(BLK); probe(CEIL_DIV(1000, BLK)); probe(CEIL_DIV(n, 256));\n"
           "                probe(ID(BLK)); }\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 256);
  EXPECT_STEP(S, V.derivation, "'BLK' expands to 256", "#define BLK");
  EXPECT_STEP(S, V.derivation, "'kThreads' is defined here as 256", "constexpr int kThreads");
  EvaluatedValue C = probeValue(S, 1);
  expectExact(C, 4);
  EXPECT_STEP(S, C.derivation, "'CEIL_DIV' expands to 4", "#define CEIL_DIV");
  EXPECT_STEP(S, C.derivation, "'BLK' expands to 256", "#define BLK");
  // An unknown macro value is not a step; its spelling is the invocation.
  EvaluatedValue U = probeValue(S, 2);
  expectUnknown(U, "CEIL_DIV(n, 256)");
  EXPECT_TRUE(U.derivation.empty()) << allSteps(U.derivation);
  EvaluatedValue I = probeValue(S, 3);
  expectExact(I, 256);
  ASSERT_EQ(I.derivation.size(), 3u) << allSteps(I.derivation);
  EXPECT_STEP(S, I.derivation, "'ID' expands to 256", "#define ID");
  EXPECT_STEP(S, I.derivation, "'BLK' expands to 256", "#define BLK");
  EXPECT_STEP(S, I.derivation, "'kThreads' is defined here as 256", "constexpr int kThreads");
}

TEST(ValueEvaluatorTest, TemplateInstantiationsGiveTheirOwnArguments) {
  PARSE(S, "template <int N>\n"
           "void f() { probe(N * 2); }\n"
           "void h() { f<32>(); f<64>(); }\n");
  std::vector<const Expr *> P = S.probes();
  ASSERT_EQ(P.size(), 2u);
  ValueEvaluator Eval(S.ctx());
  std::set<int64_t> Values;
  for (const Expr *E : P) {
    EvaluatedValue V = Eval.evaluateInteger(*E);
    ASSERT_TRUE(V.isExact()) << V.describe();
    Values.insert(V.exactValue());
    std::string Expected = "'N' is defined here as " + std::to_string(V.exactValue() / 2);
    EXPECT_STEP(S, V.derivation, Expected, "template <int N>");
  }
  EXPECT_EQ(Values, (std::set<int64_t>{64, 128}));
}

TEST(ValueEvaluatorTest, DependentExpressionInTemplatePatternIsUnknown) {
  PARSE(S, "template <int N>\n"
           "void f() { probe(N * 2); }\n");
  auto Found = match(binaryOperator(isExpansionInMainFile(), hasOperatorName("*")).bind("mul"), S.ctx());
  ASSERT_EQ(Found.size(), 1u);
  const auto *Mul = Found[0].getNodeAs<Expr>("mul");
  ASSERT_TRUE(Mul->isValueDependent());
  ValueEvaluator Eval(S.ctx());
  expectUnknown(Eval.evaluateInteger(*Mul), "N * 2");
}

TEST(ValueEvaluatorTest, CastsAndParens) {
  PARSE(S, "void h() {\n"
           "  probe((unsigned)((long)(3 + 4)));\n"
           "  probe(static_cast<unsigned char>(300));\n"
           "  probe(int(2.5 * 4));\n"
           "  probe(0u - 1u);\n"
           "}\n");
  expectExact(probeValue(S, 0), 7);
  expectExact(probeValue(S, 1), 44);
  expectExact(probeValue(S, 2), 10);
  expectExact(probeValue(S, 3), 4294967295);
}

TEST(ValueEvaluatorTest, ExactArithmeticOnAllOperators) {
  PARSE(S, "void h() {\n"
           "  int a = 1000, b = 24;\n"
           "  probe(a + b); probe(a - b); probe(a * b); probe(a / b); probe(a % b);\n"
           "  probe(b << 4); probe(a >> 3); probe(a & b); probe(a | b); probe(7 - 10);\n"
           "}\n");
  const int64_t Expected[] = {1024, 976, 24000, 41, 16, 384, 125, 1000 & 24, 1000 | 24, -3};
  for (unsigned I = 0; I < 10; ++I) {
    SCOPED_TRACE(I);
    expectExact(probeValue(S, I), Expected[I]);
  }
}

TEST(ValueEvaluatorTest, IntervalArithmeticOnRanges) {
  PARSE(S, "void h(bool c) {\n"
           "  int b = c ? 128 : 256;\n"
           "  probe(b); probe(b + 32); probe(b * 2); probe(b / 64); probe(b % 100);\n"
           "  probe(b - 200); probe(b << 1); probe(b >> 4); probe(b & 0xff); probe(b | 1);\n"
           "  probe(-b); probe(b * b);\n"
           "}\n");
  EvaluatedValue B = probeValue(S, 0);
  expectRange(B, 128, 256);
  EXPECT_EQ(B.describe(), "128 to 256");
  EXPECT_EQ(B.spelling, "b");
  EXPECT_STEP(S, B.derivation, "'b' is defined here as 128 to 256", "int b =");
  const std::pair<int64_t, int64_t> Expected[] = {{128, 256}, {160, 288}, {256, 512},   {2, 4},
                                                  {0, 99},    {-72, 56},  {256, 512},   {8, 16},
                                                  {0, 255},   {128, 511}, {-256, -128}, {16384, 65536}};
  for (unsigned I = 0; I < 12; ++I) {
    SCOPED_TRACE(I);
    expectRange(probeValue(S, I), Expected[I].first, Expected[I].second);
  }
}

TEST(ValueEvaluatorTest, DivisionByRangeContainingZeroIsUnknown) {
  PARSE(S, "void h(bool c) {\n"
           "  int d = c ? 0 : 4;\n"
           "  int e = c ? 2 : 4;\n"
           "  probe(256 / d); probe(256 % d); probe(256 / e); probe(256 / 0);\n"
           "}\n");
  EvaluatedValue Div = probeValue(S, 0);
  expectUnknown(Div, "256 / d");
  EXPECT_STEP(S, Div.derivation, "'d' is defined here as 0 to 4", "int d =");
  expectUnknown(probeValue(S, 1), "256 % d");
  expectRange(probeValue(S, 2), 64, 128);
  expectUnknown(probeValue(S, 3), "256 / 0");
}

TEST(ValueEvaluatorTest, ShiftsOutOfRangeAndWrappingAreUnknown) {
  PARSE(S, "void h(bool c, unsigned n) {\n"
           "  int s = c ? 0 : 40;\n"
           "  probe(1 << s);\n"
           "  probe(n - 1);\n"
           "  probe(n / 256);\n"
           "  probe(n & 255u);\n"
           "}\n");
  expectUnknown(probeValue(S, 0), "1 << s");
  expectUnknown(probeValue(S, 1), "n - 1");
  expectUnknown(probeValue(S, 2), "n / 256");
  expectRange(probeValue(S, 3), 0, 255);
}

TEST(ValueEvaluatorTest, ConditionalIsTheHullOrTheTakenArm) {
  PARSE(S, "void h(bool c, int n) {\n"
           "  probe(c ? 128 : 256);\n"
           "  probe(c ? 64 : 64);\n"
           "  probe(true ? 32 : n);\n"
           "  probe(sizeof(int) == 4 ? 256 : n);\n"
           "  probe(c ? n : 5);\n"
           "  probe(c ?: 7);\n"
           "}\n");
  expectRange(probeValue(S, 0), 128, 256);
  expectExact(probeValue(S, 1), 64);
  expectExact(probeValue(S, 2), 32);
  expectExact(probeValue(S, 3), 256);
  expectUnknown(probeValue(S, 4), "c ? n : 5");
  expectRange(probeValue(S, 5), std::nullopt, 7); // c converted to int is 0 or 1
}

TEST(ValueEvaluatorTest, MinMaxOfUnknownGiveHalfBounds) {
  PARSE(S, "void h(int n) {\n"
           "  probe(std::min(n, 40));\n"
           "  probe(std::max(n, 1));\n"
           "  probe(std::max(1, std::min(n, 1024)));\n"
           "}\n"
           "__device__ void d(int n, unsigned u) {\n"
           "  probe(min(n, 40));\n"
           "  probe(::max(n, 1));\n"
           "  probe(min(u, 40u));\n"
           "  probe(min(n, 40u));\n"
           "  probe(max(u, 32u));\n"
           "}\n");
  EvaluatedValue A = probeValue(S, 0);
  expectRange(A, std::nullopt, 40);
  EXPECT_EQ(A.describe(), "at most 40");
  EXPECT_EQ(A.spelling, "std::min(n, 40)");
  EvaluatedValue B = probeValue(S, 1);
  expectRange(B, 1, std::nullopt);
  EXPECT_EQ(B.describe(), "at least 1");
  expectRange(probeValue(S, 2), 1, 1024);
  expectRange(probeValue(S, 3), std::nullopt, 40);
  expectRange(probeValue(S, 4), 1, std::nullopt);
  expectRange(probeValue(S, 5), std::nullopt, 40);
  // CUDA's min(int, unsigned) compares as unsigned: still at most 40.
  expectRange(probeValue(S, 6), std::nullopt, 40);
  expectRange(probeValue(S, 7), 32, std::nullopt);
}

TEST(ValueEvaluatorTest, MinMaxOfRangesAndConstants) {
  PARSE(S, "constexpr int kCap = 256;\n"
           "void h(bool c) {\n"
           "  int b = c ? 128 : 512;\n"
           "  probe(std::min(b, kCap)); probe(std::max(b, kCap)); probe(std::min(100, kCap));\n"
           "}\n");
  EvaluatedValue A = probeValue(S, 0);
  expectRange(A, 128, 256);
  EXPECT_STEP(S, A.derivation, "'b' is defined here as 128 to 512", "int b =");
  EXPECT_STEP(S, A.derivation, "'kCap' is defined here as 256", "constexpr int kCap");
  expectRange(probeValue(S, 1), 256, 512);
  EvaluatedValue C = probeValue(S, 2);
  expectExact(C, 100);
  EXPECT_STEP(S, C.derivation, "'kCap' is defined here as 256", "constexpr int kCap");
}

TEST(ValueEvaluatorTest, MinMaxNeedTwoIntegerArguments) {
  PARSE(S, "int clamp(int a, int b) { return a < b ? a : b; }\n"
           "void h(int n) { probe(clamp(n, 40)); probe(int(std::min(2.5, 1.5) * 2)); }\n");
  expectUnknown(probeValue(S, 0), "clamp(n, 40)");
  expectExact(probeValue(S, 1), 3); // a constant anyway
}

TEST(ValueEvaluatorTest, HelperOfOneReturnStatementIsEvaluatedAtItsCall) {
  PARSE(S, "template <class T> T ceilDiv(T a, T b) { return (a + b - 1) / b; }\n"
           "static int perThread(const int &items, int per) { return items / per; }\n"
           "static int twoSteps(int n) { int h = n / 2; return h; }\n"
           "static int down(int n) { return n <= 32 ? n : down(n / 2); }\n"
           "void h(int n) {\n"
           "  int items = 1000;\n"
           "  probe(ceilDiv(items, 256));\n"
           "  probe(perThread(400, 4));\n"
           "  probe(ceilDiv(n, 256));\n"
           "  probe(ceilDiv(std::max(1, std::min(n, 1000)), 256));\n"
           "  probe(twoSteps(64));\n"
           "  probe(down(100));\n"
           "}\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 4);
  EXPECT_STEP(S, V.derivation, "'items' is defined here as 1000", "int items");
  EXPECT_STEP(S, V.derivation, "'ceilDiv' returns 4 here", "ceilDiv(items");
  expectExact(probeValue(S, 1), 100);
  // A runtime argument: unknown, with the call's own spelling.
  expectUnknown(probeValue(S, 2), "ceilDiv(n, 256)");
  // A range goes through the helper's arithmetic.
  expectRange(probeValue(S, 3), 1, 4);
  // Not one return statement, or recursive: run on its exact arguments
  // (HostFunctionRunner.h).
  EvaluatedValue Two = probeValue(S, 4);
  expectExact(Two, 32);
  EXPECT_STEP(S, Two.derivation, "'twoSteps' returns 32 here", "twoSteps(64)");
  expectExact(probeValue(S, 5), 25); // 100 -> 50 -> 25
}

TEST(ValueEvaluatorTest, HelperOfSeveralStatementsRunsOnlyOnExactArguments) {
  PARSE(S, "static int roundDown(int n) { int p = 1; while (p * 2 <= n) p *= 2; return p; }\n"
           "int printsToo(int n);\n"
           "static int logs(int n) { printsToo(n); return n; }\n"
           "void h(int n) {\n"
           "  const int items = 1000;\n"
           "  probe(roundDown(items));\n"
           "  probe(roundDown(n));\n"
           "  probe(roundDown(std::min(n, 300)));\n"
           "  probe(logs(64));\n"
           "}\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 512);
  EXPECT_STEP(S, V.derivation, "'items' is defined here as 1000", "const int items");
  EXPECT_STEP(S, V.derivation, "'roundDown' returns 512 here", "roundDown(items)");
  expectUnknown(probeValue(S, 1), "roundDown(n)");
  // A range is not run: each of its values could give another result.
  expectUnknown(probeValue(S, 2), "roundDown(std::min(n, 300))");
  // A call without a body stops the run.
  expectUnknown(probeValue(S, 3), "logs(64)");
}

// ---------------------------------------------------------------------------
// Variables: parameters, locals with one reaching definition, mutated locals.

TEST(ValueEvaluatorTest, ParameterIsUnknownWithItsName) {
  PARSE(S, "void h(int n, unsigned count) { probe(n); probe(count); }\n");
  EvaluatedValue V = probeValue(S, 0);
  expectUnknown(V, "n");
  EXPECT_TRUE(V.derivation.empty()) << allSteps(V.derivation);
  expectUnknown(probeValue(S, 1), "count");
}

TEST(ValueEvaluatorTest, LocalWithOneDefinition) {
  PARSE(S, "void h() {\n"
           "  int threads = 256;\n"
           "  int doubled = threads * 2;\n"
           "  probe(threads);\n"
           "  probe(doubled);\n"
           "}\n");
  EvaluatedValue V = probeValue(S, 0);
  expectExact(V, 256);
  ASSERT_EQ(V.derivation.size(), 1u) << allSteps(V.derivation);
  EXPECT_STEP(S, V.derivation, "'threads' is defined here as 256", "int threads");
  EvaluatedValue D = probeValue(S, 1);
  expectExact(D, 512);
  ASSERT_EQ(D.derivation.size(), 2u) << allSteps(D.derivation);
  EXPECT_EQ(D.derivation[0].text, "'doubled' is defined here as 512");
  EXPECT_EQ(D.derivation[1].text, "'threads' is defined here as 256");
  EXPECT_STEP(S, D.derivation, "'doubled' is defined here as 512", "int doubled");
}

TEST(ValueEvaluatorTest, MutatedLocalsAreUnknown) {
  PARSE(S, "void set(int *p);\n"
           "void h() {\n"
           "  int t = 256;\n"
           "  t += 32;\n"
           "  probe(t);\n"
           "  int u = 64;\n"
           "  int &r = u;\n"
           "  r = 3;\n"
           "  probe(u);\n"
           "  int w = 8;\n"
           "  set(&w);\n"
           "  probe(w);\n"
           "  for (int i = 0; i < 4; ++i) probe(i);\n"
           "  int late = 5;\n"
           "  for (int k = 0; k < 2; ++k) { probe(late); late = 6; }\n"
           "}\n");
  const char *Names[] = {"t", "u", "w", "i", "late"};
  for (unsigned I = 0; I < 5; ++I) {
    SCOPED_TRACE(Names[I]);
    EvaluatedValue V = probeValue(S, I);
    expectUnknown(V, Names[I]);
    EXPECT_TRUE(V.derivation.empty()) << allSteps(V.derivation);
  }
}

// ReachingWrites.h: a variable the function only reads and assigns.
TEST(ValueEvaluatorTest, AssignedVariableReadsTheAssignmentThatReachesIt) {
  PARSE(S, "static int roundDown(int n) { int p = 1; while (p * 2 <= n) p *= 2; return p; }\n"
           "void h(int c) {\n"
           "  int t = 1000;\n"
           "  probe(t);\n"                    // before any assignment: the initializer
           "  t = roundDown(t);\n"            // reads 1000
           "  probe(t);\n"                    // 512
           "  if (c) { t = 64; probe(t); }\n" // the assignment in its own block
           "  probe(t);\n"                    // 512 or 64: not known
           "  int u = 32;\n"
           "  u = u * 4;\n"
           "  { probe(u); }\n" // 128, from a block further up
           "  int v = 1;\n"
           "  v = 2;\n"
           "  switch (c) { case 0: v = 3; break; default: break; }\n"
           "  probe(v);\n" // 2 or 3: not known
           "  int w;\n"
           "  w = 256;\n"
           "  probe(w);\n" // declared without a value, then assigned
           "}\n");
  EvaluatedValue Before = probeValue(S, 0);
  expectExact(Before, 1000);
  EvaluatedValue After = probeValue(S, 1);
  expectExact(After, 512);
  EXPECT_STEP(S, After.derivation, "'t' is set here to 512", "t = roundDown");
  EXPECT_STEP(S, After.derivation, "'roundDown' returns 512 here", "roundDown(t)");
  expectExact(probeValue(S, 2), 64);
  expectUnknown(probeValue(S, 3), "t");
  expectExact(probeValue(S, 4), 128);
  expectUnknown(probeValue(S, 5), "v");
  expectExact(probeValue(S, 6), 256);
}

TEST(ValueEvaluatorTest, ClampIsDecidedByItsConditionOnTheValueBeforeIt) {
  PARSE(S, "static void clamp(int block) {\n"
           "  if (block < 256) block = 256;\n"
           "  probe(block);\n"
           "}\n"
           "static void twoClamps(int t) {\n"
           "  if (t < 64) { t = 64; }\n"
           "  if (t > 1024) t = 1024;\n"
           "  probe(t);\n"
           "}\n"
           "static void withElse(int t) {\n"
           "  if (t < 64) t = 64; else t = 128;\n"
           "  probe(t);\n"
           "}\n"
           "void small() { clamp(128); }\n"
           "void large() { clamp(512); }\n"
           "void tiny() { twoClamps(5); }\n"
           "void huge() { twoClamps(5000); }\n"
           "void middle() { twoClamps(300); }\n"
           "void other() { withElse(5); }\n"
           "void runtime(int n) { clamp(n); }\n");
  EvaluatedValue Raised = probeValueCalledFrom(S, 0, "small");
  expectExact(Raised, 256);
  EXPECT_STEP(S, Raised.derivation, "'block' is set here to 256", "block = 256");
  EvaluatedValue Kept = probeValueCalledFrom(S, 0, "large");
  expectExact(Kept, 512);
  EXPECT_STEP(S, Kept.derivation, "'block' keeps 512 here (the condition does not hold)", "if (block < 256)");
  expectExact(probeValueCalledFrom(S, 1, "tiny"), 64);
  expectExact(probeValueCalledFrom(S, 1, "huge"), 1024);
  expectExact(probeValueCalledFrom(S, 1, "middle"), 300);
  // An if with an else that assigns in both arms: the arm the condition
  // takes for the caller's value (5 < 64).
  EvaluatedValue Arm = probeValueCalledFrom(S, 2, "other");
  expectExact(Arm, 64);
  EXPECT_STEP(S, Arm.derivation, "'t' is set here to 64", "t = 64; else t = 128");
  // A condition on a runtime value: not known.
  expectUnknown(probeValueCalledFrom(S, 0, "runtime"), "block");
}

TEST(ValueEvaluatorTest, GuardsTestTheValueThatReachesThem) {
  PARSE(S, "static void guardAfter(int t) {\n"
           "  if (t < 64) t = 64;\n"
           "  if (t <= 100) probe(t);\n" // the guard tests the clamped value
           "}\n"
           "static void guardBefore(int t) {\n"
           "  if (t <= 100) {\n" // tests the argument
           "    t = t + 4;\n"
           "    probe(t);\n"
           "  }\n"
           "}\n"
           "void a(int n) { guardAfter(n); }\n"
           "void b(int n) { guardBefore(n); }\n");
  // a: the clamp's condition is not known (n), so neither is t.
  expectUnknown(probeValueCalledFrom(S, 0, "a"), "t");
  // b: t is set to n + 4; the guard speaks of n, not of the new t: it
  // bounds the argument (at most 100), so the value read is at most 104.
  EvaluatedValue V = probeValueCalledFrom(S, 1, "b");
  EXPECT_FALSE(V.isExact()) << V.describe();
  EXPECT_EQ(V.max, std::optional<int64_t>(104)) << V.describe();
}

TEST(ValueEvaluatorTest, AssignedParameterReadsItsArgumentBeforeTheAssignment) {
  PARSE(S, "static int roundDown(int n) { int p = 1; while (p * 2 <= n) p *= 2; return p; }\n"
           "static void launch(int block) {\n"
           "  block = roundDown(block);\n"
           "  probe(block);\n"
           "}\n"
           "static void loops(int block) {\n"
           "  for (int i = 0; i < 3; ++i) { probe(block); block = block * 2; }\n"
           "}\n"
           "void h() { launch(1000); loops(64); }\n");
  // Read in the caller's context: the argument, then the assignment.
  EvaluatedValue V = probeValueCalledFrom(S, 0, "h");
  expectExact(V, 512);
  EXPECT_STEP(S, V.derivation, "'block' is set here to 512", "block = roundDown");
  EXPECT_STEP(S, V.derivation, "'launch' is called here with 'block' = 1000", "launch(1000)");
  // Without the caller: the parameter's value stays unknown.
  expectUnknown(probeValue(S, 0), "block");
  // A write in a loop reaches the read on the next iteration.
  expectUnknown(probeValueCalledFrom(S, 1, "h"), "block");
}

TEST(ValueEvaluatorTest, ReadingALocalIsNotAMutation) {
  PARSE(S, "void use(int v);\n"
           "void useRef(const int &v);\n"
           "void h() {\n"
           "  int t = 128;\n"
           "  use(t); useRef(t);\n"
           "  int copy = t;\n"
           "  probe(t + copy);\n"
           "}\n");
  expectExact(probeValue(S), 256);
}

TEST(ValueEvaluatorTest, MembersOfAParameterAreTheCallersObjects) {
  PARSE(S, "struct Shape { int threads = 256; int blocks = 216; };\n"
           "constexpr Shape kShape{128, 64};\n"
           "void byRef(const Shape &s) { probe(s.threads); }\n"
           "void byValue(Shape s) { s.blocks = 7; probe(s.blocks); probe(s.threads); }\n"
           "void local() { Shape a; a.threads = 96; byRef(a); }\n"
           "void braced() { byValue(Shape{320, 1}); }\n"
           "void global() { probe(kShape.threads); byRef(kShape); }\n"
           "void pointer(const Shape *p) { byRef(*p); }\n");
  // Without a caller the member is unknown and keeps its spelling.
  expectUnknown(probeValue(S, 0), "s.threads");
  // A local object, read at the call through its writes.
  EvaluatedValue Local = probeValueCalledFrom(S, 0, "local");
  expectExact(Local, 96);
  EXPECT_STEP(S, Local.derivation, "'byRef' is called here with 's.threads' = 96", "byRef(a)");
  EXPECT_STEP(S, Local.derivation, "'a.threads' is set here to 96", "a.threads = 96");
  // A const global: its initializer.
  expectExact(probeValueCalledFrom(S, 0, "global"), 128);
  EvaluatedValue Direct = probeValue(S, 3);
  expectExact(Direct, 128);
  EXPECT_STEP(S, Direct.derivation, "'kShape.threads' is defined here as 128", "kShape{");
  // An object reached through a pointer is not followed.
  expectUnknown(probeValueCalledFrom(S, 0, "pointer"), "s.threads");
  // By value: the function's own write, else the braced temporary's element.
  expectExact(probeValueCalledFrom(S, 1, "braced"), 7);
  expectExact(probeValueCalledFrom(S, 2, "braced"), 320);
}

TEST(ValueEvaluatorTest, MemberInitializersOfAWrittenConstructor) {
  PARSE(S, "template <int N> struct Range {\n"
           "  Range(int b, int e) : begin(b), end(e), tpb(N) {}\n"
           "  int begin, end, tpb;\n"
           "};\n"
           "struct Logged { Logged(int t) : threads(t), blocks(64) { log(); } void log(); int threads, blocks; };\n"
           "struct Reset { Reset() : threads(128) { threads = 256; } int threads; };\n"
           "struct Braced { Braced() : threads{192} {} int threads; };\n"
           "void h(int n) {\n"
           "  Range<16> r(0, n);\n"
           "  probe(r.tpb);\n"
           "  probe(r.end);\n"
           "  Logged l(96);\n"
           "  probe(l.blocks);\n"
           "  Reset z;\n"
           "  probe(z.threads);\n"
           "  Braced b;\n"
           "  probe(b.threads);\n"
           "}\n");
  // A template argument in the member initializer.
  EvaluatedValue Tpb = probeValue(S, 0);
  expectExact(Tpb, 16);
  EXPECT_STEP(S, Tpb.derivation, "'tpb' is initialized here to 16", "tpb(N)");
  // A constructor parameter is not bound: unknown.
  expectUnknown(probeValue(S, 1), "r.end");
  // A body that calls a method, or writes the member, may change it.
  expectUnknown(probeValue(S, 2), "l.blocks");
  expectUnknown(probeValue(S, 3), "z.threads");
  expectExact(probeValue(S, 4), 192);
}

TEST(ValueEvaluatorTest, NonConstGlobalIsUnknown) {
  PARSE(S, "int gThreads = 256;\n"
           "void h() { probe(gThreads); }\n");
  expectUnknown(probeValue(S), "gThreads");
}

TEST(ValueEvaluatorTest, GridCeilDivOfParameterKeepsItsSpelling) {
  PARSE(S, "void h(int n) {\n"
           "  int blocks = (n + 255) / 256;\n"
           "  probe((n + 255) / 256);\n"
           "  probe(blocks);\n"
           "  probe((n +\n"
           "         255)   /  256);\n"
           "}\n");
  expectUnknown(probeValue(S, 0), "(n + 255) / 256");
  EvaluatedValue B = probeValue(S, 1);
  expectUnknown(B, "blocks");
  ASSERT_EQ(B.derivation.size(), 1u) << allSteps(B.derivation);
  EXPECT_STEP(S, B.derivation, "'blocks' is defined here as (n + 255) / 256", "int blocks");
  expectUnknown(probeValue(S, 2), "(n + 255) / 256");
}

TEST(ValueEvaluatorTest, BoundedParameterGivesARange) {
  PARSE(S, "void h(int n0) {\n"
           "  int n = std::max(1, std::min(n0, 1000));\n"
           "  probe((n + 255) / 256);\n"
           "}\n");
  EvaluatedValue V = probeValue(S);
  expectRange(V, 1, 4);
  EXPECT_STEP(S, V.derivation, "'n' is defined here as 1 to 1000", "int n =");
}

TEST(ValueEvaluatorTest, SelfReferenceAndLongChainsTerminate) {
  std::string Chain = "void g() {\n  int v0 = 1;\n";
  for (int I = 1; I < 60; ++I)
    Chain += "  int v" + std::to_string(I) + " = v" + std::to_string(I - 1) + " + v" + std::to_string(I - 1) + ";\n";
  Chain += "  probe(v59);\n  probe(v10);\n}\n";
  PARSE(S, "void h() { int a = a + 1; probe(a); }\n" + Chain);
  expectUnknown(probeValue(S, 0), "a");
  // Each v_i reads v_(i-1) twice: an evaluator that did not remember values
  // would take 2^59 steps and never end, which the suite's TIMEOUT fails
  // (tests/CMakeLists.txt). No clock here: a time bound fails on a loaded machine.
  EvaluatedValue Long = probeValue(S, 1);
  EXPECT_TRUE(Long.isUnknown()) << Long.describe();
  EXPECT_EQ(Long.spelling, "v59");
  expectExact(probeValue(S, 2), 1024);
}

// ---------------------------------------------------------------------------
// dim3.

TEST(ValueEvaluatorDim3Test, TemporariesAndIntegers) {
  PARSE(S, "void h() {\n"
           "  kernel<<<dim3(2, 3, 4), dim3(32, 8)>>>();\n"
           "  kernel<<<100, 256>>>();\n"
           "  kernel<<<dim3(7), 32 * 4>>>();\n"
           "}\n");
  EvaluatedDim3 G = launchDim3(S, 0, 0), B = launchDim3(S, 1, 0);
  ASSERT_TRUE(G.isExact());
  EXPECT_EQ(G.exactValues(), (std::array<int64_t, 3>{2, 3, 4}));
  ASSERT_TRUE(B.isExact());
  EXPECT_EQ(B.exactValues(), (std::array<int64_t, 3>{32, 8, 1}));
  expectExact(B.product(), 256);
  EvaluatedDim3 G2 = launchDim3(S, 0, 1), B2 = launchDim3(S, 1, 1);
  ASSERT_TRUE(G2.isExact() && B2.isExact());
  EXPECT_EQ(G2.exactValues(), (std::array<int64_t, 3>{100, 1, 1}));
  EXPECT_EQ(B2.exactValues(), (std::array<int64_t, 3>{256, 1, 1}));
  EvaluatedDim3 G3 = launchDim3(S, 0, 2), B3 = launchDim3(S, 1, 2);
  ASSERT_TRUE(G3.isExact() && B3.isExact());
  EXPECT_EQ(G3.exactValues(), (std::array<int64_t, 3>{7, 1, 1}));
  EXPECT_EQ(B3.exactValues(), (std::array<int64_t, 3>{128, 1, 1}));
}

TEST(ValueEvaluatorDim3Test, IntegerExpressionGivesXOneOne) {
  PARSE(S, "void h() { probe(64 * 2); }\n");
  ValueEvaluator Eval(S.ctx());
  EvaluatedDim3 D = Eval.evaluateDim3(*S.probes()[0]);
  ASSERT_TRUE(D.isExact());
  EXPECT_EQ(D.exactValues(), (std::array<int64_t, 3>{128, 1, 1}));
}

TEST(ValueEvaluatorDim3Test, VariableFormsWithOneDefinition) {
  PARSE(S, "void h() {\n"
           "  dim3 a(16, 16);\n"
           "  dim3 b = dim3(8, 4);\n"
           "  dim3 c{4, 4, 2};\n"
           "  dim3 d = 128;\n"
           "  dim3 e = a;\n"
           "  dim3 f;\n"
           "  kernel<<<1, a>>>();\n"
           "  kernel<<<1, b>>>();\n"
           "  kernel<<<1, c>>>();\n"
           "  kernel<<<1, d>>>();\n"
           "  kernel<<<1, e>>>();\n"
           "  kernel<<<f, 32>>>();\n"
           "}\n");
  const std::array<int64_t, 3> Expected[] = {{16, 16, 1}, {8, 4, 1}, {4, 4, 2}, {128, 1, 1}, {16, 16, 1}};
  const char *Names[] = {"a", "b", "c", "d", "e"};
  for (unsigned I = 0; I < 5; ++I) {
    SCOPED_TRACE(Names[I]);
    EvaluatedDim3 D = launchDim3(S, 1, I);
    ASSERT_TRUE(D.isExact()) << D.product().describe();
    EXPECT_EQ(D.exactValues(), Expected[I]);
  }
  std::vector<ValueDerivation> A = launchDim3(S, 1, 0).derivation();
  ASSERT_EQ(A.size(), 1u) << allSteps(A);
  EXPECT_STEP(S, A, "'a' is defined here as dim3(16, 16, 1)", "dim3 a(");
  std::vector<ValueDerivation> E = launchDim3(S, 1, 4).derivation();
  ASSERT_EQ(E.size(), 2u) << allSteps(E);
  EXPECT_EQ(E[0].text, "'e' is defined here as dim3(16, 16, 1)");
  EXPECT_STEP(S, E, "'e' is defined here as dim3(16, 16, 1)", "dim3 e =");
  EXPECT_STEP(S, E, "'a' is defined here as dim3(16, 16, 1)", "dim3 a(");
  EvaluatedDim3 F = launchDim3(S, 0, 5);
  ASSERT_TRUE(F.isExact());
  EXPECT_EQ(F.exactValues(), (std::array<int64_t, 3>{1, 1, 1}));
}

TEST(ValueEvaluatorDim3Test, ConstexprGlobalDim3) {
  PARSE(S, "constexpr dim3 kBlock(32, 4);\n"
           "void h() { kernel<<<1, kBlock>>>(); }\n");
  EvaluatedDim3 B = launchDim3(S, 1);
  ASSERT_TRUE(B.isExact());
  EXPECT_EQ(B.exactValues(), (std::array<int64_t, 3>{32, 4, 1}));
  expectExact(B.product(), 128);
  EXPECT_STEP(S, B.derivation(), "'kBlock' is defined here as dim3(32, 4, 1)", "constexpr dim3 kBlock");
}

TEST(ValueEvaluatorDim3Test, ComponentsFromVariablesAndMembers) {
  PARSE(S, "void h() {\n"
           "  const int bx = 32;\n"
           "  int by = 4;\n"
           "  dim3 b(bx, by);\n"
           "  kernel<<<1, b>>>();\n"
           "  probe(b.x * b.y);\n"
           "}\n");
  EvaluatedDim3 B = launchDim3(S, 1);
  ASSERT_TRUE(B.isExact());
  EXPECT_EQ(B.exactValues(), (std::array<int64_t, 3>{32, 4, 1}));
  std::vector<ValueDerivation> Steps = B.derivation();
  EXPECT_STEP(S, Steps, "'b' is defined here as dim3(32, 4, 1)", "dim3 b(");
  EXPECT_STEP(S, Steps, "'bx' is defined here as 32", "const int bx");
  EXPECT_STEP(S, Steps, "'by' is defined here as 4", "int by");
  EvaluatedValue P = B.product();
  expectExact(P, 128);
  EXPECT_EQ(P.derivation.size(), 3u) << allSteps(P.derivation);
  expectExact(probeValue(S), 128);
}

TEST(ValueEvaluatorDim3Test, AssignedMembersAreReadThroughTheirWritesOtherModifiedOrParameterDim3IsUnknown) {
  PARSE(S, "void h(dim3 block) {\n"
           "  dim3 b(16);\n"
           "  b.x = 256;\n"
           "  kernel<<<1, b>>>();\n"
           "  kernel<<<1, block>>>();\n"
           "  dim3 c(16);\n"
           "  c.x += 256;\n"
           "  kernel<<<1, c>>>();\n"
           "}\n");
  // b.x is the assignment's; b.y and b.z the constructor's defaults.
  EvaluatedDim3 B = launchDim3(S, 1, 0);
  ASSERT_TRUE(B.xyz[0].isExact());
  EXPECT_EQ(B.xyz[0].exactValue(), 256);
  ASSERT_TRUE(B.xyz[1].isExact());
  EXPECT_EQ(B.xyz[1].exactValue(), 1);
  EXPECT_NE(allSteps(B.derivation()).find("'b.x' is set here to 256"), std::string::npos) << allSteps(B.derivation());
  // A compound assignment is not followed.
  EvaluatedDim3 C = launchDim3(S, 1, 2);
  expectUnknown(C.xyz[0], "c.x");
  EXPECT_TRUE(C.product().isUnknown());
  EvaluatedDim3 P = launchDim3(S, 1, 1);
  expectUnknown(P.xyz[0], "block.x");
  expectUnknown(P.product(), "block.x * block.y * block.z");
}

TEST(ValueEvaluatorDim3Test, GridCeilDivIdiom) {
  PARSE(S, "void h(int n) {\n"
           "  kernel<<<(n + 255) / 256, 256>>>();\n"
           "  kernel<<<dim3((n + 127) / 128), 128>>>();\n"
           "  dim3 grid((n + 63) / 64);\n"
           "  kernel<<<grid, 64>>>();\n"
           "}\n");
  EvaluatedDim3 G = launchDim3(S, 0, 0);
  expectUnknown(G.xyz[0], "(n + 255) / 256");
  expectExact(G.xyz[1], 1);
  expectExact(G.xyz[2], 1);
  expectUnknown(G.product(), "(n + 255) / 256");
  expectExact(launchDim3(S, 1, 0).product(), 256);
  expectUnknown(launchDim3(S, 0, 1).xyz[0], "(n + 127) / 128");
  EvaluatedDim3 V = launchDim3(S, 0, 2);
  expectUnknown(V.xyz[0], "grid.x");
  expectExact(V.xyz[1], 1);
  EXPECT_STEP(S, V.derivation(), "'grid' is defined here as dim3((n + 63) / 64, 1, 1)", "dim3 grid(");
}

TEST(ValueEvaluatorDim3Test, GridOfBoundedSizeIsARange) {
  PARSE(S, "void h(int n0) {\n"
           "  int n = std::min(std::max(n0, 1), 1024);\n"
           "  kernel<<<dim3((n + 255) / 256), 256>>>();\n"
           "}\n");
  EvaluatedDim3 G = launchDim3(S, 0);
  expectRange(G.xyz[0], 1, 4);
  expectRange(G.product(), 1, 4);
  EXPECT_STEP(S, G.derivation(), "'n' is defined here as 1 to 1024", "int n =");
}

TEST(ValueEvaluatorDim3Test, UnknownComponentProductSpelling) {
  PARSE(S, "void h(int bx) { kernel<<<1, dim3(bx, 4)>>>(); }\n");
  EvaluatedDim3 B = launchDim3(S, 1);
  expectUnknown(B.xyz[0], "bx");
  expectExact(B.xyz[1], 4);
  expectUnknown(B.product(), "bx * 4");
}

TEST(ValueEvaluatorDim3Test, TemplateBlockSizes) {
  PARSE(S, "template <int B>\n"
           "void launch() { kernel<<<1, B>>>(); kernel<<<1, dim3(B, 2)>>>(); }\n"
           "void h() { launch<128>(); launch<96>(); }\n");
  std::vector<const Expr *> Blocks = S.launchArgs(1);
  ASSERT_EQ(Blocks.size(), 4u);
  ValueEvaluator Eval(S.ctx());
  std::multiset<int64_t> Products;
  for (const Expr *E : Blocks) {
    EvaluatedDim3 D = Eval.evaluateDim3(*E);
    ASSERT_TRUE(D.isExact()) << D.product().describe();
    Products.insert(D.product().exactValue());
    std::vector<ValueDerivation> Steps = D.derivation();
    ASSERT_EQ(Steps.size(), 1u) << allSteps(Steps);
    EXPECT_EQ(S.lineOfLoc(Steps[0].loc), S.lineOf("template <int B>"));
  }
  EXPECT_EQ(Products, (std::multiset<int64_t>{96, 128, 192, 256}));
}

TEST(ValueEvaluatorDim3Test, TypeTemplateArgumentsThroughSizeof) {
  PARSE(S, "template <class T>\n"
           "void launch() { kernel<<<1, sizeof(T) * 32>>>(); }\n"
           "void h() { launch<float>(); launch<double>(); }\n");
  std::vector<const Expr *> Blocks = S.launchArgs(1);
  ASSERT_EQ(Blocks.size(), 2u);
  ValueEvaluator Eval(S.ctx());
  std::set<int64_t> Products;
  for (const Expr *E : Blocks) {
    EvaluatedValue P = Eval.evaluateDim3(*E).product();
    ASSERT_TRUE(P.isExact()) << P.describe();
    Products.insert(P.exactValue());
  }
  EXPECT_EQ(Products, (std::set<int64_t>{128, 256}));
}

TEST(ValueEvaluatorDim3Test, LaunchInsideTemplatePattern) {
  PARSE(S, "template <class T>\n"
           "void launch(T v) {\n"
           "  int t = 256;\n"
           "  kernel<<<1, t>>>();\n"
           "  kernel<<<1, sizeof(T)>>>();\n"
           "}\n");
  auto Found = match(cudaKernelCallExpr(isExpansionInMainFile()).bind("launch"), S.ctx());
  ASSERT_EQ(Found.size(), 2u);
  ValueEvaluator Eval(S.ctx());
  std::vector<EvaluatedValue> Values;
  for (const BoundNodes &N : Found) {
    const Expr *Block = N.getNodeAs<CUDAKernelCallExpr>("launch")->getConfig()->getArg(1);
    Values.push_back(Eval.evaluateDim3(*Block).product());
  }
  std::sort(Values.begin(), Values.end(),
            [](const EvaluatedValue &A, const EvaluatedValue &B) { return A.isExact() > B.isExact(); });
  expectExact(Values[0], 256);                                // not dependent: the local's one definition
  EXPECT_TRUE(Values[1].isUnknown()) << Values[1].describe(); // depends on T
}

TEST(ValueEvaluatorDim3Test, ConstexprFunctionResultIsFolded) {
  PARSE(S, "constexpr dim3 makeBlock(unsigned w) { return dim3(w, 2); }\n"
           "void h() { kernel<<<1, makeBlock(64)>>>(); }\n");
  EvaluatedDim3 B = launchDim3(S, 1);
  ASSERT_TRUE(B.isExact());
  EXPECT_EQ(B.exactValues(), (std::array<int64_t, 3>{64, 2, 1}));
}

TEST(ValueEvaluatorDim3Test, EvaluatorIsReusableAcrossCalls) {
  PARSE(S, "void h(bool c) {\n"
           "  int t = c ? 64 : 128;\n"
           "  kernel<<<1, t>>>();\n"
           "  kernel<<<1, t * 2>>>();\n"
           "}\n");
  ValueEvaluator Eval(S.ctx());
  std::vector<const Expr *> Blocks = S.launchArgs(1);
  ASSERT_EQ(Blocks.size(), 2u);
  for (int Round = 0; Round < 2; ++Round) {
    expectRange(Eval.evaluateDim3(*Blocks[0]).product(), 64, 128);
    expectRange(Eval.evaluateDim3(*Blocks[1]).product(), 128, 256);
  }
  ValueEvaluator Copy = Eval;
  expectRange(Copy.evaluateDim3(*Blocks[0]).xyz[0], 64, 128);
}

} // namespace
