// The warp-level building block of the hybrid block scans (Merrill and Garland, Fig. 2): an inclusive
// Kogge-Stone scan across the lanes of one warp, the values passed through warp shuffles
// (__shfl_up_sync on the GPU, the emulator's lockstep warps), no shared memory read and no barrier.
#pragma once

#include "block/block_params.hpp"

namespace sv {

// Scans cells(cell) across the lanes of each warp of `width` lanes that calls it with in_warp set:
// the lane reads its cell, then at shuffle offsets 1, 2, 4, ... < count each lane >= offset adds
// the value of the lane `offset` below it and stores the running value back into its cell (so each
// offset is a drawn step). Lanes >= count hold no data: they shuffle, as every lane of the warp
// must, and apply no operator. Every thread of the block calls it (the steps are the block's).
// Returns the lane's inclusive value. Cost: log2 count steps, count*log2(count) - (count - 1) operator
// applications a warp.
template <class X, class Op, class S>
SV_HD typename X::template val<typename Op::value_type> warp_inclusive_scan(
    X& x, Op op, const S& cells, std::int64_t cell, std::int32_t lane, std::int32_t width, std::int32_t count,
    bool in_warp, Phase phase, unsigned line = SV_CALLER_LINE) {
  using V = typename X::template val<typename Op::value_type>;
  V v = x.identity(op, line);
  for (std::int32_t offset = 1; offset < count; offset *= 2) {
    x.unsynced_step(phase, offset, line);
    if (in_warp) {
      if (offset == 1 && lane < count) v = cells(cell, line);
      V below = x.shfl_up(v, offset, width, line);
      if (lane >= offset && lane < count) {
        v = x.op(op, below, v, line);
        cells(cell, line) = v;
      }
    }
  }
  return v;
}

}  // namespace sv
