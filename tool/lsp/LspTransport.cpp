#include "lsp/LspTransport.h"

#include "llvm/ADT/StringExtras.h"

#include <optional>

namespace occlint::lsp {

namespace {

constexpr size_t MaxHeaderLine = 8192;

// A short, printable excerpt of a bad header line for the error message.
std::string excerpt(llvm::StringRef Line) {
  std::string Out;
  for (char C : Line.take_front(40))
    Out += llvm::isPrint(C) ? C : '?';
  if (Line.size() > 40)
    Out += "...";
  return Out;
}

} // namespace

MessageReader::LineStatus MessageReader::readHeaderLine(std::string &Line) {
  Line.clear();
  bool TooLong = false;
  for (int C = In.get(); C != std::char_traits<char>::eof(); C = In.get()) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return TooLong ? LineStatus::TooLong : LineStatus::Line;
    }
    if (Line.size() < MaxHeaderLine)
      Line += char(C);
    else
      TooLong = true; // keep reading to the end of the line, keep nothing more
  }
  return LineStatus::EndOfInput;
}

MessageReader::Status MessageReader::read(std::string &Body, std::string &Error) {
  Body.clear();
  Error.clear();
  std::optional<size_t> Length;
  std::string Problem;    // the first thing wrong with these headers
  bool InHeaders = false; // read a header line of this message already
  for (;;) {
    std::string Line;
    const LineStatus Status = readHeaderLine(Line);
    if (Status == LineStatus::EndOfInput) {
      if (InHeaders || !Line.empty())
        Error = "input ended inside a message's headers";
      return Status::EndOfInput;
    }
    if (Status == LineStatus::TooLong) {
      InHeaders = true;
      if (Problem.empty())
        Problem = "a header line longer than " + std::to_string(MaxHeaderLine) + " bytes";
      continue;
    }
    if (Line.empty()) {
      if (!InHeaders)
        continue; // a stray blank line between messages
      break;      // the end of the headers
    }
    InHeaders = true;
    const size_t Colon = Line.find(':');
    if (Colon == std::string::npos) {
      if (Problem.empty())
        Problem = "not a header: '" + excerpt(Line) + "'";
      continue;
    }
    llvm::StringRef Name = llvm::StringRef(Line).take_front(Colon).trim();
    llvm::StringRef Value = llvm::StringRef(Line).drop_front(Colon + 1).trim();
    if (!Name.equals_insensitive("Content-Length"))
      continue; // Content-Type, or a header we do not know: ignored
    unsigned long long N = 0;
    if (Value.getAsInteger(10, N) || Value.empty() || !llvm::isDigit(Value.front())) {
      Problem = "invalid Content-Length '" + excerpt(Value) + "'";
      Length.reset();
      continue;
    }
    Length = size_t(N);
  }

  if (!Length) {
    Error = Problem.empty() ? "message headers without Content-Length" : Problem;
    return Status::BadFrame;
  }
  if (*Length > MaxBodySize) {
    In.ignore(std::streamsize(*Length));
    Error = "a message of " + std::to_string(*Length) + " bytes, over the limit of " + std::to_string(MaxBodySize) +
            ": skipped";
    return In.eof() ? Status::EndOfInput : Status::BadFrame;
  }
  Body.resize(*Length);
  In.read(Body.data(), std::streamsize(*Length));
  const size_t Got = size_t(In.gcount());
  if (Got < *Length) {
    Error = "input ended after " + std::to_string(Got) + " of the " + std::to_string(*Length) + " bytes of a message";
    Body.clear();
    return Status::EndOfInput;
  }
  return Status::Message;
}

void writeMessage(llvm::raw_ostream &OS, llvm::StringRef Body) {
  OS << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  OS.flush();
}

} // namespace occlint::lsp
