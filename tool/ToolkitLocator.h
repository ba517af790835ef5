// Temporary: where the CUDA toolkit is (replaced by ResourceCompiler's findCudaToolkit).
#pragma once
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace occlint {
inline std::optional<std::string> findCudaToolkit(const std::string &ExplicitPath) {
  std::vector<std::string> Candidates;
  if (!ExplicitPath.empty())
    return std::filesystem::exists(ExplicitPath + "/include/cuda_runtime.h") ? std::optional(ExplicitPath) : std::nullopt;
  if (const char *Env = std::getenv("CUDA_PATH"))
    Candidates.push_back(Env);
  Candidates.push_back("/usr/local/cuda");
  for (const std::string &C : Candidates)
    if (std::filesystem::exists(C + "/include/cuda_runtime.h"))
      return C;
  return std::nullopt;
}
} // namespace occlint
