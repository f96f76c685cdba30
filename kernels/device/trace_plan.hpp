// What a traced device-wide run will hold, counted before it runs: its global buffers, its launches
// and the tile events they record at least, by driving the algorithm over a launcher that only counts. A trace keeps
// every global buffer after every launch, so a run's snapshot cells are its launches times its
// buffers' cells: hierarchical with --block 1 (tiles of one element never shrink the tile sums) or
// reduce-then-scan at 2^22 with items=1 are refused here, before they take gigabytes.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "device/all.hpp"

namespace sv {

struct TracePlan {
  std::int64_t buffers = 0;       // global buffers, input and output among them
  std::int64_t buffer_cells = 0;  // their lengths together
  std::int64_t steps = 0;         // launches, each a step of the trace with a snapshot
  std::int64_t tile_events = 0;   // at least: a tile's start and end, and a single pass's two publishes
  // Snapshot cells (every buffer at every step) and tile events.
  std::int64_t cells() const { return steps * buffer_cells + tile_events; }
};

// Counts instead of running. A run that allocates more global buffers than a trace can name throws
// std::invalid_argument (every recursion level allocates two; a tile of one element never ends).
class CountingLauncher {
 public:
  static constexpr std::int64_t kMaxBuffers = 250;

  explicit CountingLauncher(std::int64_t n) {
    plan_.buffers = 2;
    plan_.buffer_cells = 2 * n;
  }
  Buf alloc(const std::string&, std::int64_t length) {
    if (++plan_.buffers > kMaxBuffers)
      throw std::invalid_argument("more than " + std::to_string(kMaxBuffers) +
                                  " global buffers: each tile holds one element, so the tile sums never shrink; "
                                  "raise --block (and items)");
    plan_.buffer_cells += length;
    return {nullptr, static_cast<int>(plan_.buffers - 1), length};
  }
  DeviceBuffers single_pass_state(const DeviceParams&) { return {}; }
  template <class Pass, class Op>
  void launch(Phase phase, int, Op, const DeviceParams&, std::int64_t grid, const DeviceBuffers&) {
    ++plan_.steps;
    plan_.tile_events += grid * (phase == Phase::SinglePass ? 4 : 2);
  }
  template <class Op>
  void block_scan(std::string_view, Op, const DeviceParams& p, Buf, Buf, int) {
    ++plan_.steps;
    plan_.tile_events += 2 * p.tiles;
  }
  const TracePlan& plan() const { return plan_; }

 private:
  TracePlan plan_;
};

// `p` as prepare_device_trace fills it (n, tiles, exclusive); the operator plays no part in the count.
inline TracePlan plan_device_trace(std::string_view algo, std::string_view block_algo, const DeviceParams& p) {
  CountingLauncher l(p.n);
  drive_device_scan(l, algo, block_algo, 0, p, Buf{nullptr, 0, p.n}, Buf{nullptr, 1, p.n});
  return l.plan();
}

}  // namespace sv
