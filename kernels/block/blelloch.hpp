// blelloch: Blelloch's work-efficient scan, exclusive by nature: an up-sweep (reduce) that keeps the
// partial sums, the root cleared to the identity, and a down-sweep in which each node passes its
// value to its left child and (value ⊕ left child's old sum) to its right child. capacity/2 threads,
// two elements each; capacity is a power of two, smaller n padded with the identity.
//
// Phases: load; up-sweep strides 1, 2, ..., capacity/2; clear-root; down-sweep strides
// capacity/2, ..., 1; store. An inclusive scan stores element i from s[i + 1], and the last element
// of a full block as s[n − 1] ⊕ x[n − 1].
// Cost (n = capacity = 2^k): exclusive 2·log2 n steps and 2(n − 1) operator applications (up-sweep
// n − 1, down-sweep n − 1); inclusive one more of each (the store step).
#pragma once

#include "block/block_params.hpp"

namespace sv {

struct Blelloch {
  static constexpr int kItemsPerThread = 2;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    using V = typename X::template val<T>;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto temp_s = x.template shared<T>("temp_s", p.capacity);
    const std::int32_t t = x.thread();

    x.step(Phase::Load, -1);
    load_two(x, op, in, temp_s, t, p, false);
    for (std::int32_t stride = 1; stride < p.capacity; stride *= 2) {
      x.sync();
      x.step(Phase::UpSweep, stride);
      const std::int32_t index = (t + 1) * 2 * stride - 1;
      if (index < p.capacity) {
        temp_s(index) = x.op(op, temp_s(index - stride), temp_s(index));
      }
    }
    x.sync();
    x.step(Phase::ClearRoot, -1);
    if (t == 0) {
      temp_s(p.capacity - 1) = x.identity(op);
    }
    for (std::int32_t stride = p.capacity / 2; stride >= 1; stride /= 2) {
      x.sync();
      x.step(Phase::DownSweep, stride);
      const std::int32_t index = (t + 1) * 2 * stride - 1;
      if (index < p.capacity) {
        V left = temp_s(index - stride);
        temp_s(index - stride) = temp_s(index);
        temp_s(index) = x.op(op, temp_s(index), left);
      }
    }
    x.sync();
    x.step(Phase::Store, -1);
    if (p.exclusive) {
      store_two(x, out, temp_s, t, p);
    } else {
      const std::int64_t base = static_cast<std::int64_t>(x.block()) * p.capacity;
      for (std::int32_t e = t; e < p.capacity; e += p.capacity / 2) {
        if (base + e >= p.n) continue;
        if (e + 1 < p.capacity) {
          out(base + e) = temp_s(e + 1);
        } else {
          out(base + e) = x.op(op, temp_s(e), in(base + e));
        }
      }
    }
  }
};

}  // namespace sv
