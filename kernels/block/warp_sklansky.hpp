// warp-sklansky: the Sklansky block scan with Kogge-Stone warp scans and propagation fans of
// Merrill and Garland's Fig. 2c. One element per thread; warps of p.warp (W) lanes.
//
// Phases: load; warp-scan offsets 1 .. W/2 (each warp scans its W cells through shuffles); spans
// W, 2W, ..., capacity/2 (barrier before each): in every group of 2 x span cells each cell of the
// upper half adds the lower half's last cell, as in sklansky; store. The barriers grow with the log
// of the number of warps.
// Cost (n = capacity = 16, W = 4, the figure): 4 steps (2 + 2) and 36 operator applications
// (4 warp scans of 5, two spans of 8); in general log2 n steps and
// (n/W)(W log2 W - W + 1) + (n/2) log2(n/W) operator applications.
#pragma once

#include "block/block_params.hpp"
#include "block/warp_scan.hpp"

namespace sv {

struct WarpSklansky {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 1;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto data_s = x.template shared<T>("data_s", p.capacity);
    const std::int32_t t = x.thread();
    const std::int32_t w = p.warp;
    const std::int64_t i = static_cast<std::int64_t>(x.block()) * p.capacity + t;

    x.step(Phase::Load, -1);
    load_or_identity(x, op, in, data_s, t, i, p, p.exclusive);
    warp_inclusive_scan(x, op, data_s, t, t % w, w, w, true, Phase::WarpScan);
    for (std::int32_t span = w; span < p.capacity; span *= 2) {
      x.sync();
      x.step(Phase::Span, span);
      const std::int32_t last_of_lower = t / (2 * span) * 2 * span + span - 1;
      if (t > last_of_lower) data_s(t) = x.op(op, data_s(last_of_lower), data_s(t));
    }
    x.unsynced_step(Phase::Store, -1);  // each thread stores its own cell
    store_if_in_range(out, data_s, t, i, p);
  }
};

}  // namespace sv
