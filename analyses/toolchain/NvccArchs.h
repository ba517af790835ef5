// Internal to the compile command translator: reading target archs from
// nvcc's and Clang's spellings (sm_XX, compute_XX, lto_XX, -gencode values)
// and writing them as Clang 22 accepts them. Defined in NvccArchs.cpp.
#pragma once

#include "toolchain/CompileCommandTranslator.h"

#include <optional>
#include <string>
#include <vector>

namespace occlint::translator_detail {

// "sm_80", "compute_80", "lto_80" (also with a/f suffixes) -> "sm_80".
std::optional<std::string> normalizeArch(const std::string &Raw);

// -gencode's value: "arch=compute_80,code=sm_80", "arch=compute_90a,code=[sm_90a,compute_90a]",
// 'arch=compute_80,code="sm_80,compute_80"'. The real archs it produces: those of
// code= (compute_XX counted as sm_XX), else arch='s.
std::optional<std::vector<std::string>> parseGencode(const std::string &Value);

// The archs of a list of nvcc code names (-code's value, a -gencode's code=)
// whose device code such a compile leaves to the device link: lto_XX named,
// sm_XX not (with sm_XX too, ptxas runs at compile time as well). Normalized.
std::vector<std::string> linkTimeOnlyArchs(const std::vector<std::string> &Codes);

// The code= items of a -gencode value, as written ("sm_90", "lto_90").
std::vector<std::string> gencodeCodes(const std::string &Value);

// Appends A to Archs unless it is there already.
void addArch(std::vector<std::string> &Archs, const std::string &A);

// The arch as Clang 22 spells it: it has no family-specific targets (sm_100f),
// the arch-specific one (sm_100a) offers a superset of their features.
std::string clangArchName(const std::string &A, TranslatedCommand &R);

} // namespace occlint::translator_detail
