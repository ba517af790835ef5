// Response-file reading: expands --options-file / -optf and @file arguments,
// recursively, into the words of the files they name.
#include "toolchain/ResponseFiles.h"

#include "toolchain/CommandLineText.h"
#include "toolchain/CompileCommandTranslator.h"
#include "toolchain/NvccFlagTable.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace occlint::translator_detail {
namespace {

// --options-file / @file nesting; deeper means a file that names itself.
constexpr int kMaxOptionsFileDepth = 16;
// Files read for one command. The depth limit alone lets a file that names
// itself twice be read 2^16 times (three times: 3^16, a hang; found by
// fuzz-nvcc-command); real commands read a handful.
constexpr int kMaxOptionsFilesRead = 256;

} // namespace

void Expander::addError(const std::string &Msg) {
  if (!Error.empty())
    Error += "; ";
  Error += Msg;
}

void Expander::readFile(const std::string &File, const std::string &What, int Depth, std::vector<std::string> &Out) {
  if (Depth >= kMaxOptionsFileDepth) {
    addError(What + " '" + File + "' nested more than " + std::to_string(kMaxOptionsFileDepth) +
             " levels deep (does it name itself?)");
    return;
  }
  if (++FilesRead > kMaxOptionsFilesRead) {
    if (FilesRead == kMaxOptionsFilesRead + 1)
      addError("more than " + std::to_string(kMaxOptionsFilesRead) +
               " options and response files read for one "
               "command, the rest not read (do they name each other?), at " +
               What + " '" + File + "'");
    return;
  }
  namespace fs = std::filesystem;
  fs::path Path(File);
  if (Path.is_relative() && !Directory.empty())
    Path = fs::path(Directory) / Path;
  std::error_code Ec;
  if (!fs::is_regular_file(Path, Ec)) {
    addError("cannot read " + What + " '" + File + "' (" + Path.string() + ")");
    return;
  }
  if (const std::uintmax_t Bytes = fs::file_size(Path, Ec); !Ec && Bytes > kMaxResponseFileBytes) {
    addError(What + " '" + File + "' (" + Path.string() + ") is " + std::to_string(Bytes) + " bytes, more than the " +
             std::to_string(kMaxResponseFileBytes >> 20) + " MB an options file may have: not read (is it one?)");
    return;
  }
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  if (In)
    SS << In.rdbuf();
  if (!In) {
    addError("cannot read " + What + " '" + File + "' (" + Path.string() + ")");
    return;
  }
  expand(splitCommandLine(SS.str()), Depth + 1, Out);
}

void Expander::expand(const std::vector<std::string> &In, int Depth, std::vector<std::string> &Out) {
  for (size_t I = 0; I < In.size(); ++I) {
    const std::string &Tok = In[I];
    if (Tok.size() > 1 && Tok[0] == '@') {
      readFile(Tok.substr(1), "response file", Depth, Out);
      continue;
    }
    if (Tok.size() > 1 && Tok[0] == '-') {
      std::string Body = Tok.substr(Tok.starts_with("--") ? 2 : 1);
      size_t Eq = Body.find('=');
      if (isOptionsFileFlag(Body.substr(0, Eq))) {
        std::string Value;
        if (Eq != std::string::npos) {
          Value = Body.substr(Eq + 1);
        } else if (I + 1 < In.size()) {
          Value = In[++I];
        } else {
          addError(Tok + " at the end of the command names no file");
          continue;
        }
        for (const std::string &File : splitList(Value))
          readFile(File, "options file", Depth, Out);
        continue;
      }
    }
    Out.push_back(Tok);
  }
}

} // namespace occlint::translator_detail
