// The abstract domain of the divergence analysis: how an integer value of a
// CUDA thread depends on which thread computes it.
//
// Threads are numbered by their linear index in the block, tid = 32 * w + l
// (w: warp of the block, l: lane 0..31). A value is modelled as
//
//     v(l) = Lane[l] + Rest        with Rest ≡ 0 (mod 2^Align)
//
// where Lane is a concrete table (the part that differs between the lanes of
// one warp) and Rest is the same for every lane of a warp: a constant, a
// block-uniform unknown, a warp-uniform unknown (differs between warps), or
// PerLane (unknown and possibly different in every lane; then only the low
// Align bits, Lane[l] mod 2^Align, are known). The alignment is what makes
// `threadIdx.x / 32`, `threadIdx.x >> 5`, `threadIdx.x & ~31` and
// `threadIdx.x < 64` come out warp-uniform: tid = l + (32 w), Rest aligned to
// 32, so no lane table crosses a multiple of 32. The table is what gives
// `tid % 2 == 0` its exact lane pattern (even and odd lanes).
//
// Mono records that the value is a monotone function of one thread
// coordinate plus a block-uniform term (`blockIdx.x * blockDim.x +
// threadIdx.x`): comparing it with a uniform bound splits at most the warp
// that straddles the bound (a boundary guard).
//
// Booleans (results of comparisons) are tables of 0/1 when every lane is
// known; otherwise Rest is PerLane and Split says what shape the set of
// threads taking the true side has.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::occlint {

constexpr unsigned Lanes = 32;
/// Align value meaning "Rest is exactly known" (a constant, or zero).
constexpr unsigned ExactAlign = 63;

enum class RestKind : uint8_t { Const, BlockUniform, WarpUniform, PerLane };
enum class MonoCoord : uint8_t { None, X, Y, Z, Linear };
/// For a boolean whose lanes are not known exactly: the shape of the split.
enum class SplitKind : uint8_t {
  None,         // not a boolean split (or lanes known exactly)
  Boundary,     // monotone thread index against a uniform bound: at most one warp splits
  SingleThread, // true for at most one thread of the block
  SingleLane,   // true for at most one lane of each warp
  Threshold,    // lanes below/above a per-warp threshold
  Data          // depends on per-thread data
};

enum class CompareOp : uint8_t { LT, LE, GT, GE, EQ, NE };

struct ThreadValue {
  std::array<int64_t, Lanes> Lane{};
  RestKind Rest = RestKind::Const;
  int64_t RestConst = 0;       // Rest when Rest == Const
  unsigned Align = ExactAlign; // Rest ≡ 0 mod 2^Align
  MonoCoord Mono = MonoCoord::None;
  SplitKind Split = SplitKind::None;
  /// Booleans with a PerLane Rest: lanes whose outcome is known to differ
  /// from the lanes outside the mask (tid % (2*s) == 0: the odd lanes).
  uint32_t SureOther = 0;
  /// The value relies on an assumed block shape (blockDim.x a multiple of 32).
  bool Assumed = false;
  /// A PerLane value whose lanes are known to lie within 2^SpanLog2
  /// consecutive integers (0: not known): a strided index past its loop's
  /// exit (c = lane + 32 k, each lane at the first value of its residue past
  /// the bound). A uniform bound splits such lanes at one point, as it does
  /// a strided index inside its loop.
  unsigned SpanLog2 = 0;
  /// Its differences between threads come from data: memory read at a
  /// per-thread address, an atomic's result (set by the dataflow, kept by
  /// join and opaque). A split on it is decided by the data, not by the thread index
  /// alone (cuda-divergence-data-branch).
  bool FromData = false;
  /// Its differences between threads come only from assignments under a
  /// boundary guard (`if (x + dx < width) ++inside;`, set at the guard's
  /// join, kept by join and opaque): a condition on it against uniform
  /// values splits only the warps the bound falls in.
  bool AtBound = false;
  /// A boolean split whose lanes agree within every aligned group of
  /// 2^GroupLog2 lanes (0: not known): `threadIdx.x < 8` splits warp 0 at
  /// lane 8, so each aligned group of 8 lanes (a `tiled_partition<8>` tile)
  /// is all on one side.
  unsigned GroupLog2 = 0;

