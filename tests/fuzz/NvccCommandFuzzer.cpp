// Fuzz target: the nvcc command translator (toolchain/CompileCommandTranslator.h)
// and its response files. The input, split at NUL bytes:
//   1. the command, one argument per line (also read as one shell command
//      line through splitCommandLine);
//   2.-4. the contents of a.rsp, b.rsp and opts.txt in the command's
//      directory (a scratch directory), for @a.rsp / --options-file opts.txt.
#include "FuzzSupport.h"
#include "toolchain/CompileCommandTranslator.h"

#include <filesystem>

namespace {

const std::string &commandDirectory() {
  static const std::string Dir = [] {
    std::string D = occlint::fuzz::scratchDir() + "/cmd";
    std::filesystem::create_directories(D);
    return D;
  }();
  return Dir;
}

void translate(const std::vector<std::string> &Argv) {
  using namespace occlint;
  isNvccCommand(Argv);
  isClangCommand(Argv);
  TranslatedCommand T = translateCompileCommand(Argv, commandDirectory());
  // What the tooling does next with the result: the translation of its own
  // output (a Clang command) must not fail either.
  if (!T.clangArgs.empty())
    translateCompileCommand(T.clangArgs, commandDirectory());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  const std::vector<std::string> Parts = fuzz::splitParts(fuzz::asText(Data, Size), 4);
  const char *Files[] = {"a.rsp", "b.rsp", "opts.txt"};
  for (size_t I = 0; I < 3; ++I) {
    const std::string Path = commandDirectory() + "/" + Files[I];
    if (I + 1 < Parts.size())
      fuzz::writeFile(Path, Parts[I + 1]);
    else
      std::filesystem::remove(Path);
  }
  std::vector<std::string> Lines;
  std::string_view Text = Parts[0];
  while (!Text.empty()) {
    const size_t End = Text.find('\n');
    Lines.emplace_back(Text.substr(0, End));
    Text.remove_prefix(End == std::string_view::npos ? Text.size() : End + 1);
  }
  translate(Lines);
  translate(splitCommandLine(Parts[0]));
  return 0;
}
