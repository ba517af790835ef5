// What the user, and only the user, trusts (docs/security.md): programs
// occlint may run besides the CUDA toolkit and the system host compilers,
// and workspaces the language server may start processes for. It comes from
// the user's command line (--allow-compiler, `occlint lsp --trust-workspace`),
// the environment ($OCCLINT_ALLOW_COMPILER) and the user's own config file
// ($XDG_CONFIG_HOME/occlint/config.yaml, else ~/.config/occlint/config.yaml),
// never from anything inside a checkout (.clang-tidy, compile_commands.json,
// editor workspace settings, LSP initializationOptions).
#pragma once

#include <string>
#include <vector>

namespace occlint {

struct UserTrust {
  std::vector<std::string> allowCompilers;    // globs, matched against realpaths
  std::vector<std::string> trustedWorkspaces; // directories (a workspace under one is trusted)
  std::string configPath;                     // the config file read, "" if none
};

/// The user config file's path ("" when neither $XDG_CONFIG_HOME nor $HOME is set).
std::string userConfigPath();

/// Reads $OCCLINT_ALLOW_COMPILER (globs separated by ':') and the user config
/// file, if there is one. A config file that is there but cannot be read or
/// parsed sets `Error` (naming the file and the problem).
UserTrust readUserTrust(std::string &Error);

/// Is `Directory` (absolute) one of `Roots` or under one?
bool isUnderTrustedRoot(const std::string &Directory, const std::vector<std::string> &Roots);

} // namespace occlint
