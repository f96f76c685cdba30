// kogge-stone: Kogge-Stone in one shared buffer with TWO barriers per step (PMPP ch. 11): every
// thread reads its operand, all wait, then every thread writes. Race-free.
//
// Phases: load; steps stride = 1, 2, 4, ... < capacity: v = buffer_s[t - stride]; barrier (the false,
// write-after-read dependence); buffer_s[t] = v ⊕ buffer_s[t]; barrier (the true dependence); store.
// Cost (n = capacity = 2^k): log2 n steps, n·log2 n − (n − 1) operator applications, 2 barriers a step.
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct KoggeStone {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    using V = typename X::template val<T>;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto buffer_s = x.template shared<T>("buffer_s", p.capacity);
    const std::int32_t t = x.thread();
    const std::int64_t i = static_cast<std::int64_t>(x.block()) * p.capacity + t;

    x.step(Phase::Load, -1);
    load_or_identity(x, op, in, buffer_s, t, i, p, p.exclusive);
    x.sync();
    for (std::int32_t stride = 1; stride < p.capacity; stride *= 2) {
      x.step(Phase::Stride, stride);
      V v = x.identity(op);
      if (t >= stride) {
        v = buffer_s(t - stride);
      }
      x.sync();
      if (t >= stride) {
        buffer_s(t) = x.op(op, v, buffer_s(t));
      }
      x.sync();
    }
    x.step(Phase::Store, -1);
    store_if_in_range(out, buffer_s, t, i, p);
  }
};

}  // namespace sv
