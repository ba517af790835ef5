// The per-arch value of a preprocessor condition (lint/ArchCondition.h):
// what decides whether a conditional of the project's code is the same for
// every arch of a compile command.
#include "lint/ArchCondition.h"

#include <gtest/gtest.h>

#include <map>

using occlint::ArchConditionNames;
using occlint::cudaArchValue;
using occlint::evaluateArchCondition;

namespace {

std::vector<std::string> tokens(std::initializer_list<const char *> List) { return {List.begin(), List.end()}; }

// Macros as a header would define them: "ONE" is 1, "ARCH_AT_LEAST_900" is
// (__CUDA_ARCH__ >= 900), "FN" is function-like, "PER_ARCH" is decided by
// the arch; anything else is no macro.
ArchConditionNames names() {
  ArchConditionNames N;
  N.bodyOf = [](llvm::StringRef Name) -> std::optional<std::vector<std::string>> {
    if (Name == "ONE")
      return tokens({"1"});
    if (Name == "ARCH_AT_LEAST_900")
      return tokens({"(", "__CUDA_ARCH__", ">=", "900", ")"});
    if (Name == "SELF")
      return tokens({"SELF"});
    if (Name == "FN" || Name == "PER_ARCH")
      return std::nullopt;
    return tokens({"0"});
  };
  N.isDefined = [](llvm::StringRef Name) -> std::optional<bool> {
    if (Name == "PER_ARCH")
      return std::nullopt;
    return Name == "ONE" || Name == "FN" || Name == "ARCH_AT_LEAST_900";
  };
  return N;
}

std::optional<int64_t> eval(std::initializer_list<const char *> Tokens, int64_t Arch) {
  return evaluateArchCondition(tokens(Tokens), Arch, names());
}

TEST(ArchCondition, ComparesTheArch) {
  EXPECT_EQ(eval({"__CUDA_ARCH__", ">=", "900"}, 800), 0);
  EXPECT_EQ(eval({"__CUDA_ARCH__", ">=", "900"}, 900), 1);
  EXPECT_EQ(eval({"__CUDA_ARCH__", "<", "700"}, 750), 0);
  EXPECT_EQ(eval({"__CUDA_ARCH__"}, 860), 860);
}

TEST(ArchCondition, DefinedCudaArchIsTrueInEveryDeviceParse) {
  // The toolkit's usual guard: the same for sm_80 and sm_90.
  auto Guard = {"!", "defined", "(", "__CUDA_ARCH__", ")", "||", "(", "__CUDA_ARCH__", ">=", "530", ")"};
  EXPECT_EQ(evaluateArchCondition(tokens(Guard), 800, names()), 1);
  EXPECT_EQ(evaluateArchCondition(tokens(Guard), 900, names()), 1);
  EXPECT_EQ(eval({"defined", "__CUDA_ARCH__"}, 750), 1);
}

TEST(ArchCondition, OtherMacrosByTheirBodies) {
  EXPECT_EQ(eval({"ONE", "&&", "__CUDA_ARCH__", ">=", "800"}, 800), 1);
  EXPECT_EQ(eval({"ARCH_AT_LEAST_900"}, 800), 0);
  EXPECT_EQ(eval({"ARCH_AT_LEAST_900"}, 1000), 1);
  EXPECT_EQ(eval({"NOT_A_MACRO"}, 800), 0);
  EXPECT_EQ(eval({"defined", "(", "ONE", ")", "&&", "!", "defined", "OTHER"}, 800), 1);
}

TEST(ArchCondition, WhatCannotBeKnownHasNoValue) {
  EXPECT_EQ(eval({"FN", "(", "1", ")"}, 800), std::nullopt);
  EXPECT_EQ(eval({"defined", "(", "PER_ARCH", ")"}, 800), std::nullopt);
  EXPECT_EQ(eval({"PER_ARCH", ">", "1"}, 800), std::nullopt);
  EXPECT_EQ(eval({"SELF"}, 800), std::nullopt); // names itself: the depth bound stops it
  EXPECT_EQ(eval({"__CUDA_ARCH__", ">="}, 800), std::nullopt);
  EXPECT_EQ(eval({"1", "/", "0"}, 800), std::nullopt);
  EXPECT_EQ(eval({"(", "1"}, 800), std::nullopt);
  EXPECT_EQ(eval({"1", "2"}, 800), std::nullopt);
}

TEST(ArchCondition, PrecedenceAndOperatorsAreC) {
  EXPECT_EQ(eval({"1", "+", "2", "*", "3"}, 800), 7);
  EXPECT_EQ(eval({"1", "||", "0", "&&", "0"}, 800), 1);
  EXPECT_EQ(eval({"0", "?", "5", ":", "6"}, 800), 6);
  EXPECT_EQ(eval({"1", "<<", "4", "|", "1"}, 800), 17);
  EXPECT_EQ(eval({"-", "1", "<", "0"}, 800), 1);
  EXPECT_EQ(eval({"900L", "==", "__CUDA_ARCH__"}, 900), 1);
  EXPECT_EQ(eval({"0x10", "==", "16"}, 900), 1);
}

TEST(ArchCondition, ArchValues) {
  EXPECT_EQ(cudaArchValue("sm_90"), 900);
  EXPECT_EQ(cudaArchValue("sm_90a"), 900);
  EXPECT_EQ(cudaArchValue("sm_100f"), 1000);
  EXPECT_EQ(cudaArchValue("sm_75"), 750);
  EXPECT_EQ(cudaArchValue("compute_90"), std::nullopt);
  EXPECT_EQ(cudaArchValue("sm_"), std::nullopt);
}

} // namespace
