// What the device-wide drivers share: a drive function runs one algorithm's launches over a launcher
// L that each executor provides (device/all.hpp lists its calls), and each algorithm's header holds
// its own driver, so the table's row names it (algorithms.def) and nothing else lists it.
#pragma once

#include <string>
#include <type_traits>

#include "core/phase.hpp"
#include "device/device_params.hpp"

namespace sv {

// The buffers of recursion level `level` (0: the data's tiles): the phases' labels say "tile-sums
// level 1", so the buffers say "tile sums level 1"; a trace's buffer names are unique.
inline std::string level_buffer_name(const char* name, int level) {
  return level == 0 ? std::string(name) : std::string(name) + " level " + std::to_string(level);
}

// A level's tile sums (p.tiles > 1): allocated, written by the pass Sums, then scanned one level up
// by `scan_sums(params, sums, scanned, level)`, the algorithm's own driver again.
template <class Sums, class L, class Op, class ScanSums>
void scan_tile_sums(L& l, Phase phase, Op op, const DeviceParams& p, DeviceBuffers& b, int level, ScanSums scan_sums) {
  b.sums = l.alloc(level_buffer_name("tile sums", level), p.tiles);
  b.scanned = l.alloc(level_buffer_name("scanned sums", level), p.tiles);
  l.template launch<Sums>(phase, level, op, p, p.tiles, b);
  scan_sums(level_params(p, p.tiles, false), b.sums, b.scanned, level + 1);
}

// One launch of a pass over the single-pass tile skeleton (device/single_pass_tile.hpp).
template <class Algo, class L, class Op>
void drive_single_pass(L& l, Op op, const DeviceParams& p, Buf in, Buf out) {
  if (p.n == 0) return;
  DeviceBuffers b = l.single_pass_state(p);
  b.in = in;
  b.out = out;
  l.template launch<Algo>(Phase::SinglePass, 0, op, p, p.tiles, b);
}

// Whether Op scans floating-point values (false for a launcher that only counts, which passes no
// operator).
template <class Op, class = void>
inline constexpr bool kFloatingOp = false;
template <class Op>
inline constexpr bool kFloatingOp<Op, std::void_t<typename Op::value_type>> =
    std::is_floating_point_v<typename Op::value_type>;

}  // namespace sv
