// reduce-then-scan: three launches, about 3n memory traffic (read n, read n, write n). Each tile's
// aggregate goes to the tile sums; the sums are scanned (recursively, by this same algorithm); each
// tile is read again and scanned seeded with the scanned sums of the tiles before it.
#pragma once

#include "device/device_params.hpp"

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
};

}  // namespace sv
