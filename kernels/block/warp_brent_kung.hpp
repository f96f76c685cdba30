// warp-brent-kung: the radix-W Brent-Kung scan-then-propagate block scan of Merrill and Garland's
// Fig. 2a: Kogge-Stone warp scans at the leaves, one warp scanning the warps' totals at the root of
// the hourglass, then propagation fans. One element per thread; warps of p.warp (W) lanes.
//
// Phases: load; warp-scan offsets 1, 2, ..., W/2 (each warp scans its W cells, lane W-1 puts the
// warp's total in sums_s); barrier; warp-sums offsets (warps scan the totals; while more than W
// remain, their totals go one level up in sums_s and are scanned the same way); fans, top level
// down (barrier before each): every cell of warp w > 0 gets the scanned total of warps 0..w-1
// (level 0 is data_s); store. Two block-wide barriers while the warps are at most W.
// Cost (n = capacity = 16, W = 4, the figure): 5 steps (2 + 2 + 1), 37 operator applications
// (4 warp scans of 5, the root's 5, fans 3 x 4). In general each level of L cells costs
// (L/W)(W log2 W - W + 1) in its warp scans and L - W in its fan.
#pragma once

#include "block/block_params.hpp"
#include "block/warp_scan.hpp"

namespace sv {

struct WarpBrentKung {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 2;

  // Each level's warp totals, level after level: capacity/W + capacity/W^2 + ... down to the root's.
  SV_HD static std::int32_t sums_length(std::int32_t capacity, std::int32_t w) {
    std::int32_t length = 0;
    for (std::int32_t cells = capacity / w;; cells /= w) {
      length += cells;
      if (cells <= w) return length;
    }
  }

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto data_s = x.template shared<T>("data_s", p.capacity);
    auto sums_s = x.template shared<T>("sums_s", sums_length(p.capacity, p.warp));
    const std::int32_t t = x.thread();
    const std::int32_t w = p.warp;
    const std::int32_t lane = t % w;
    const std::int64_t i = static_cast<std::int64_t>(x.block()) * p.capacity + t;

    x.step(Phase::Load, -1);
    load_or_identity(x, op, in, data_s, t, i, p, p.exclusive);
    warp_inclusive_scan(x, op, data_s, t, lane, w, w, true, Phase::WarpScan);
    if (p.capacity > w && lane == w - 1) sums_s(t / w) = data_s(t);  // the warp's total
    // Up the hourglass: level `top` (1 = the warps' totals) is cells [level_at, level_at + cells) of sums_s.
    std::int32_t top = 1;
    std::int32_t level_at = 0;
    std::int32_t cells = p.capacity / w;
    while (cells > 1) {
      x.sync();
      const bool in_warp = t < (cells + w - 1) / w * w;
      warp_inclusive_scan(x, op, sums_s, level_at + t, lane, w, cells < w ? cells : w, in_warp, Phase::WarpSums);
      if (cells <= w) break;
      if (lane == w - 1 && t < cells) sums_s(level_at + cells + t / w) = sums_s(level_at + t);
      level_at += cells;
      cells /= w;
      ++top;
    }
    // Down: each level below the root adds the scanned totals of the warps before each cell's warp.
    for (std::int32_t level = top - 1; level >= 1; --level) {
      const std::int32_t below = cells * w;
      const std::int32_t below_at = level_at - below;
      x.sync();
      x.step(Phase::Fan, level);
      if (t < below && t / w > 0) sums_s(below_at + t) = x.op(op, sums_s(level_at + t / w - 1), sums_s(below_at + t));
      level_at = below_at;
      cells = below;
    }
    if (p.capacity > w) {
      x.sync();
      x.step(Phase::Fan, 0);
      if (t / w > 0) data_s(t) = x.op(op, sums_s(t / w - 1), data_s(t));
    }
    x.unsynced_step(Phase::Store, -1);  // each thread stores the cell it wrote itself
    store_if_in_range(out, data_s, t, i, p);
  }
};

}  // namespace sv
