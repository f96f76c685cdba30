// warp-raking: the raking reduce-then-scan block scan of Merrill and Garland's Fig. 2b: after the
// load, one warp of W = p.warp lanes does all the work, lane l raking the m = capacity / W
// consecutive cells l*m .. l*m + m - 1 serially; a Kogge-Stone warp scan of the
// lanes' totals at the root; then a serial scan of each lane's cells seeded with the lanes before it.
//
// Phases: load; barrier; rake-reduce item 0 (lane l copies its first cell), items 1 .. m-1 (lane l
// folds cell l*m + j into its running total in rake_s[l], a cell only it touches; lane 0's running total is its own prefix, so it stores it in data_s[j]
// and has no serial scan to do); warp-scan offsets 1 .. W/2 over the totals; rake-scan items
// 0 .. m-1 (lane l > 0 takes lane l-1's inclusive total by a shuffle and folds its cells into it,
// storing each); barrier; store. Two block-wide barriers.
// Cost (n = capacity = 16, W = 4, m = 4, the figure): 9 steps (3 + 2 + 4) and 29 operator
// applications (12 + 5 + 12); in general (m - 1) + log2 W + m steps and
// (m-1)W + (W log2 W - W + 1) + m(W - 1) operator applications.
#pragma once

#include "block/block_params.hpp"
#include "block/warp_scan.hpp"

namespace sv {

struct WarpRaking {
  static constexpr int kItemsPerThread = 1;
  static constexpr int kSharedBuffers = 2;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const BlockParams& p) {
    using T = typename Op::value_type;
    using V = typename X::template val<T>;
    auto in = x.template input<T>();
    auto out = x.template output<T>();
    auto data_s = x.template shared<T>("data_s", p.capacity);
    auto rake_s = x.template shared<T>("rake_s", p.warp);  // the raking lanes' running totals
    const std::int32_t t = x.thread();
    const std::int32_t w = p.warp;
    const std::int32_t m = p.capacity / w;  // cells a raking lane owns
    const std::int32_t first = t * m;
    const bool raking = t < w;              // warp 0
    const std::int64_t i = static_cast<std::int64_t>(x.block()) * p.capacity + t;

    x.step(Phase::Load, -1);
    load_or_identity(x, op, in, data_s, t, i, p, p.exclusive);
    x.sync();
    x.unsynced_step(Phase::RakeReduce, 0);
    if (raking) rake_s(t) = data_s(first);
    for (std::int32_t j = 1; j < m; ++j) {
      x.unsynced_step(Phase::RakeReduce, j);
      if (raking) {
        const V running = x.op(op, rake_s(t), data_s(first + j));
        rake_s(t) = running;
        if (t == 0) data_s(j) = running;
      }
    }
    warp_inclusive_scan(x, op, rake_s, t, t, w, w, raking, Phase::WarpScan);
    for (std::int32_t j = 0; j < m; ++j) {
      x.unsynced_step(Phase::RakeScan, j);
      if (raking) {
        if (j == 0) {
          const V total = rake_s(t);
          const V before = x.shfl_up(total, 1, w);  // lane l-1's inclusive total
          if (t > 0) data_s(first) = x.op(op, before, data_s(first));
        } else if (t > 0) {
          data_s(first + j) = x.op(op, data_s(first + j - 1), data_s(first + j));
        }
      }
    }
    x.sync();
    x.step(Phase::Store, -1);
    store_if_in_range(out, data_s, t, i, p);
  }
};

}  // namespace sv
