// A temporary directory for one test, removed with everything in it when the
// test ends; write() puts a file in it (creating parent directories).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace occlint::testing {

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string T = (std::filesystem::temp_directory_path() / "occlint-unit-test-XXXXXX").string();
    path = ::mkdtemp(T.data());
  }
  ~ScratchDir() {
    std::error_code Ec;
    std::filesystem::remove_all(path, Ec);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  std::string write(const std::string &Name, const std::string &Text) const {
    std::filesystem::create_directories((path / Name).parent_path());
    std::ofstream(path / Name) << Text;
    return (path / Name).string();
  }
};

} // namespace occlint::testing
