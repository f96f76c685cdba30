// chained: the single-pass chained scan. Each block takes the next tile id, reduces its tile, waits
// for its predecessor's inclusive prefix (flag P), publishes its own and scans its tile seeded with
// the predecessor's. The prefix travels tile by tile: the latency of one descriptor round trip per
// tile is the whole scan's critical path (what decoupled look-back removes).
#pragma once

#include <string_view>

#include "device/drive.hpp"
#include "device/single_pass_tile.hpp"

namespace sv {

struct Chained {
  static constexpr bool kPublishesAggregate = false;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    scan_single_pass_tile<Chained>(x, op, p, b);
  }

  // The look-back warp's: the predecessor's P, once it shows one (none for tile 0).
  template <class X, class Op>
  SV_HD static typename Op::value_type exclusive_prefix(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b,
                                                        std::int64_t tile) {
    while (tile > 0) {
      const Window<typename Op::value_type> w = x.inspect_window(op, b, tile, tile, 1, p);
      if (w.has_p) return w.combined;
      if (!x.spin(tile, p)) break;  // the bounded wait ran out: the error flag is set
    }
    return op.identity();
  }

  template <class L, class Op>
  static void drive(L& l, Op op, const DeviceParams& p, Buf in, Buf out, std::string_view = {}) {
    drive_single_pass<Chained>(l, op, p, in, out);
  }
};

}  // namespace sv
