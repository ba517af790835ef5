// The rewrite of a __shared__ declaration Clang rejected for its constructor
// (lint/SharedDeclarationOverlay.h): which keyword is rewritten, and that the
// overlay keeps every other byte (and so every line and column) of the file.
#include "lint/SharedDeclarationOverlay.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <gtest/gtest.h>

namespace {

using occlint::sharedKeywordBefore;

size_t nameOffset(llvm::StringRef Text, llvm::StringRef Name) { return Text.find(Name); }

TEST(SharedDeclarationOverlay, FindsTheKeywordOfTheDeclaration) {
  const llvm::StringRef Text = "__global__ void k() {\n  __shared__ float f;\n  __shared__ cuda::barrier<x> bar;\n}";
  const size_t At = sharedKeywordBefore(Text, nameOffset(Text, "bar;"));
  ASSERT_NE(At, llvm::StringRef::npos);
  EXPECT_EQ(Text.substr(At, 30), "__shared__ cuda::barrier<x> ba");
}

TEST(SharedDeclarationOverlay, StopsAtTheStartOfTheDeclaration) {
  // The keyword of the previous declaration is not this one's.
  const llvm::StringRef Text = "__shared__ int a; Counter c;";
  EXPECT_EQ(sharedKeywordBefore(Text, nameOffset(Text, "c;")), llvm::StringRef::npos);
}

TEST(SharedDeclarationOverlay, WholeTokensOnly) {
  const llvm::StringRef Text = "{ my__shared__x Counter c;";
  EXPECT_EQ(sharedKeywordBefore(Text, nameOffset(Text, "c;")), llvm::StringRef::npos);
  const llvm::StringRef Spaced = "{ static __shared__\n    Counter\n    c;";
  EXPECT_EQ(sharedKeywordBefore(Spaced, nameOffset(Spaced, "c;")), Spaced.find("__shared__"));
}

TEST(SharedDeclarationOverlay, RewritesOnlyTheRejectedDeclarationsAndKeepsTheLength) {
  const std::string Text = "__global__ void k() {\n  __shared__ int flag;\n  __shared__ Counter c;\n}\n";
  auto Base = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Base->addFile("/src/k.cu", 0, llvm::MemoryBuffer::getMemBufferCopy(Text));
  auto Overlay = occlint::overlayRejectedSharedDeclarations({{"/src/k.cu", unsigned(Text.find("c;"))}}, Base);
  ASSERT_TRUE(Overlay);
  auto Buffer = Overlay->getBufferForFile("/src/k.cu");
  ASSERT_TRUE(Buffer);
  const std::string Rewritten = (*Buffer)->getBuffer().str();
  EXPECT_EQ(Rewritten.size(), Text.size());
  EXPECT_EQ(Rewritten, "__global__ void k() {\n  __shared__ int flag;\n  __occlsh__ Counter c;\n}\n");
}

TEST(SharedDeclarationOverlay, NothingToRewriteGivesNoOverlay) {
  auto Base = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Base->addFile("/src/m.cu", 0, llvm::MemoryBuffer::getMemBufferCopy("#define S __shared__\nS Counter c;\n"));
  // The keyword comes from a macro whose name is not __shared__: not rewritten.
  EXPECT_FALSE(occlint::overlayRejectedSharedDeclarations({{"/src/m.cu", 31}}, Base));
  EXPECT_FALSE(occlint::overlayRejectedSharedDeclarations({{"/src/missing.cu", 0}}, Base));
}

} // namespace
