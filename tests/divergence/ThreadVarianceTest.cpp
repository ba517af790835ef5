// Unit tests of the divergence analysis' abstract domain (ThreadVariance.h):
// per-lane tables with an aligned warp-uniform rest.
#include "divergence/ThreadVariance.h"

#include <gtest/gtest.h>

#include <array>

using namespace clang::tidy::occlint;

namespace {

ThreadValue c(int64_t V) { return ThreadValue::constant(V); }
ThreadValue tid() { return ThreadValue::linearTid(); }

uint32_t lanesWhere(const ThreadValue &B) {
  auto M = toBool(B).trueLanes();
  EXPECT_TRUE(M.has_value()) << B.str();
  return M.value_or(0);
}

TEST(ThreadVariance, UniformAndConstants) {
  EXPECT_TRUE(c(3).blockUniform());
  EXPECT_EQ(add(c(3), c(4)).exact(), 7);
  EXPECT_TRUE(ThreadValue::uniform().blockUniform());
  EXPECT_FALSE(ThreadValue::warpUniform().blockUniform());
  EXPECT_TRUE(ThreadValue::warpUniform().laneConstant());
  EXPECT_EQ(ThreadValue::warpUniform().uniformGroup(), 32u);
  EXPECT_EQ(tid().uniformGroup(), 1u);
  EXPECT_EQ(ThreadValue::top().uniformGroup(), 1u);
}

TEST(ThreadVariance, WarpUniformPatterns) {
  // tid / 32, tid >> 5, tid & ~31, tid < 64, (tid / 64) are the same in all lanes of a warp.
  EXPECT_EQ(div(tid(), c(32)).uniformGroup(), 32u);
  EXPECT_EQ(shr(tid(), c(5)).uniformGroup(), 32u);
  EXPECT_EQ(bitAnd(tid(), c(~31)).uniformGroup(), 32u);
  EXPECT_EQ(compare(CompareOp::LT, tid(), c(64)).uniformGroup(), 32u);
  EXPECT_EQ(compare(CompareOp::GE, tid(), c(96)).uniformGroup(), 32u);
  EXPECT_EQ(div(tid(), c(64)).uniformGroup(), 32u);
  EXPECT_EQ(compare(CompareOp::EQ, div(tid(), c(32)), c(2)).uniformGroup(), 32u);
  // Not a multiple of 32: splits.
  // The warp holding thread 48 splits between its halves: each aligned
  // group of 16 lanes is on one side (issue 47: a guard as large as a
  // tiled_partition's tile leaves every tile whole).
  EXPECT_EQ(compare(CompareOp::LT, tid(), c(48)).uniformGroup(), 16u);
  EXPECT_EQ(compare(CompareOp::LT, tid(), c(8)).uniformGroup(), 8u);
  EXPECT_EQ(compare(CompareOp::GE, tid(), c(40)).uniformGroup(), 8u);
  EXPECT_EQ(compare(CompareOp::LE, tid(), c(7)).uniformGroup(), 8u);
  EXPECT_EQ(compare(CompareOp::LT, tid(), c(7)).uniformGroup(), 1u);
  EXPECT_EQ(compare(CompareOp::LT, tid(), ThreadValue::uniform()).uniformGroup(), 1u); // a bound not known
  // Kept through && and ! (a tile-sized guard and a warp-uniform one).
  EXPECT_EQ(logicalAnd(compare(CompareOp::LT, tid(), c(8)), compare(CompareOp::LT, tid(), c(64))).uniformGroup(), 8u);
  EXPECT_EQ(logicalNot(compare(CompareOp::LT, tid(), c(4))).uniformGroup(), 4u);
  EXPECT_EQ(div(tid(), c(16)).uniformGroup(), 16u);
  EXPECT_EQ(div(tid(), c(24)).uniformGroup(), 1u);
  // An offset that is a multiple of 32 (blockIdx.x * 256) keeps the lane pattern.
  ThreadValue Global = add(mul(ThreadValue::uniform(), c(256)), tid());
  EXPECT_EQ(lanesWhere(compare(CompareOp::EQ, rem(Global, c(2)), c(0))), 0x55555555u);
}

TEST(ThreadVariance, LanePatterns) {
  EXPECT_EQ(lanesWhere(compare(CompareOp::EQ, rem(tid(), c(2)), c(0))), 0x55555555u);
  EXPECT_EQ(lanesWhere(bitAnd(tid(), c(1))), 0xAAAAAAAAu);
  EXPECT_EQ(lanesWhere(compare(CompareOp::LT, rem(tid(), c(32)), c(16))), 0x0000FFFFu);
  EXPECT_EQ(lanesWhere(compare(CompareOp::EQ, ThreadValue::laneId(), c(0))), 1u);
  EXPECT_EQ(describeSplit(compare(CompareOp::EQ, rem(tid(), c(2)), c(0))), "even and odd lanes take different paths");
  EXPECT_EQ(describeSplit(compare(CompareOp::LT, ThreadValue::laneId(), c(16))),
            "lanes 0-15 and lanes 16-31 take different paths");
  EXPECT_EQ(describeSplit(compare(CompareOp::EQ, rem(tid(), c(4)), c(0))),
            "every 4th lane (lanes 0, 4, ...) takes a different path from the others");
  EXPECT_EQ(describeSplit(compare(CompareOp::LT, tid(), c(64))), "");
  // Tiles of 16: uniform within each half warp.
  EXPECT_EQ(compare(CompareOp::EQ, rem(div(tid(), c(16)), c(2)), c(0)).uniformGroup(), 16u);
}

TEST(ThreadVariance, BoundaryAndSingleThread) {
  ThreadValue N = ThreadValue::uniform();
  ThreadValue Global = add(mul(ThreadValue::uniform(), ThreadValue::uniform()), tid());
  EXPECT_EQ(compare(CompareOp::LT, Global, N).Split, SplitKind::Boundary);
  EXPECT_EQ(compare(CompareOp::LT, tid(), N).Split, SplitKind::Boundary); // tid < s of a reduction
  EXPECT_EQ(compare(CompareOp::EQ, tid(), c(0)).Split, SplitKind::SingleThread);
  // A lane compared with a run-time bound splits every warp.
  EXPECT_EQ(compare(CompareOp::LT, ThreadValue::laneId(), N).Split, SplitKind::Threshold);
  // Two boundary guards together are still a boundary guard.
  EXPECT_EQ(logicalAnd(compare(CompareOp::LT, Global, N), compare(CompareOp::LT, Global, N)).Split,
            SplitKind::Boundary);
}

TEST(ThreadVariance, InterleavedReductionKeepsLowBits) {
  // tid % (2 * s) == 0 with s unknown: 2 * s is even, so odd lanes never take it.
  ThreadValue TwoS = mul(c(2), ThreadValue::uniform());
  ThreadValue Cond = compare(CompareOp::EQ, rem(tid(), TwoS), c(0));
  EXPECT_EQ(Cond.uniformGroup(), 1u);
  EXPECT_EQ(describeSplit(Cond), "even and odd lanes take different paths");
}

TEST(ThreadVariance, JoinAndVotes) {
  EXPECT_TRUE(join(c(1), c(2)).blockUniform());
  EXPECT_EQ(join(c(0), c(2)).Align, 1u);
  EXPECT_EQ(join(c(0), ThreadValue::warpUniform()).uniformGroup(), 32u);
  EXPECT_EQ(join(tid(), c(0)).uniformGroup(), 1u);
  EXPECT_EQ(join(tid(), tid()), tid());
  // Monotone index under a grid stride stays a boundary.
  ThreadValue Stride = mul(ThreadValue::uniform(5), ThreadValue::uniform());
  ThreadValue J = join(tid(), add(tid(), Stride));
  EXPECT_EQ(J.Mono, MonoCoord::Linear);
  EXPECT_EQ(compare(CompareOp::LT, J, ThreadValue::uniform()).Split, SplitKind::Boundary);
  EXPECT_TRUE(opaque({ThreadValue::warpUniform(), c(1)}).laneConstant());
  EXPECT_FALSE(opaque({tid(), c(1)}).laneConstant());
  EXPECT_EQ(select(compare(CompareOp::LT, ThreadValue::laneId(), c(16)), c(1), c(0)).trueLanes(), 0x0000FFFFu);
}

} // namespace

