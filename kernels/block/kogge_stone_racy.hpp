// kogge-stone-racy: Kogge-Stone in one shared buffer with ONE barrier per step (PMPP ch. 11, the
// slide marked "Incorrect!"). Kept to show the race.
//
// Phases: load (one element per thread); steps stride = 1, 2, 4, ... < capacity, in each thread
// t >= stride does buffer_s[t] = buffer_s[t - stride] ⊕ buffer_s[t]; store.
// Race: thread t - stride may already have overwritten buffer_s[t - stride] in this step before
// thread t reads it (read-after-write between threads inside one barrier interval).
// Cost (n = capacity = 2^k): log2 n steps, n·log2 n − (n − 1) operator applications — when the
// schedule happens not to break it.
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct KoggeStoneRacy {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
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
      if (t >= stride) {
        buffer_s(t) = x.op(op, buffer_s(t - stride), buffer_s(t));
      }
      x.sync();
    }
    x.step(Phase::Store, -1);
    store_if_in_range(out, buffer_s, t, i, p);
  }
};

}  // namespace sv
