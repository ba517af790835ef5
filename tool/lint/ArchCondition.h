// The value of a preprocessor condition that tests __CUDA_ARCH__ (`#if
// !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 530`), computed for a given arch
// from the condition's text: integer literals, __CUDA_ARCH__, defined(X), the
// object-like macros' bodies as the caller knows them, and C's operators
// (! ~ * / % + - << >> < <= > >= == != & ^ | && || ?:, parentheses). Anything
// else (a function-like macro, a macro whose body is not a number) has no
// value here: the caller then takes the condition as arch-dependent.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace occlint {

struct ArchConditionNames {
  /// The tokens an identifier other than __CUDA_ARCH__ and `defined` stands
  /// for: an object-like macro's body, {"0"} for a name that is no macro (as
  /// in #if); nullopt: unknown (a function-like macro, one the arch decides).
  std::function<std::optional<std::vector<std::string>>(llvm::StringRef)> bodyOf;
  /// Whether a macro other than __CUDA_ARCH__ is defined; nullopt: it
  /// depends on the arch.
  std::function<std::optional<bool>(llvm::StringRef)> isDefined;
};

/// The condition's tokens ("!", "defined", "(", "__CUDA_ARCH__", ...),
/// evaluated with __CUDA_ARCH__ = `ArchValue` (900 for sm_90).
std::optional<int64_t> evaluateArchCondition(const std::vector<std::string> &Tokens, int64_t ArchValue,
                                             const ArchConditionNames &Names);

/// "sm_90a" -> 900, "sm_100" -> 1000; nullopt for a name that is not sm_N.
std::optional<int64_t> cudaArchValue(llvm::StringRef Arch);

} // namespace occlint