TEST(ThreadVariance, StridedIndexKeepsItsSpanPastTheLoop) {
  // c = lane + 32 k: one window of 32 values per warp.
  const ThreadValue Lane = ThreadValue::laneId();
  const ThreadValue Strided = join(Lane, add(Lane, c(32)));
  EXPECT_EQ(Strided.spanWithinPeriod(), 5u);
  // Past the loop's exit the lanes left at different iterations: PerLane,
  // but within one window; a uniform bound splits it at one point.
  ThreadValue Past = ThreadValue::table(Strided.Lane, RestKind::PerLane, 5);
  EXPECT_EQ(compare(CompareOp::LE, Past, ThreadValue::warpUniform()).Split, SplitKind::Data);
  Past.SpanLog2 = 5;
  EXPECT_EQ(compare(CompareOp::LE, Past, ThreadValue::warpUniform()).Split, SplitKind::Boundary);
  // Shifted by a per-warp amount, or joined with the next step, it stays a window.
  EXPECT_EQ(add(Past, ThreadValue::warpUniform()).SpanLog2, 5u);
  EXPECT_EQ(join(Past, add(Past, c(32))).SpanLog2, 5u);
  // Scaled, or joined with anything else, it does not.
  EXPECT_EQ(compare(CompareOp::LE, mul(Past, c(3)), ThreadValue::uniform()).Split, SplitKind::Data);
  EXPECT_EQ(join(Past, ThreadValue::top()).SpanLog2, 0u);
}

