// The warp-level building block of the hybrid block scans (Merrill and Garland, Fig. 2): an inclusive
// Kogge-Stone scan across the lanes of one warp, the values passed through warp shuffles
// (__shfl_up_sync on the GPU, the emulator's lockstep warps), not through shared memory, and no barrier.
#pragma once

#include "block/block_params.hpp"

namespace sv {

// Scans cells(cell) across the lanes of each warp of `width` lanes that calls it with in_warp set: at
// shuffle offsets 1, 2, 4, ... < count each lane reads its own cell (what it stored at the level
// before), passes it up by a shuffle, and each lane >= offset stores below ⊕ its own. Only the lane
// itself touches its cell, so no barrier is needed; the operands carry their cells as origins, so the
// arrows come from the level before, as in the figure. Lanes >= count hold no data: they shuffle, as
// every lane of the warp must, and apply no operator. Every thread of the block calls it (the steps
// are the block's). Cost: log2 count steps, count*log2(count) - (count - 1) operator applications
// a warp.
template <class X, class Op, class S>
SV_HD void warp_inclusive_scan(X& x, Op op, const S& cells, std::int64_t cell, std::int32_t lane, std::int32_t width,
                               std::int32_t count, bool in_warp, Phase phase, unsigned line = SV_CALLER_LINE) {
  using V = typename X::template val<typename Op::value_type>;
  for (std::int32_t offset = 1; offset < count; offset *= 2) {
    x.unsynced_step(phase, offset, line);
    if (in_warp) {
      V mine = x.identity(op, line);
      if (lane < count) mine = cells(cell, line);
      V below = x.shfl_up(mine, offset, width, line);
      if (lane >= offset && lane < count) cells(cell, line) = x.op(op, below, mine, line);
    }
  }
}

}  // namespace sv
