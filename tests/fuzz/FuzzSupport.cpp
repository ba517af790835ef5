#include "FuzzSupport.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace occlint::fuzz {
namespace {

struct Scratch {
  std::string Path;
  Scratch() {
    const char *Tmp = std::getenv("TMPDIR");
    std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") + "/occlint-fuzz-XXXXXX";
    if (!::mkdtemp(Template.data())) {
      std::perror("occlint fuzz: mkdtemp");
      std::abort();
    }
    Path = Template;
    ::setenv("OCCLINT_CACHE_DIR", (Path + "/cache").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (Path + "/cache").c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (Path + "/config").c_str(), 1);
    ::setenv("HOME", (Path + "/home").c_str(), 1);
  }
  ~Scratch() {
    std::error_code Ignored;
    std::filesystem::remove_all(Path, Ignored);
  }
};

Scratch &scratch() {
  static Scratch Instance;
  return Instance;
}

// Created before main, so that the environment is set before anything reads it.
[[maybe_unused]] const bool Created = (scratch(), true);

} // namespace

const std::string &scratchDir() { return scratch().Path; }

void useNoCudaToolkit() { ::setenv("CUDA_PATH", (scratchDir() + "/no-toolkit").c_str(), 1); }

std::vector<std::string> splitParts(std::string_view Input, size_t MaxParts) {
  std::vector<std::string> Parts;
  while (Parts.size() + 1 < MaxParts) {
    const size_t Nul = Input.find('\0');
    if (Nul == std::string_view::npos)
      break;
    Parts.emplace_back(Input.substr(0, Nul));
    Input.remove_prefix(Nul + 1);
  }
  Parts.emplace_back(Input);
  return Parts;
}

void writeFile(const std::string &Path, std::string_view Text) {
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out.write(Text.data(), std::streamsize(Text.size()));
}

} // namespace occlint::fuzz
