// decoupled-lookback with deterministic=on, for floating-point values, whose operators round: the
// same bits on every run and on the emulator as on the GPU. The plain look-back combines from
// whichever predecessor has published its inclusive prefix first, a window at a time as a tree, so
// the order of the additions (and their rounding) changes from run to run.
//
// Here every tile's exclusive prefix is one fixed expression, the left fold of the tiles'
// aggregates in tile order: E(t) = ((A(0) ⊕ A(1)) ⊕ ...) ⊕ A(t-1), and each P published is
// E(t) ⊕ A(t), the same fold one tile further. A fold is prefix-consistent: the fold up to t-1
// is the fold up to s continued over s+1 .. t-1. So a look-back may stop at any P, whichever tile
// published it, continue with the later tiles' aggregates in tile order, and reach the same bits.
// It costs the look-back warp serial combines (one per tile between the P and the tile) where the
// plain one combines a window as a tree, and a look-back that crosses windows reads them twice:
// back to the window holding the nearest P, then forward again, folding each window onto the
// prefix (a predecessor that has since published P restarts the fold from its P, which is equal).
//
// Within a tile the order is the GPU's default tile kernel's (gpu/tile_exec.cuh, staged), which
// the emulator repeats operation for operation (emulator/fixed_tile_tree.hpp); docs/design.md
// writes the whole tree out.
#pragma once

#include "device/single_pass_tile.hpp"

namespace sv {

struct DecoupledLookbackFixed {
  static constexpr bool kPublishesAggregate = true;

  template <class X, class Op>
  SV_HD static void run(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b) {
    scan_single_pass_tile<DecoupledLookbackFixed>(x, op, p, b);
  }

  // The look-back warp's: back to the nearest P, then the left fold forward from it.
  template <class X, class Op>
  SV_HD static typename Op::value_type exclusive_prefix(X& x, Op op, const DeviceParams& p, const DeviceBuffers& b,
                                                        std::int64_t tile) {
    using T = typename Op::value_type;
    T exclusive = op.identity();
    // Back, a window at a time, to the window that holds the nearest P.
    std::int64_t end = tile;
    bool waited_out = false;
    for (;;) {
      const Window<T> w = x.fold_window(op, b, tile, end, p.window, op.identity(), p);
      if (w.any_x || (p.window == 1 && !w.has_p)) {
        if (!x.spin(tile, p)) {  // the bounded wait ran out: the error flag is set
          waited_out = true;
          break;
        }
        continue;
      }
      if (w.has_p) {
        exclusive = w.combined;
        break;
      }
      end -= p.window;
    }
    // Forward again to this tile, each window folded onto the prefix in tile order. Every
    // descriptor there showed A or P already, so none shows X now.
    while (!waited_out && end < tile) {
      const Window<T> w = x.fold_window(op, b, tile, end + p.window, p.window, exclusive, p);
      if (w.any_x) {
        waited_out = !x.spin(tile, p);
        continue;
      }
      exclusive = w.combined;
      end += p.window;
    }
    return exclusive;
  }
};

}  // namespace sv
