// brent-kung: Brent-Kung scan (PMPP ch. 11): a reduction tree, then a distribution tree. Each of the
// capacity/2 threads loads two elements (t and t + capacity/2). Capacity is a power of two; smaller
// n is padded with the identity.
//
// Phases: load; reduction strides 1, 2, ..., capacity/2: index = (t+1)·2·stride − 1 gets
// s[index − stride] ⊕ s[index]; post-reduction strides capacity/4, ..., 1: s[index + stride] gets
// s[index] ⊕ s[index + stride]; store.
// Cost (n = capacity = 2^k): 2·log2 n − 1 steps, 2n − log2 n − 2 operator applications
// (reduction n − 1, post-reduction n − 1 − log2 n).
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct BrentKung {
  static constexpr int kItemsPerThread = 2;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto xy_s = x.template shared<T>("XY_s", p.capacity);
    const std::int32_t t = x.thread();

    x.step(Phase::Load, -1);
    load_two(x, op, in, xy_s, t, p, p.exclusive);
    for (std::int32_t stride = 1; stride <= p.capacity / 2; stride *= 2) {
      x.sync();
      x.step(Phase::Reduction, stride);
      const std::int32_t index = (t + 1) * 2 * stride - 1;
      if (index < p.capacity) {
        xy_s(index) = x.op(op, xy_s(index - stride), xy_s(index));
      }
    }
    for (std::int32_t stride = p.capacity / 4; stride > 0; stride /= 2) {
      x.sync();
      x.step(Phase::PostReduction, stride);
      const std::int32_t index = (t + 1) * 2 * stride - 1;
      if (index + stride < p.capacity) {
        xy_s(index + stride) = x.op(op, xy_s(index), xy_s(index + stride));
      }
    }
    x.sync();
    x.step(Phase::Store, -1);
    store_two(x, out, xy_s, t, p);
  }
};

}  // namespace sv