TEST(ThreadVariance, LanePatternNarrowedByABoundKeepsItsSureLanes) {
  const ThreadValue Global = add(mul(ThreadValue::uniform(), ThreadValue::uniform()), tid());
  const ThreadValue Guard = compare(CompareOp::LT, Global, ThreadValue::uniform());
  ASSERT_EQ(Guard.Split, SplitKind::Boundary);
  // Lanes 0-19 and a bound: the other 12 lanes are false in every warp.
  const ThreadValue Inner = compare(CompareOp::LT, ThreadValue::laneId(), c(20));
  const ThreadValue Both = logicalAnd(Inner, Guard);
  EXPECT_EQ(Both.Split, SplitKind::Boundary);
  EXPECT_EQ(Both.SureOther, ~0x000FFFFFu);
  EXPECT_EQ(logicalAnd(Guard, Inner).SureOther, ~0x000FFFFFu);
  // Even lanes and a bound: described by the pattern.
  const ThreadValue Even = compare(CompareOp::EQ, rem(ThreadValue::laneId(), c(2)), c(0));
  EXPECT_EQ(describeSplit(logicalAnd(Even, Guard)),
            "even and odd lanes take different paths (and the threads past the bound)");
}

TEST(ThreadVariance, ValuesThatDifferOnlyPastABound) {
  ThreadValue Count = ThreadValue::top();
  Count.AtBound = true;
  // Against uniform values: a boundary; shifted, scaled or joined with a
  // uniform value, still only past the bound.
  EXPECT_EQ(compare(CompareOp::LT, Count, c(25)).Split, SplitKind::Boundary);
  EXPECT_EQ(compare(CompareOp::LT, opaque({Count, ThreadValue::uniform()}), c(3)).Split, SplitKind::Boundary);
  EXPECT_TRUE(join(Count, c(0)).AtBound);
  // Against the thread index, or joined with a lane pattern: not.
  EXPECT_NE(compare(CompareOp::LT, Count, tid()).Split, SplitKind::Boundary);
  EXPECT_FALSE(join(Count, ThreadValue::laneId()).AtBound);
  EXPECT_FALSE(onlyAtBound({c(1), ThreadValue::uniform()}));
}

TEST(ThreadVariance, RowOfAFlattenedIndexChangesOnlyAtRowBoundaries) {
  const ThreadValue Global = add(mul(ThreadValue::uniform(), ThreadValue::uniform()), tid());
  const ThreadValue Width = ThreadValue::uniform();
  // i / width: a row index; its tests split only the warps a row starts in.
  const ThreadValue Row = div(Global, Width);
  EXPECT_TRUE(Row.AtBound) << Row.str();
  EXPECT_EQ(compare(CompareOp::LT, Row, c(3)).Split, SplitKind::Boundary);
  // So does a constant width of at least a warp (at most one boundary per warp).
  EXPECT_TRUE(div(Global, c(224)).AtBound);
  // The column, i % width, differs in every lane: not a boundary value.
  EXPECT_FALSE(rem(Global, Width).AtBound);
  EXPECT_NE(compare(CompareOp::LT, rem(Global, Width), c(3)).Split, SplitKind::Boundary);
  // Lanes that stride by more than one cross many rows: not a row index.
  EXPECT_FALSE(div(mul(Global, c(64)), Width).AtBound);
  // Nor is a lane pattern over a constant narrower than a warp (its table is exact).
  EXPECT_FALSE(div(Global, c(8)).AtBound);
}

TEST(ThreadVariance, SplitsOfABlockSmallerThanAWarp) {
  // The diagonal of a 4x4 block (threadIdx.y == threadIdx.x): 4 of its 16
  // threads; the lane table repeats past lane 15, where a warp of such a
  // block has no thread (issue 47: "8 of the 32 lanes ... other 24" was said).
  std::array<int64_t, Lanes> T{};
  for (unsigned L = 0; L < Lanes; ++L)
    T[L] = (L % 16) % 5 == 0;
  const ThreadValue Diagonal = ThreadValue::table(T, RestKind::Const, 0);
  EXPECT_EQ(describeSplit(Diagonal, 16),
            "4 of the 16 lanes take a different path from the other 12 (the block's 16 threads fill part of one warp)");
  EXPECT_EQ(describeSplit(Diagonal), "8 of the 32 lanes take a different path from the other 24");
  // Patterns over the lanes a block of 8 threads fills.
  EXPECT_EQ(describeSplit(compare(CompareOp::LT, rem(tid(), c(8)), c(2)), 8),
            "lanes 0-1 and lanes 2-7 take different paths");
  EXPECT_EQ(describeSplit(compare(CompareOp::EQ, rem(tid(), c(8)), c(3)), 8),
            "lane 3 takes a different path from the other 7 lanes");
  EXPECT_EQ(describeSplit(compare(CompareOp::EQ, rem(tid(), c(2)), c(0)), 8),
            "even and odd lanes take different paths");
}
