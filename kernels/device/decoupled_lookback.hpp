// decoupled-lookback: the single-pass scan of Merrill and Garland (2016). Each block takes the next
// tile id from a counter, reduces its tile, publishes the aggregate (flag A), then looks back over
// its predecessors' descriptors a window at a time: values are combined from the nearest inclusive
// prefix (flag P) on; a window still showing an X is polled again. The tile then publishes its own
// inclusive prefix (P) and scans its tile seeded with the exclusive prefix it found.
//
// Switches: tile-ids=static (block index; can deadlock when later tiles occupy every slot), fence=off
// (the flag may be seen before its value), window=W (W = 1: wait for the predecessor's P, which is
// the chained scan), share=on (the window that ends the look-back publishes P for the tiles in it
// after the nearest P, for the tiles behind them to find; seldom one does, as those tiles publish
// their own P about as soon: slower on the GPUs measured, docs/performance.md "What was tried and
// did not help"), stall=TILE:CYCLES.
// deterministic=on runs the pass of device/decoupled_lookback_fixed.hpp instead.
#pragma once

#include <string_view>

#include "device/decoupled_lookback_fixed.hpp"
#include "device/drive.hpp"
#include "device/single_pass_tile.hpp"

namespace sv {

struct DecoupledLookback {
  static constexpr bool kPublishesAggregate = true;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    scan_single_pass_tile<DecoupledLookback>(x, op, p, b);
  }

  // The look-back warp's: the windows' values combined back to the nearest P.
  template <class X, class Op>
  SV_HD static typename Op::value_type exclusive_prefix(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b,
                                                        std::int64_t tile) {
    using T = typename Op::value_type;
    T exclusive = op.identity();
    for (std::int64_t end = tile;;) {
      const Window<T> w = x.inspect_window(op, b, tile, end, p.window, p);
      if (w.any_x || (p.window == 1 && !w.has_p)) {
        if (!x.spin(tile, p)) break;  // the bounded wait ran out: the error flag is set
        continue;
      }
      exclusive = op(w.combined, exclusive);
      if (w.has_p) {
        if (p.share) x.share_window(op, b, tile, p);
        break;
      }
      end -= p.window;
    }
    return exclusive;
  }

  // deterministic=on (floating-point values only: the parser leaves it off for the others, whose
  // operators are exact in any order) runs its own pass, so the default's kernels stay as they are.
  template <class L, class Op>
  static void drive(L& l, Op op, const DeviceParams& p, Buf in, Buf out, std::string_view = {}) {
    if constexpr (kFloatingOp<Op>) {
      if (p.deterministic) return drive_single_pass<DecoupledLookbackFixed>(l, op, p, in, out);
    }
    drive_single_pass<DecoupledLookback>(l, op, p, in, out);
  }
};

}  // namespace sv
