// The Language Server Protocol's message framing (tool/lsp/LspTransport.h):
// Content-Length headers, bodies counted in bytes, and what a broken frame
// does to the reader (an error, then the next frame is read normally).
#include "lsp/LspTransport.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace occlint::lsp;
using Status = MessageReader::Status;

namespace {

std::string frame(const std::string &Body) {
  return "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
}

TEST(LspTransport, ReadsMessagesBackToBack) {
  std::istringstream In(frame(R"({"id":1})") + "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" +
                        "content-length: 8\r\n\r\n" + R"({"id":2})");
  MessageReader Reader(In);
  std::string Body, Error;
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, R"({"id":1})");
  // Content-Type is allowed; header names are case-insensitive.
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, R"({"id":2})");
  EXPECT_EQ(Reader.read(Body, Error), Status::EndOfInput);
  EXPECT_EQ(Error, ""); // ended between messages: nothing wrong
}

TEST(LspTransport, ContentLengthCountsBytesNotCharacters) {
  const std::string Body = "{\"m\":\"Gr\xC3\xB6\xC3\x9F"
                           "e \xF0\x9D\x84\x9E\"}"; // "Größe 𝄞": 7 characters, 11 bytes
  std::string Written;
  {
    llvm::raw_string_ostream OS(Written);
    writeMessage(OS, Body);
  }
  EXPECT_EQ(Written.rfind("Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n", 0), 0u) << Written;
  std::istringstream In(Written + Written);
  MessageReader Reader(In);
  std::string Read, Error;
  for (int I = 0; I < 2; ++I) {
    ASSERT_EQ(Reader.read(Read, Error), Status::Message) << Error;
    EXPECT_EQ(Read, Body);
  }
}

TEST(LspTransport, AcceptsBareNewlines) {
  std::istringstream In("Content-Length: 2\n\n{}");
  MessageReader Reader(In);
  std::string Body, Error;
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, "{}");
}

TEST(LspTransport, HeadersWithoutContentLengthAreABadFrameThenReadingGoesOn) {
  std::istringstream In("this is not a header\r\nnor: this\r\n\r\n" + frame("{}"));
  MessageReader Reader(In);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::BadFrame);
  EXPECT_NE(Error.find("not a header: 'this is not a header'"), std::string::npos) << Error;
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, "{}");
}

TEST(LspTransport, InvalidContentLength) {
  for (const std::string Value : {"abc", "-5", "", "12abc", "99999999999999999999999"}) {
    std::istringstream In("Content-Length: " + Value + "\r\n\r\n" + frame("{}"));
    MessageReader Reader(In);
    std::string Body, Error;
    EXPECT_EQ(Reader.read(Body, Error), Status::BadFrame) << "'" << Value << "'";
    EXPECT_NE(Error.find("invalid Content-Length"), std::string::npos) << Error;
    EXPECT_EQ(Reader.read(Body, Error), Status::Message) << "'" << Value << "': " << Error;
  }
}

TEST(LspTransport, InputEndingInsideABody) {
  std::istringstream In("Content-Length: 10\r\n\r\n{\"a\"");
  MessageReader Reader(In);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::EndOfInput);
  EXPECT_NE(Error.find("4 of the 10 bytes"), std::string::npos) << Error;
  EXPECT_EQ(Body, "");
}

TEST(LspTransport, InputEndingInsideTheHeaders) {
  std::istringstream In("Content-Length: 10\r\n");
  MessageReader Reader(In);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::EndOfInput);
  EXPECT_NE(Error.find("headers"), std::string::npos) << Error;
}

TEST(LspTransport, BodyOverTheLimitIsSkipped) {
  std::istringstream In(frame(std::string(100, 'x')) + frame("{}"));
  MessageReader Reader(In, /*MaxBodySize=*/50);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::BadFrame);
  EXPECT_NE(Error.find("100 bytes"), std::string::npos) << Error;
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, "{}");
}

TEST(LspTransport, OverlongHeaderLineIsABadFrame) {
  std::istringstream In("X-Junk: " + std::string(100000, 'y') + "\r\n\r\n" + frame("{}"));
  MessageReader Reader(In);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::BadFrame);
  EXPECT_NE(Error.find("longer than"), std::string::npos) << Error;
  ASSERT_EQ(Reader.read(Body, Error), Status::Message) << Error;
  EXPECT_EQ(Body, "{}");
}

TEST(LspTransport, BinaryGarbageWithoutNewlinesEndsTheInputWithAnError) {
  std::string Garbage;
  for (int I = 0; I < 3000; ++I)
    Garbage += char(I * 37 % 251 + 1) == '\n' ? 'x' : char(I * 37 % 251 + 1);
  std::istringstream In(Garbage);
  MessageReader Reader(In);
  std::string Body, Error;
  EXPECT_EQ(Reader.read(Body, Error), Status::EndOfInput);
  EXPECT_FALSE(Error.empty());
}

} // namespace
