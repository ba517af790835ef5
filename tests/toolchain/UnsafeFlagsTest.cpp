// The flags that would make a compiler load or run other code
// (toolchain/UnsafeFlags.h): dropped with their values, everything else kept.
#include "toolchain/UnsafeFlags.h"

#include <gtest/gtest.h>

using namespace occlint;

TEST(UnsafeFlags, PluginsToolPathsAndConfigFilesAreDroppedWithTheirValues) {
  std::vector<std::string> Args = {"clang++",
                                   "-x",
                                   "cuda",
                                   "-fplugin=/x/evil.so",
                                   "-I",
                                   "inc",
                                   "-Xclang",
                                   "-load",
                                   "-Xclang",
                                   "/x/evil.so",
                                   "-fpass-plugin=/x/p.so",
                                   "-Xclang",
                                   "-add-plugin",
                                   "-Xclang",
                                   "evil",
                                   "-B",
                                   "/x/tools",
                                   "-B/x/t2",
                                   "--config=/x/c.cfg",
                                   "--config",
                                   "/x/d.cfg",
                                   "-fplugin-arg-evil-x=1",
                                   "-Xclang",
                                   "-fno-caret-diagnostics",
                                   "-DOK",
                                   "a.cu"};
  std::vector<std::string> Dropped = dropUnsafeClangFlags(Args);
  EXPECT_EQ(Args, (std::vector<std::string>{"clang++", "-x", "cuda", "-I", "inc", "-Xclang", "-fno-caret-diagnostics",
                                            "-DOK", "a.cu"}));
  EXPECT_EQ(Dropped,
            (std::vector<std::string>{"-fplugin=/x/evil.so", "-Xclang -load -Xclang /x/evil.so",
                                      "-fpass-plugin=/x/p.so", "-Xclang -add-plugin -Xclang evil", "-B /x/tools",
                                      "-B/x/t2", "--config=/x/c.cfg", "--config /x/d.cfg", "-fplugin-arg-evil-x=1"}));
}

TEST(UnsafeFlags, AnOrdinaryCommandIsUnchanged) {
  std::vector<std::string> Args = {"clang++", "-O2", "-std=c++17", "-fno-exceptions", "-Wall", "-c", "a.cu"};
  const std::vector<std::string> Before = Args;
  EXPECT_TRUE(dropUnsafeClangFlags(Args).empty());
  EXPECT_EQ(Args, Before);
}
