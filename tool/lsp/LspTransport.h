// The Language Server Protocol's base protocol: each JSON-RPC message is
// preceded by headers, "Content-Length: N\r\n" (and optionally
// Content-Type), and a blank line. Reads and writes those frames; what is in
// the bodies is the server's business (LspServer).
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <istream>
#include <string>

namespace occlint::lsp {

/// Reads one framed message after another from a stream (occlint lsp: stdin).
class MessageReader {
public:
  enum class Status {
    Message,    // `Body` holds the next message's body
    BadFrame,   // unreadable headers, skipped: `Error` says why; read again
    EndOfInput, // no more input; `Error` is set when it ended inside a message
  };

  /// Bodies longer than `MaxBodySize` are skipped as bad frames instead of
  /// being held in memory.
  explicit MessageReader(std::istream &In, size_t MaxBodySize = size_t(64) << 20) : In(In), MaxBodySize(MaxBodySize) {}

  Status read(std::string &Body, std::string &Error);

private:
  enum class LineStatus { Line, TooLong, EndOfInput };
  LineStatus readHeaderLine(std::string &Line);

  std::istream &In;
  size_t MaxBodySize;
};

/// Writes `Body` as one message (Content-Length header, blank line, body) and
/// flushes, so the client sees it at once.
void writeMessage(llvm::raw_ostream &OS, llvm::StringRef Body);

} // namespace occlint::lsp
