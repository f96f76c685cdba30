// chained: the single-pass chained scan. Each block takes the next tile id, reduces its tile, waits
// for its predecessor's inclusive prefix (flag P), publishes its own and scans its tile seeded with
// the predecessor's. The prefix travels tile by tile: the latency of one descriptor round trip per
// tile is the whole scan's critical path (what decoupled look-back removes).
#pragma once

#include "device/device_params.hpp"

namespace sv {

struct Chained {
  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    using T = typename Op::value_type;
    const std::int64_t tile = x.take_tile(p, b);
    auto items = x.template load_tile<T>(op, b.in, tile, p);
    const T aggregate = x.reduce_tile(op, items);
    T exclusive = op.identity();
    if (x.look_back_warp()) {
      while (tile > 0) {
        const Window<T> w = x.inspect_window(op, b, tile, tile, 1, p);
        if (w.has_p) {
          exclusive = w.combined;
          break;
        }
        if (!x.spin(tile, p)) break;  // the bounded wait ran out: the error flag is set
      }
      x.publish(op, b, tile, TileFlag::P, op(exclusive, aggregate), p);
    }
    exclusive = x.broadcast(exclusive);
    x.scan_store_tile(op, items, exclusive, b.out, tile, p);
    x.end_tile(tile);
  }
};

}  // namespace sv
