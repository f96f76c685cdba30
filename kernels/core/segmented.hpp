// The segmented operator: any scan operator ⊕ lifted to (flag, value) pairs, where a set flag marks the
// head of a segment (Schwartz; Blelloch 1990):
//
//   (f1, v1) ⊕s (f2, v2) = (f1 | f2, f2 ? v2 : v1 ⊕ v2)
//
// ⊕s is associative whenever ⊕ is (and not commutative), so every block and device-wide scan runs it
// unchanged: the segmented scan is "any scan with the segmented operator", from the same kernel source.
// The value comes first in a pair, so the leading bytes of a pair's Payload are the value itself: every
// view that prints values prints a pair's value; the flag follows at offset sizeof(T).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/hd.hpp"
#include "core/ops.hpp"

namespace sv {

// The flag is as wide as the value's alignment, so a pair has no padding bytes (its Payload bytes are
// all defined): 8 bytes for int32 and float, 16 for int64 and double, 24 for the interval.
template <class T>
using SegFlag = std::conditional_t<alignof(T) >= 8, std::int64_t, std::int32_t>;

template <class T>
struct Seg {
  T v;
  SegFlag<T> flag;
};

template <class Op>
struct SegmentedOp {
  using base_op = Op;
  using T = typename Op::value_type;
  using value_type = Seg<T>;
  static constexpr OpKind kind = Op::kind;
  SV_HD static constexpr value_type identity() { return {Op::identity(), 0}; }
  SV_HD constexpr value_type operator()(const value_type& a, const value_type& b) const {
    return {b.flag ? b.v : Op{}(a.v, b.v), static_cast<SegFlag<T>>(a.flag | b.flag)};
  }
};

template <class Op>
inline constexpr bool is_segmented_op_v = false;
template <class Op>
inline constexpr bool is_segmented_op_v<SegmentedOp<Op>> = true;

// visit_op, each operator lifted to pairs when `segmented` (instantiates both forms).
template <class F>
bool visit_op_maybe_segmented(OpKind kind, ValueType type, bool segmented, F&& f) {
  return visit_op(kind, type, [&](auto op) {
    if (segmented) f(SegmentedOp<decltype(op)>{});
    else f(op);
  });
}

// The segmented operators the GPU executors are built for: every operator on int32, and the interval
// operator (the emulator runs every type). Returns false, calling nothing, for the other types
// (segmented_gpu_type_error in core/segments.hpp says so).
template <class F>
bool visit_segmented_gpu_op(OpKind kind, ValueType type, F&& f) {
  bool built = false;
  visit_op(kind, type, [&](auto op) {
    using T = typename decltype(op)::value_type;
    if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, Interval>) {
      built = true;
      f(SegmentedOp<decltype(op)>{});
    }
  });
  return built;
}

}  // namespace sv
