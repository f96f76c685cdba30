// The GPU timing panel: measures a device-wide algorithm (untraced), CUB and the copy at a chosen n
// on a background thread (the frame loop never waits for it) and charts G items/s against n; without
// a device it says so and shows tables made elsewhere with `scanviz bench --json`.
#pragma once

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include <imgui.h>

#include "bench_result.hpp"
#include "gpu/bench.hpp"
#include "gpu/executor.hpp"

namespace sv::gui {

struct TimingPanel {
  int log2_n = 24;
  std::string algorithm = "decoupled-lookback";  // the device-wide algorithm to time
  std::vector<int> queued_log2_n;      // sizes still to measure, in order (gui --measure)
  std::future<BenchResult> pending;  // a measurement under way
  std::chrono::steady_clock::time_point started;
  double last_refresh_s = 0;         // how long the last measurement took, start to shown
  BenchResult table;                 // what is shown
  std::string status;
  char path[512] = "bench.json";
  bool chart_block_level = false;    // the chart shows the block-level kernels' rows, not the device-wide scans
  // The last frame's screen y of the table's last row's bottom edge and of what the window shows
  // (its clip rect's bottom): the row is whole when the first is not below the second.
  float last_row_bottom = 0, shown_bottom = 0;
};

// The table's row indices in the order its `column` (0 algorithm, 1 n, 2 ms, 3 G items/s, 4 GB/s,
// 5 % of copy, 6 vs CUB) sorts them, ties in the measured order; -1: the measured order. The window
// shows the largest n first until a header is clicked.
std::vector<std::size_t> sorted_rows(const BenchResult& table, int column, bool descending);

// Merges new measurements into the shown table, replacing rows of the same algorithm and n.
void merge_rows(BenchResult& into, const BenchResult& from);

void timing_panel(TimingPanel& t, const GpuStatus& gpu);
// The panel in its own window ("GPU timing"), first placed and sized for a `display`-sized screen.
void timing_window(bool* open, TimingPanel& t, const GpuStatus& gpu, ImVec2 display);

// True while a measurement runs or one is queued.
inline bool measuring(const TimingPanel& t) { return t.pending.valid() || !t.queued_log2_n.empty(); }

}  // namespace sv::gui
