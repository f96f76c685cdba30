// The pipelined kernel's trace (decoupled look-back with pipelined=on, recorded on a GPU) read per
// warp role: for every tile when each role took it up and handed it on, for every block how many of
// its shared-memory stages held a tile over time, and where a tile's time goes. Plain data, no ImGui.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv {

// One tile's passage through the roles of its block, in trace time (-1 where an event is missing).
struct PipelineTile {
  std::int64_t tile = -1;
  std::uint32_t block = 0;
  std::uint16_t sm = 0;
  int index = 0;            // the block's i-th tile: look-back warp index % 2, store group index % 4
  std::int64_t taken = -1;      // the load warp took the id and issued the bulk copies (Start)
  std::int64_t landed = -1;     // the last quarter arrived (the latest Landed)
  std::int64_t aggregate = -1;  // A published (tile 0: its P)
  std::int64_t look = -1;       // a look-back warp took it (LookBack)
  std::int64_t inclusive = -1;  // P published
  std::int64_t held = -1;       // the store group read it into registers: the stage is free
  std::int64_t store = -1;      // the store group had the prefix (Store)
  std::int64_t end = -1;        // stored (End)
  std::vector<std::pair<std::int64_t, std::int64_t>> waits;  // the look-back's blocked polls: [first, the poll that passed)
  bool complete = false;        // every role's event is there
};

// The phases a tile's life (taken -> end) is cut into, in order: copy in (taken -> landed), reduce
// (landed -> A), look-back (A -> P), scan and store (P -> end).
enum class PipePhase : std::uint8_t { Copy, Reduce, LookBack, Store };
inline constexpr int kPipePhases = 4;
const char* pipe_phase_name(PipePhase p);  // "copy in", "reduce", "look-back", "scan and store"
const char* pipe_phase_help(PipePhase p);  // what it measures, for a tooltip

struct PipelineRun {
  std::vector<PipelineTile> tiles;  // by tile id
  std::vector<std::uint32_t> blocks;  // the blocks that ran, in order
  int stages = 0;                  // shared-memory stages a block has (the trace's stages switch)
  std::int64_t t0 = 0, t1 = 0;     // the tiles' time range
  std::array<double, kPipePhases> median_ns{};  // of the complete tiles
  double median_life_ns = 0;       // taken -> end
  std::int64_t complete = 0;       // tiles with every role's event
};

// Whether `trace` is a pipelined kernel's trace (its roles' events are there).
bool is_pipelined_trace(const Trace& trace);
// The pipelined run of `trace` (its single-pass launch), in the trace's own times (the look-back
// view passes its rebased copy, so both share one axis); no tiles when it is not one.
PipelineRun make_pipeline_run(const Trace& trace);

// Stages of `block` holding a tile at `time`: from the tile's id taken (its copy issued) until the
// store group has read it (Held, traced before the group frees the stage; the reduce warps free
// their side as they sum, before A), so it never counts more than the block's stages.
int stages_in_use(const PipelineRun& run, std::uint32_t block, std::int64_t time);
// The same at each of `times`: the block's tiles are picked out once.
std::vector<int> stages_in_use(const PipelineRun& run, std::uint32_t block, const std::vector<std::int64_t>& times);

// "a tile's median life 5.1 us: copy in 1.2 us (24%), reduce 0.4 us (8%), ..." for the view and the CLI.
std::string pipeline_summary(const PipelineRun& run);

}  // namespace sv
