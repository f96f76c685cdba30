// hierarchical: scan-then-propagate (PMPP ch. 11, "hierarchical scan"). A block algorithm scans each
// tile inclusively (launch 1); each tile's last element goes to the tile sums (launch 2); the sums
// are scanned by this same algorithm, recursively, until one tile holds them; each tile adds the
// scanned sums of the tiles before it (launch 3). An exclusive scan is the inclusive one shifted by
// one element, which launch 3 does while adding.
#pragma once

#include <string_view>

#include "device/drive.hpp"

namespace sv {

struct Hierarchical {
  // Launch 1 runs the block algorithm's own kernel (block/), one block per tile.
  // Neither of its own passes scans a tile (the GPU stages none for them).
  struct TileSums {
    static constexpr bool kScansTiles = false;
    template <class X, class Op>
    SV_HD static void run(X& x, Op, const DeviceParams& p, const DeviceBuffers& b) {
      using T = typename Op::value_type;
      const std::int64_t tile = x.block();
      if (x.thread() == 0) x.store_value(b.sums, tile, x.template load_value<T>(b.in, p.tile_end(tile) - 1));
    }
  };
  struct AddPrefixes {
    static constexpr bool kScansTiles = false;
    template <class X, class Op>
    SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
      using T = typename Op::value_type;
      const std::int64_t tile = x.block();
      x.start_tile(tile);
      const T prefix = tile > 0 ? x.template load_value<T>(b.scanned, tile - 1) : op.identity();
      const std::int64_t first = p.tile_begin(tile);
      for (std::int64_t i = first + x.thread(); i < p.tile_end(tile); i += x.threads()) {
        if (!p.exclusive) x.store_value(b.out, i, op(prefix, x.template load_value<T>(b.in, i)));
        else if (i == first) x.store_value(b.out, i, prefix);
        else x.store_value(b.out, i, op(prefix, x.template load_value<T>(b.in, i - 1)));
      }
      x.end_tile(tile);
    }
  };

  // The launches, level by level; `block_algo` scans the tiles (launch 1: l.block_scan).
  template <class L, class Op>
  static void drive(L& l, Op op, const DeviceParams& p, Buf in, Buf out, std::string_view block_algo, int level = 0) {
    if (p.n == 0) return;
    const Buf local = p.exclusive ? l.alloc(level_buffer_name("tile scans", level), p.n) : out;
    l.block_scan(block_algo, op, p, in, local, level);
    if (p.tiles == 1 && !p.exclusive) return;
    DeviceBuffers b;
    b.in = local;
    b.out = out;
    if (p.tiles > 1)
      scan_tile_sums<TileSums>(l, Phase::TileSums, op, p, b, level, [&](const DeviceParams& q, Buf sums, Buf scanned, int up) {
        drive(l, op, q, sums, scanned, block_algo, up);
      });
    l.template launch<AddPrefixes>(Phase::AddPrefixes, level, op, p, p.tiles, b);
  }
};

}  // namespace sv
