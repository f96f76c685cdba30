// kogge-stone-double-buffer: Kogge-Stone reading one shared buffer and writing the other, swapping
// them each step (PMPP ch. 11, "Double Buffering"). One barrier per step, race-free.
//
// Phases: load into buffer1_s; steps stride = 1, 2, 4, ... < capacity: out[t] = in[t - stride] ⊕ in[t]
// for t >= stride, else out[t] = in[t] (threads not adding copy their value); swap; store.
// Cost (n = capacity = 2^k): log2 n steps, n·log2 n − (n − 1) operator applications, n − stride
// copies a step.
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct KoggeStoneDoubleBuffer {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 2;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto buffer1_s = x.template shared<T>("buffer1_s", p.capacity);
    auto buffer2_s = x.template shared<T>("buffer2_s", p.capacity);
    auto in_s = buffer1_s;
    auto out_s = buffer2_s;
    const std::int32_t t = x.thread();
    const std::int64_t i = static_cast<std::int64_t>(x.block()) * p.capacity + t;

    x.step(Phase::Load, -1);
    load_or_identity(x, op, in, in_s, t, i, p, p.exclusive);
    x.sync();
    for (std::int32_t stride = 1; stride < p.capacity; stride *= 2) {
      x.step(Phase::Stride, stride);
      if (t >= stride) {
        out_s(t) = x.op(op, in_s(t - stride), in_s(t));
      } else {
        out_s(t) = in_s(t);
      }
      x.sync();
      auto swap = in_s;
      in_s = out_s;
      out_s = swap;
    }
    x.step(Phase::Store, -1);
    store_if_in_range(out, in_s, t, i, p);
  }
};

}  // namespace sv
