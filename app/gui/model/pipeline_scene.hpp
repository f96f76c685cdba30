// The pipelined kernel's scene in the look-back view: where a tile's time goes (a bar of the four
// phases' medians), and for a few multiprocessors one lane per warp role (the load warp's copies in
// flight, the reduce warps, the two look-back warps with their waits, the four store groups) and the
// stages in use, on the view's time axis. Drawn and exported as a LookbackScene.
#pragma once

#include <cstdint>
#include <string>

#include "gui/model/lookback_scene.hpp"
#include "analysis/pipeline.hpp"

namespace sv::gui {

struct PipelineSceneOptions {
  float width = 1200;
  float em = 16;
  std::uint64_t t_end = 0;  // the lanes' time axis runs to this (0: the run's own end)
  std::int64_t selected = -1;
  int first_block = 0;      // the blocks shown: [first_block, first_block + blocks) of run.blocks
  int blocks = 2;
};

// Lane rows a block gets: load, reduce, 2 look-back warps, 4 store groups, stages.
inline constexpr int kPipeLaneRows = 9;
const char* pipe_lane_name(int row);  // "load", "reduce", "look-back 0", ..., "store 3", "stages"

LookbackScene build_pipeline_scene(const PipelineRun& run, std::uint64_t time, const LookbackPalette& pal,
                                   const PipelineSceneOptions& options);

}  // namespace sv::gui
