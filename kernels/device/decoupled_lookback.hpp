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
// their own P about as soon: 1.5-3% slower on an H100 and an H200, docs/performance.md), stall=TILE:CYCLES.
#pragma once

#include "device/device_params.hpp"

namespace sv {

struct DecoupledLookback {
  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    using T = typename Op::value_type;
    const std::int64_t tile = x.take_tile(p, b);
    auto items = x.template load_tile<T>(op, b.in, tile, p);
    const T aggregate = x.reduce_tile(op, items);
    T exclusive = op.identity();
    if (tile == 0) {
      x.publish(op, b, tile, TileFlag::P, aggregate, p);
    } else {
      x.publish(op, b, tile, TileFlag::A, aggregate, p);
      if (x.look_back_warp()) {
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
        x.publish(op, b, tile, TileFlag::P, op(exclusive, aggregate), p);
      }
      exclusive = x.broadcast(exclusive);
    }
    x.scan_store_tile(op, items, exclusive, b.out, tile, p);
    x.end_tile(tile);
  }
};

}  // namespace sv
