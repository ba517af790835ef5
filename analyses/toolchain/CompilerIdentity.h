// The identity of a compiler binary, for the keys of cached compiler results:
// its `--version` output. Asking costs a process per compiler per run, so the
// answer is remembered by the binary's path, size and modification time, in
// this process and in the result cache (a later run reads it instead of
// starting the compiler). A binary replaced in place changes size or mtime,
// so a stale identity is not used. docs/resource-reports.md.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace occlint {

/// "<binary> --version" (stdout and stderr, trimmed). `cacheDir` is the
/// result cache's directory ("" = its default); with `useCache` false only
/// the in-process memo is used. nullopt, with *error naming the binary, when
/// it cannot be run.
std::optional<std::string> compilerIdentity(const std::string &binary, std::chrono::seconds timeout,
                                            const std::string &cacheDir, bool useCache, std::string *error = nullptr);

/// The cache key of a binary's identity ("" when it cannot be stat'ed: such a
/// binary's answer is not kept across runs).
std::string compilerIdentityKey(const std::string &binary);

} // namespace occlint
