// Warp divergence and idle warps, per step of a trace: which lanes of each warp did the step's work.
//
// Definitions (the README's "Warp divergence" section says the same):
// - A block's threads are grouped into warps of `warp_width` consecutive threads (thread t is lane
//   t mod W of warp t / W). The live lanes of a warp are the ones that are threads of the block: all
//   W, except in the last warp of a block whose size is not a multiple of W.
// - A live lane is ACTIVE in a step when it did that step's work: in a compute step (stride, span,
//   reduction, up-sweep, down-sweep, ...) it applied the operator at least once; in a data-movement
//   step (load, clear-root, store, tile sums) it wrote at least one cell. Every other live lane is
//   IDLE: on SIMT hardware it sits masked off while its warp runs the work.
// - A warp is FULL when all its live lanes are active, IDLE when none is (the whole warp skips the
//   work, as after stride 32 in Kogge-Stone), and DIVERGENT when some but not all are: its two
//   control paths (the lanes that work and the lanes that do not) run one after the other.
#pragma once

#include <cstdint>
#include <vector>

#include "trace/trace.hpp"

namespace sv {

inline constexpr int kWarpWidth = 32;  // NVIDIA's warp; Event::warp() assumes it too

enum class WarpState : std::uint8_t { Full, Divergent, Idle };

// One warp in one step. Bit l of active_lanes: lane l was active.
struct WarpActivity {
  std::uint32_t block = 0;
  std::uint32_t warp = 0;  // within the block
  int live_lanes = 0;
  std::uint32_t active_lanes = 0;

  int active_count() const;
  WarpState state() const;
};

struct StepDivergence {
  std::vector<WarpActivity> warps;  // every warp of every block, block-major
  std::int64_t full_warps = 0;
  std::int64_t divergent_warps = 0;
  std::int64_t idle_warps = 0;
  std::int64_t active_lanes = 0;
  std::int64_t idle_lanes = 0;  // live lanes that were not active
};

struct Divergence {
  int warp_width = kWarpWidth;
  int warps_per_block = 0;
  std::vector<StepDivergence> per_step;  // one per trace step
  // Sums over the steps (a warp counted once per step it was divergent / idle).
  std::int64_t divergent_warps = 0;
  std::int64_t idle_warps = 0;
  std::int64_t idle_lanes = 0;
};

// True for the phases whose work is moving data rather than applying the operator.
bool is_data_movement(Phase phase);

// True for one-block traces of a block-level algorithm: the traces whose steps this is about (and
// whose size is bounded; the analysis itself takes any grid, at steps x grid x warps of memory).
bool divergence_applies(const Trace& trace);

// warp_width: a power of two from 1 to 32; anything else throws std::invalid_argument. 0: the
// width the trace's block ran with (TraceMeta::warp_width, 32 but for the warp-level algorithms).
Divergence compute_divergence(const Trace& trace, int warp_width = 0);

}  // namespace sv
