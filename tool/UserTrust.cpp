#include "UserTrust.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/YAMLTraits.h"

namespace {

struct ConfigFile {
  std::vector<std::string> allowCompilers;
  std::vector<std::string> trustedWorkspaces;
};

} // namespace

template <> struct llvm::yaml::MappingTraits<ConfigFile> {
  static void mapping(llvm::yaml::IO &IO, ConfigFile &C) {
    IO.mapOptional("allow-compilers", C.allowCompilers);
    IO.mapOptional("trusted-workspaces", C.trustedWorkspaces);
  }
};

namespace occlint {

std::string userConfigPath() {
  llvm::SmallString<256> Path;
  if (auto Xdg = llvm::sys::Process::GetEnv("XDG_CONFIG_HOME"); Xdg && !Xdg->empty())
    Path = *Xdg;
  else if (auto Home = llvm::sys::Process::GetEnv("HOME"); Home && !Home->empty())
    llvm::sys::path::append(Path, *Home, ".config");
  else
    return {};
  llvm::sys::path::append(Path, "occlint", "config.yaml");
  return std::string(Path);
}

UserTrust readUserTrust(std::string &Error) {
  UserTrust Trust;
  if (auto Env = llvm::sys::Process::GetEnv("OCCLINT_ALLOW_COMPILER")) {
    llvm::SmallVector<llvm::StringRef, 4> Globs;
    llvm::StringRef(*Env).split(Globs, ':', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef G : Globs)
      Trust.allowCompilers.push_back(G.trim().str());
  }
  const std::string Path = userConfigPath();
  if (Path.empty() || !llvm::sys::fs::exists(Path))
    return Trust;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text) {
    Error = "cannot read the user config file " + Path + ": " + Text.getError().message();
    return Trust;
  }
  if ((*Text)->getBuffer().trim().empty())
    return Trust;
  ConfigFile Config;
  std::string Diagnostics;
  llvm::yaml::Input In((*Text)->getBuffer(), nullptr,
                       [](const llvm::SMDiagnostic &D, void *Out) {
                         std::string &Text = *static_cast<std::string *>(Out);
                         Text += (Text.empty() ? "" : "; ") +
                                 ("line " + std::to_string(D.getLineNo()) + ": " + D.getMessage().str());
                       },
                       &Diagnostics);
  In >> Config;
  if (In.error()) {
    Error = "invalid user config file " + Path + ": " + (Diagnostics.empty() ? In.error().message() : Diagnostics) +
            " (expected 'allow-compilers:' and 'trusted-workspaces:' lists)";
    return Trust;
  }
  Trust.configPath = Path;
  Trust.allowCompilers.insert(Trust.allowCompilers.end(), Config.allowCompilers.begin(), Config.allowCompilers.end());
  for (const std::string &W : Config.trustedWorkspaces) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(W, Real, /*expand_tilde=*/true))
      Trust.trustedWorkspaces.push_back(W); // not there (yet): kept as written
    else
      Trust.trustedWorkspaces.push_back(std::string(Real));
  }
  return Trust;
}

bool isUnderTrustedRoot(const std::string &Directory, const std::vector<std::string> &Roots) {
  llvm::SmallString<256> Real;
  llvm::StringRef Dir = Directory;
  if (!llvm::sys::fs::real_path(Directory, Real))
    Dir = Real;
  for (const std::string &Root : Roots) {
    llvm::StringRef R = llvm::StringRef(Root).rtrim('/');
    if (R.empty())
      R = "/";
    if (Dir == R || (Dir.starts_with(R) && (R == "/" || Dir.substr(R.size()).starts_with("/"))))
      return true;
  }
  return false;
}

} // namespace occlint
