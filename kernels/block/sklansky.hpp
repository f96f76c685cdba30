// sklansky: Sklansky's divide-and-conquer scan. At span s every group of 2s elements adds its lower
// half's last element into each element of its upper half; capacity/2 threads, one element each per
// step, two loaded per thread. capacity is a power of two, smaller n padded with the identity.
//
// Phases: load; spans 1, 2, 4, ..., capacity/2: thread t works in group g = t / span at
// dst = g·2·span + span + t mod span, doing s[dst] = s[g·2·span + span − 1] ⊕ s[dst]; store.
// Many threads read the same element in a step, none writes it: no hazard with one barrier a step.
// Cost (n = capacity = 2^k): log2 n steps, (n/2)·log2 n operator applications.
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct Sklansky {
  static constexpr int kItemsPerThread = 2;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto data_s = x.template shared<T>("data_s", p.capacity);
    const std::int32_t t = x.thread();

    x.step(Phase::Load, -1);
    load_two(x, op, in, data_s, t, p, p.exclusive);
    for (std::int32_t span = 1; span < p.capacity; span *= 2) {
      x.sync();
      x.step(Phase::Span, span);
      const std::int32_t group = t / span;
      const std::int32_t last_of_lower = group * 2 * span + span - 1;
      const std::int32_t dst = last_of_lower + 1 + t % span;
      data_s(dst) = x.op(op, data_s(last_of_lower), data_s(dst));
    }
    x.sync();
    x.step(Phase::Store, -1);
    store_two(x, out, data_s, t, p);
  }
};

}  // namespace sv
