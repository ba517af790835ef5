// Internal to the compile command translator: expanding --options-file and
// @file (response file) arguments into the words they hold, reading the files
// relative to the command's directory. Defined in ResponseFiles.cpp.
#pragma once

#include <string>
#include <vector>

namespace occlint::translator_detail {

struct Expander {
  std::string Directory;
  std::string Error;

  void addError(const std::string &Msg);

  void readFile(const std::string &File, const std::string &What, int Depth,
                std::vector<std::string> &Out);

  void expand(const std::vector<std::string> &In, int Depth, std::vector<std::string> &Out);
};

} // namespace occlint::translator_detail
