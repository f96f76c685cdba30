// The tile of a single-pass scan, written once for decoupled look-back (plain and deterministic)
// and the chained scan: the block takes a tile, loads and reduces it, publishes its aggregate
// (flag A; tile 0 its inclusive prefix P at once) where the scan publishes aggregates, and its
// look-back warp finds the exclusive prefix (the scan's own look-back, Pass::exclusive_prefix),
// publishes P and hands the prefix to the block, which scans and stores the tile seeded with it.
#pragma once

#include "device/device_params.hpp"

namespace sv {

// Pass::kPublishesAggregate: whether tiles publish A before looking back (decoupled look-back) or
// only P (chained, where tile 0 too goes through the look-back warp, finding no predecessor).
// A pass over this skeleton (the GPU gives such passes the single-pass scans' register bound).
template <class Pass>
concept SinglePassTilePass = requires { Pass::kPublishesAggregate; };

template <class Pass, class X, class Op>
SV_HD void scan_single_pass_tile(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
  using T = typename Op::value_type;
  const std::int64_t tile = x.take_tile(p, b);
  auto items = x.template load_tile<T>(op, b.in, tile, p);
  const T aggregate = x.reduce_tile(op, items);
  T exclusive = op.identity();
  if (Pass::kPublishesAggregate && tile == 0) {
    x.publish(op, b, tile, TileFlag::P, aggregate, p);
  } else {
    if (Pass::kPublishesAggregate) x.publish(op, b, tile, TileFlag::A, aggregate, p);
    if (x.look_back_warp()) {
      exclusive = Pass::exclusive_prefix(x, op, p, b, tile);
      x.publish(op, b, tile, TileFlag::P, op(exclusive, aggregate), p);
    }
    exclusive = x.broadcast(exclusive);
  }
  x.scan_store_tile(op, items, exclusive, b.out, tile, p);
  x.end_tile(tile);
}

}  // namespace sv
