// What every device-wide scan kernel is given, and the tile-level execution context it runs in.
//
// A device-wide scan is a sequence of kernel launches (passes) over tiles of `threads x items`
// elements; each pass is `template <class X, class Op> static void run(X& x, Op op, const
// DeviceParams& p, const DeviceBuffers& b)`, run by every block of the grid. The algorithm (tile ids,
// descriptors, look-back, waiting) is written out in the pass; the block-wide collectives it uses
// are the context's, as __syncthreads() is for the block-level kernels:
//
//   x.block(), x.thread(), x.threads()       the block's index; the thread and block size (the
//                                            emulator runs a block as one thread: 0 and 1)
//   x.take_tile(p, b)                        the tile this block scans: the next value of the tile
//                                            counter (dynamic ids) or the block index (static ids)
//   x.load_tile<T>(op, buf, tile, p)         the tile's elements, the identity past n
//   x.reduce_tile(op, items)                 their aggregate, in every thread
//   x.scan_store_tile(op, items, prefix, buf, tile, p)
//                                            buf[i] = prefix ⊕ the tile's elements up to i (or
//                                            before i, exclusive)
//   x.publish(op, b, tile, flag, value, p)   one thread stores the tile's descriptor (flag, value):
//                                            one packed word for 32-bit values (and for 64-bit
//                                            ones on the GPU, 16 bytes as CUB's); else the value,
//                                            a fence (unless p.fence is off), then the flag
//   x.inspect_window(op, b, tile, end, w, p) the look-back warp reads the descriptors of tiles
//                                            [end - w, end) at once (one lane each) -> Window
//   x.fold_window(op, b, tile, end, w, seed, p)
//                                            as inspect_window, but `combined` is a left fold in tile
//                                            order: from the nearest P's value (or from `seed` where
//                                            the window has no P) over each later tile's value
//   x.share_window(op, b, tile, p)           after a window that had a P: publish P for the tiles of
//                                            that window after the nearest P that showed A (their
//                                            inclusive prefixes are the window's partial combines)
//   x.look_back_warp()                       true in the threads that do the look-back (warp 0)
//   x.spin(tile, p)                          wait before polling again; false when the bounded
//                                            wait ran out (the GPU sets its error flag)
//   x.broadcast(v)                           the look-back warp's value, to every thread
//   x.load_value<T>(buf, i), x.store_value(buf, i, v)   single elements
//   x.end_tile(tile)                         the tile is done (tile-level trace)
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/tile_flag.hpp"

namespace sv {

// A global buffer as a pass sees it: a device pointer on the GPU, a buffer number in the emulator.
struct Buf {
  void* ptr = nullptr;
  int id = -1;
  std::int64_t length = 0;
};

// The buffers of one pass. Unused ones stay empty.
struct DeviceBuffers {
  Buf in, out;            // the pass's input and output
  Buf sums, scanned;      // per tile: aggregates or last elements, and their inclusive scan
  Buf descriptors;        // single pass: one descriptor per tile (flag and value)
  Buf counter;            // single pass: the tile-id counter (dynamic tile ids)
};

struct DeviceParams {
  std::int64_t n = 0;          // elements of this pass
  std::int32_t threads = 256;  // per block
  std::int32_t items = 16;     // per thread
  std::int64_t tiles = 0;      // ceil(n / tile_items())
  bool exclusive = false;
  bool dynamic_ids = true;     // tile ids from an atomic counter (false: the block index)
  bool fence = true;           // order the value's store before the flag's (off: a reader can see the
                               // flag before the value; the descriptor is then never one packed word)
  std::int32_t window = 32;    // predecessors inspected at once by the look-back
  bool share = false;          // the window that ends a look-back publishes P for its A tiles (share_window)
  std::int64_t stall_tile = -1;     // this tile waits `stall_cycles` after taking its id
  std::int64_t stall_cycles = 0;    // (emulator cycles; nanoseconds on the GPU)
  std::uint16_t pass = 0;
  // Floating-point values: every prefix combined in one fixed order (device/decoupled_lookback_fixed.hpp),
  // whoever publishes first. Last, in what was padding: the default kernels' parameters keep their
  // layout and the loads of them their shape.
  bool deterministic = false;

  SV_HD std::int64_t tile_items() const { return static_cast<std::int64_t>(threads) * items; }
  SV_HD std::int64_t tile_begin(std::int64_t tile) const { return tile * tile_items(); }
  SV_HD std::int64_t tile_end(std::int64_t tile) const {
    const std::int64_t e = (tile + 1) * tile_items();
    return e < n ? e : n;
  }
};

// The parameters of a scan of n elements in p's tiles (a recursion level's: its n is the tile sums').
inline DeviceParams level_params(DeviceParams p, std::int64_t n, bool exclusive) {
  p.n = n;
  p.exclusive = exclusive;
  p.tiles = n == 0 ? 0 : (n + p.tile_items() - 1) / p.tile_items();
  return p;
}

// What the look-back warp saw in a window of predecessors [end - w, end).
template <class T>
struct Window {
  bool any_x = false;  // some predecessor has published nothing yet
  bool has_p = false;  // some predecessor has published its inclusive prefix
  T combined{};        // ⊕ of the values from the nearest P (or the window's first tile) to end - 1
};

}  // namespace sv
