// Fuzz target: the language server's input, as bytes from a client: the
// framing (lsp/LspTransport.h) and the JSON-RPC handling (lsp/LspServer.h),
// in memory, with a fresh server per input. The server starts no process
// (an untrusted workspace, --no-compile) and finds no CUDA toolkit
// (source-only mode); its workspace is /tmp/occlint-fuzz-lsp, holding
// kernel.cu, which a client may open (the corpus does).
#include "FuzzSupport.h"
#include "lsp/LspServer.h"
#include "lsp/LspTransport.h"

#include "llvm/Support/raw_ostream.h"

#include <filesystem>
#include <sstream>

namespace {

std::string Argv0 = "fuzz-lsp";

// A fixed path, so that the corpus can name its file: /tmp/occlint-fuzz-lsp
// (rewritten at the start of every process; nothing else is written there).
const std::string &workspace() {
  static const std::string Dir = [] {
    std::string D = "/tmp/occlint-fuzz-lsp";
    std::filesystem::create_directories(D);
    occlint::fuzz::writeFile(D + "/kernel.cu", "__global__ void k(float *p) {\n"
                                               "  if (threadIdx.x < 3) __syncthreads();\n"
                                               "  p[threadIdx.x] = 0;\n}\n");
    return D;
  }();
  return Dir;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *Argc, char ***Argv) {
  if (*Argc > 0)
    Argv0 = (*Argv)[0];
  occlint::fuzz::useNoCudaToolkit();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  using namespace occlint;
  lsp::ServerOptions Options;
  Options.settings.noCompile = true;
  Options.settings.startProcesses = false;
  Options.settings.quiet = true;
  Options.argv0 = Argv0;
  Options.version = "fuzz";
  std::string Sent;
  lsp::Server Server(std::move(Options), [&Sent](const nlohmann::json &Message) {
    // As `occlint lsp` writes them (LspCommand.cpp).
    llvm::raw_string_ostream OS(Sent);
    lsp::writeMessage(OS, Message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  });
  std::istringstream In(std::string(fuzz::asText(Data, Size)));
  lsp::MessageReader Reader(In, size_t(1) << 20);
  std::string Body, Problem;
  while (!Server.exitRequested()) {
    const lsp::MessageReader::Status Status = Reader.read(Body, Problem);
    if (Status == lsp::MessageReader::Status::EndOfInput)
      break;
    if (Status == lsp::MessageReader::Status::BadFrame)
      Server.reportBadInput(Problem);
    else
      Server.handleMessage(Body);
  }
  Server.exitCode();
  return 0;
}
