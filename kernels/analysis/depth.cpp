// The depth of a trace in rounds: each step's longest chain of dependent operations (analysis/analysis.hpp).
#include <algorithm>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/analysis.hpp"

namespace sv {

std::int64_t operation_depth(const Trace& trace) {
  // Per cell: the chain length of the value it holds and the step that wrote it (-1: none yet).
  std::vector<std::vector<std::int64_t>> cell(trace.buffers.size());
  std::vector<std::vector<int>> cell_step(trace.buffers.size());
  for (std::size_t b = 0; b < trace.buffers.size(); ++b) {
    const auto length = static_cast<std::size_t>(std::max<std::int64_t>(trace.buffers[b].length, 0));
    cell[b].assign(length, 0);
    cell_step[b].assign(length, -1);
  }
  std::vector<std::int64_t> op(trace.events.size(), 0);
  std::vector<int> op_step(trace.events.size(), -1);
  int step = -1;
  std::size_t next_step = 0;
  // What each thread last read from each cell, and when: an operand that names a cell is the value
  // its thread read there (maybe steps ago), not what the cell holds now.
  using ReadKey = std::tuple<std::uint32_t, std::uint32_t, std::uint8_t, std::int64_t>;  // block, thread, buffer, index
  std::map<ReadKey, std::pair<std::int64_t, int>> reads;
  // ...and what anyone last read there: a shuffle hands a thread the value another lane read.
  std::map<std::pair<std::uint8_t, std::int64_t>, std::pair<std::int64_t, int>> any_read;
  // The chain an operand continues: only what this step computed counts.
  auto depth_of = [&](const Event& e, const Origin& o) -> std::int64_t {
    if (o.kind == Origin::OpResult && o.index >= 0 && static_cast<std::size_t>(o.index) < op.size())
      return op_step[static_cast<std::size_t>(o.index)] == step ? op[static_cast<std::size_t>(o.index)] : 0;
    if (o.kind == Origin::Cell) {
      const auto it = reads.find({e.block, e.thread, o.buffer, o.index});
      if (it != reads.end() && it->second.second == step) return it->second.first;
      const auto other = any_read.find({o.buffer, o.index});
      return other != any_read.end() && other->second.second == step ? other->second.first : 0;
    }
    return 0;
  };
  // Blocks that ran one after another ran at once on the GPU: the depth is the deepest block's.
  std::map<std::uint32_t, std::int64_t> total;  // per block (all under 0 unless they ran one after another)
  std::uint32_t block = 0;                      // the block of the step being read
  std::int64_t deepest = 0;
  for (std::size_t s = 0; s < trace.events.size(); ++s) {
    while (next_step < trace.steps.size() && trace.steps[next_step].first_event <= s) {
      total[block] += deepest;
      deepest = 0;
      block = step_block(trace, next_step).value_or(0);
      step = static_cast<int>(next_step++);
    }
    const Event& e = trace.events[s];
    const bool in_bounds = e.buffer < cell.size() && e.index >= 0 && static_cast<std::size_t>(e.index) < cell[e.buffer].size();
    if (e.kind == EventKind::Op) {
      op[s] = 1 + std::max(depth_of(e, e.a), depth_of(e, e.b));
      op_step[s] = step;
      deepest = std::max(deepest, op[s]);
    } else if (e.kind == EventKind::Read && in_bounds) {
      const auto i = static_cast<std::size_t>(e.index);
      const std::pair<std::int64_t, int> read{cell_step[e.buffer][i] == step ? cell[e.buffer][i] : 0, step};
      reads[{e.block, e.thread, e.buffer, e.index}] = read;
      any_read[{e.buffer, e.index}] = read;
    } else if (e.kind == EventKind::Write && in_bounds) {
      cell[e.buffer][static_cast<std::size_t>(e.index)] = depth_of(e, e.a);
      cell_step[e.buffer][static_cast<std::size_t>(e.index)] = step;
    }
  }
  total[block] += deepest;
  std::int64_t depth = 0;
  for (const auto& [b, d] : total) depth = std::max(depth, d);
  return depth;
}

}  // namespace sv
