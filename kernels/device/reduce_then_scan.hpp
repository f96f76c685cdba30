// reduce-then-scan: three launches, about 3n memory traffic (read n, read n, write n). Each tile's
// aggregate goes to the tile sums; the sums are scanned (recursively, by this same algorithm); each
// tile is read again and scanned seeded with the scanned sums of the tiles before it.
#pragma once

#include <string_view>

#include "device/drive.hpp"

namespace sv {

struct ReduceThenScan {
  struct ReduceTiles {
    template <class X, class Op>
    SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
      using T = typename Op::value_type;
      const std::int64_t tile = x.block();
      x.start_tile(tile);
      auto items = x.template load_tile<T>(op, b.in, tile, p);
      const T aggregate = x.reduce_tile(op, items);
      if (x.thread() == 0) x.store_value(b.sums, tile, aggregate);
      x.end_tile(tile);
    }
  };
  struct ScanWithPrefix {
    template <class X, class Op>
    SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
      using T = typename Op::value_type;
      const std::int64_t tile = x.block();
      x.start_tile(tile);
      auto items = x.template load_tile<T>(op, b.in, tile, p);
      const T prefix = tile > 0 ? x.template load_value<T>(b.scanned, tile - 1) : op.identity();
      x.scan_store_tile(op, items, prefix, b.out, tile, p);
      x.end_tile(tile);
    }
  };

  // The launches, level by level (no block algorithm: the tiles are the tile context's).
  template <class L, class Op>
  static void drive(L& l, Op op, const DeviceParams& p, Buf in, Buf out, std::string_view = {}, int level = 0) {
    if (p.n == 0) return;
    DeviceBuffers b;
    b.in = in;
    b.out = out;
    if (p.tiles > 1)
      scan_tile_sums<ReduceTiles>(l, Phase::ReduceTiles, op, p, b, level, [&](const DeviceParams& q, Buf sums, Buf scanned, int up) {
        drive(l, op, q, sums, scanned, {}, up);
      });
    l.template launch<ScanWithPrefix>(Phase::ScanWithPrefix, level, op, p, p.tiles, b);
  }
};

}  // namespace sv
