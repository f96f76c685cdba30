// The device-wide scans as sequences of launches, written once over a launcher L that the GPU
// executor and the CPU emulator each provide:
//
//   Buf l.alloc(std::string name, std::int64_t length)      a global buffer of scan values
//   DeviceBuffers l.single_pass_state(const DeviceParams&)  descriptors (all X) and the tile counter
//   l.launch<Pass>(Phase, level, op, params, grid, buffers) one kernel launch, `grid` blocks
//   l.block_scan(algo, op, params, in, out, level)          hierarchical launch 1: the block-level
//                                                           kernel `algo`, one block per tile
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/phase.hpp"
#include "device/chained.hpp"
#include "device/decoupled_lookback.hpp"
#include "device/decoupled_lookback_fixed.hpp"
#include "device/hierarchical.hpp"
#include "device/reduce_then_scan.hpp"

namespace sv {

inline DeviceParams level_params(DeviceParams p, std::int64_t n, bool exclusive) {
  p.n = n;
  p.exclusive = exclusive;
  p.tiles = n == 0 ? 0 : (n + p.tile_items() - 1) / p.tile_items();
  return p;
}

// The buffers of recursion level `level` (0: the data's tiles): the phases' labels say "tile-sums
// level 1", so the buffers say "tile sums level 1"; a trace's buffer names are unique.
inline std::string level_buffer_name(const char* name, int level) {
  return level == 0 ? std::string(name) : std::string(name) + " level " + std::to_string(level);
}

template <class L, class Op>
void drive_hierarchical(L& l, std::string_view block_algo, Op op, const DeviceParams& p, Buf in, Buf out, int level) {
  if (p.n == 0) return;
  const Buf local = p.exclusive ? l.alloc(level_buffer_name("tile scans", level), p.n) : out;
  l.block_scan(block_algo, op, p, in, local, level);
  if (p.tiles == 1 && !p.exclusive) return;
  DeviceBuffers b;
  b.in = local;
  b.out = out;
  if (p.tiles > 1) {
    b.sums = l.alloc(level_buffer_name("tile sums", level), p.tiles);
    b.scanned = l.alloc(level_buffer_name("scanned sums", level), p.tiles);
    l.template launch<Hierarchical::TileSums>(Phase::TileSums, level, op, p, p.tiles, b);
    drive_hierarchical(l, block_algo, op, level_params(p, p.tiles, false), b.sums, b.scanned, level + 1);
  }
  l.template launch<Hierarchical::AddPrefixes>(Phase::AddPrefixes, level, op, p, p.tiles, b);
}

template <class L, class Op>
void drive_reduce_then_scan(L& l, Op op, const DeviceParams& p, Buf in, Buf out, int level) {
  if (p.n == 0) return;
  DeviceBuffers b;
  b.in = in;
  b.out = out;
  if (p.tiles > 1) {
    b.sums = l.alloc(level_buffer_name("tile sums", level), p.tiles);
    b.scanned = l.alloc(level_buffer_name("scanned sums", level), p.tiles);
    l.template launch<ReduceThenScan::ReduceTiles>(Phase::ReduceTiles, level, op, p, p.tiles, b);
    drive_reduce_then_scan(l, op, level_params(p, p.tiles, false), b.sums, b.scanned, level + 1);
  }
  l.template launch<ReduceThenScan::ScanWithPrefix>(Phase::ScanWithPrefix, level, op, p, p.tiles, b);
}

template <class Algo, class L, class Op>
void drive_single_pass(L& l, Op op, const DeviceParams& p, Buf in, Buf out) {
  if (p.n == 0) return;
  DeviceBuffers b = l.single_pass_state(p);
  b.in = in;
  b.out = out;
  l.template launch<Algo>(Phase::SinglePass, 0, op, p, p.tiles, b);
}

// deterministic=on (floating-point values only: the parser leaves it off for the others, whose
// operators are exact in any order) runs its own pass, so the default's kernels stay as they are.
template <class Op, class = void>
inline constexpr bool kFloatingOp = false;  // (a launcher that only counts passes no operator)
template <class Op>
inline constexpr bool kFloatingOp<Op, std::void_t<typename Op::value_type>> =
    std::is_floating_point_v<typename Op::value_type>;
template <class L, class Op>
void drive_decoupled_lookback(L& l, Op op, const DeviceParams& p, Buf in, Buf out) {
  if constexpr (kFloatingOp<Op>) {
    if (p.deterministic) return drive_single_pass<DecoupledLookbackFixed>(l, op, p, in, out);
  }
  drive_single_pass<DecoupledLookback>(l, op, p, in, out);
}

// Runs the device-wide scan `algo` (hierarchical, reduce-then-scan, chained, decoupled-lookback) of
// p.n elements from `in` to `out`; `block_algo` is hierarchical's block algorithm.
template <class L, class Op>
void drive_device_scan(L& l, std::string_view algo, std::string_view block_algo, Op op, const DeviceParams& p, Buf in,
                       Buf out) {
  if (algo == "hierarchical") drive_hierarchical(l, block_algo, op, p, in, out, 0);
  else if (algo == "reduce-then-scan") drive_reduce_then_scan(l, op, p, in, out, 0);
  else if (algo == "chained") drive_single_pass<Chained>(l, op, p, in, out);
  else if (algo == "decoupled-lookback") drive_decoupled_lookback(l, op, p, in, out);
  else throw std::invalid_argument("unknown device-wide algorithm '" + std::string(algo) + "'");
}

}  // namespace sv
