// tool/FileUris.cpp: file:// URIs and percent-encoded relative paths.
#include "FileUris.h"

#include <gtest/gtest.h>

using namespace occlint;

namespace {

TEST(FileUris, KeepsUnreservedCharactersAndSlashes) {
  EXPECT_EQ(percentEncodePath("src/a-b_c.d~e/F9.cu"), "src/a-b_c.d~e/F9.cu");
  EXPECT_EQ(fileUri("/work/main/a.cu"), "file:///work/main/a.cu");
}

TEST(FileUris, PercentEncodesEverythingElseByteByByte) {
  EXPECT_EQ(percentEncodePath("my kernels/a#1%.cu"), "my%20kernels/a%231%25.cu");
  EXPECT_EQ(percentEncodePath("c:x?y"), "c%3Ax%3Fy");
  // UTF-8 bytes, upper-case hex.
  EXPECT_EQ(fileUri("/caf\xc3\xa9.cu"), "file:///caf%C3%A9.cu");
}

} // namespace