  static ThreadValue constant(int64_t V);
  /// Block-uniform and unknown, known to be a multiple of 2^AlignLog2.
  static ThreadValue uniform(unsigned AlignLog2 = 0);
  /// The same in all lanes of a warp, possibly different between warps.
  static ThreadValue warpUniform(unsigned AlignLog2 = 0);
  /// Anything, different in every lane.
  static ThreadValue top();
  /// The linear thread index in the block (l + 32 w).
  static ThreadValue linearTid();
  /// The lane index (l, exactly).
  static ThreadValue laneId();
  /// A per-lane table plus a Rest of the given kind and alignment.
  static ThreadValue table(const std::array<int64_t, Lanes> &T, RestKind K, unsigned AlignLog2,
                           MonoCoord M = MonoCoord::None);

  bool laneConstant() const; // every lane of a warp has the same value
  bool blockUniform() const; // every thread of the block has the same value
  std::optional<int64_t> exact() const;
  /// log2 of a range of consecutive integers known to hold every lane's
  /// value (up to a per-warp offset), when it is at most one period of the
  /// alignment: a strided index (lane + 32 k) or SpanLog2; 0 when unknown.
  unsigned spanWithinPeriod() const;
  /// The lanes agree within every aligned group of G lanes (G a power of two <= 32).
  bool uniformWithin(unsigned G) const;
  /// The largest granularity at which the value is uniform: 64 for the whole
  /// block, 32 for a warp, 16..2 for aligned sub-warp groups, 1 for none.
  unsigned uniformGroup() const;
  /// Exact boolean table: the lanes that are true (only when Rest is Const).
  std::optional<uint32_t> trueLanes() const;

  bool operator==(const ThreadValue &O) const;
  bool operator!=(const ThreadValue &O) const { return !(*this == O); }
  std::string str() const; // for tests and debugging
};

/// The least value that covers both (control-flow merge).
ThreadValue join(const ThreadValue &A, const ThreadValue &B);
/// Some operand varies between threads, and every one that does is AtBound.
bool onlyAtBound(const std::vector<ThreadValue> &Operands);
/// The least thread dependence of an opaque function of the operands.
ThreadValue opaque(const std::vector<ThreadValue> &Operands);

ThreadValue add(const ThreadValue &A, const ThreadValue &B);
ThreadValue sub(const ThreadValue &A, const ThreadValue &B);
ThreadValue mul(const ThreadValue &A, const ThreadValue &B);
ThreadValue div(const ThreadValue &A, const ThreadValue &B);
ThreadValue rem(const ThreadValue &A, const ThreadValue &B);
ThreadValue shl(const ThreadValue &A, const ThreadValue &B);
ThreadValue shr(const ThreadValue &A, const ThreadValue &B);
ThreadValue bitAnd(const ThreadValue &A, const ThreadValue &B);
ThreadValue bitOr(const ThreadValue &A, const ThreadValue &B);
ThreadValue bitXor(const ThreadValue &A, const ThreadValue &B);
ThreadValue neg(const ThreadValue &A);

ThreadValue compare(CompareOp Op, const ThreadValue &A, const ThreadValue &B);
ThreadValue toBool(const ThreadValue &A);
ThreadValue logicalAnd(const ThreadValue &A, const ThreadValue &B);
ThreadValue logicalOr(const ThreadValue &A, const ThreadValue &B);
ThreadValue logicalNot(const ThreadValue &A);
/// C ? A : B.
ThreadValue select(const ThreadValue &C, const ThreadValue &A, const ThreadValue &B);

/// Which lanes take different paths when a branch tests Cond:
/// "even and odd lanes take different paths". Empty when no warp splits.
/// `WarpLanes`: the threads a warp holds, fewer than 32 when every launch's
/// block is smaller than a warp (a 4x4 block: 16); lanes past them are
/// left out of the description ("4 of the 16 lanes").
std::string describeSplit(const ThreadValue &Cond, unsigned WarpLanes = 32);

} // namespace clang::tidy::occlint
