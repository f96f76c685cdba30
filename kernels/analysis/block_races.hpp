// Races between the blocks of one launch, in global memory: one block reads or writes a cell another
// block wrote (or read) with nothing ordering the two. Blocks of one launch run at once on a GPU, in
// no order, so only a flag protocol orders them: the writer's data, then __threadfence(), then a flag;
// the reader sees the flag, then reads the data (the single-pass scans of the slides). The emulator
// runs a launch's blocks one after another, so the trace alone would show every such read as
// correct; this is what tells the race (docs/kernel-subset.md, "Races between blocks").
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/analysis.hpp"
#include "trace/trace.hpp"

namespace sv {

// The block a launch of a host run starts at, one a launch (meta.options["launch_blocks"]: "0,4,5");
// {0} for a trace of one launch. Blocks of two launches never race: a launch ends before the next.
std::vector<std::uint32_t> launch_first_blocks(const TraceMeta& meta);

// Two accesses to one global cell by blocks of one launch, at least one a write, not both atomic,
// unordered. Ordered means: the earlier block fenced (__threadfence) after its access, and the later
// block, before its own, read a cell the earlier one wrote after that fence (its flag) or an atomic
// it updated. A read of a cell written after its writer's fence is that protocol's flag, no race.
// Each hazard's accesses carry their blocks; one hazard a (kind, buffer, lines, blocks' order) at most.
std::vector<Hazard> find_block_races(const Trace& trace);

}  // namespace sv
