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
  /// Files read so far for this command: their number is bounded, so that
  /// files naming each other (or themselves) several times cannot make the
  /// expansion exponential.
  int FilesRead = 0;

  void addError(const std::string &Msg);

  void readFile(const std::string &File, const std::string &What, int Depth, std::vector<std::string> &Out);

  void expand(const std::vector<std::string> &In, int Depth, std::vector<std::string> &Out);
};

} // namespace occlint::translator_detail
