// A benchmark table (what `scanviz bench` measures on a GPU) and its JSON form, so a table made on a
// GPU machine can be loaded and shown anywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"

namespace sv {

// The lowest, middle and highest of a measurement's rounds, in milliseconds.
struct BenchSpread {
  double min = 0, median = 0, max = 0;
  friend bool operator==(const BenchSpread&, const BenchSpread&) = default;
};

// Two measures of one algorithm at one size. Latency: one launch on an idle GPU between two events
// (median_ms and the rates beside it, as every bench file has them). Back to back: `graph_launches`
// scans captured in one CUDA graph, inputs rotated past the L2, the graph's time over the launches:
// what a scan costs an application that issues many. Files from before the two measures have
// neither spread and no graph (graph_launches 0).
struct BenchRow {
  std::string algorithm;
  std::int64_t n = 0;
  double median_ms = 0;    // latency: the median of the rounds' medians
  double items_per_s = 0;  // G items/s = items_per_s / 1e9
  double bytes_per_s = 0;  // read + write
  double percent_of_copy = 0;
  double vs_cub = 0;       // this algorithm's throughput / CUB's
  bool verified = false;   // output equal to the reference scan
  BenchSpread latency_ms;  // each round's median latency, over the rounds (all 0: not in the file)
  int graph_launches = 0;  // back to back: scans in a round's graph; 0: not measured
  BenchSpread graph_ms;    // back to back: a scan's share of its round's graph time, over the rounds
  double graph_percent_of_copy = 0;  // from the medians of graph_ms, against the copy's and CUB's
  double graph_vs_cub = 0;
  bool has_latency_spread() const { return latency_ms.max > 0; }
  bool has_graph() const { return graph_launches > 0; }
  // The back-to-back rates from the median of graph_ms (0 without a graph).
  double graph_items_per_s() const { return has_graph() && graph_ms.median > 0 ? n / (graph_ms.median * 1e-3) : 0; }
};

struct BenchResult {
  std::string device;
  int runs = 0;                     // timed launches a round for the latency
  int rounds = 1;                   // rounds of both measures (files from before the field: 1)
  ValueType type = ValueType::I32;  // of the sum timed (files from before the field: int32)
  int memory_clock_khz = 0;         // the device's peak DRAM clock and bus width, as CUDA reports them;
  int memory_bus_bits = 0;          // 0 when unknown (files from before the fields)
  std::vector<BenchRow> rows;
};

// The DRAM's peak bandwidth in bytes/s: two transfers a clock (double data rate) over the whole bus,
// as NVIDIA quotes it (H100 SXM: 2619 MHz x 5120 bits -> 3.35 TB/s); 0 when unknown.
double peak_dram_bytes_per_s(const BenchResult& result);
// A row's read + write bytes/s as a percentage of that peak; 0 when the peak is unknown.
double percent_of_peak_dram(const BenchResult& result, const BenchRow& row);

// The table `scanviz bench` prints: both measures, their spreads over the rounds, and the
// back-to-back share of the copy and ratio to CUB.
std::string bench_table_text(const BenchResult& result);

std::string bench_to_json(const BenchResult& result);
// Throws std::runtime_error naming the bad field ("rows[3].n: ...").
BenchResult bench_from_json(const std::string& text);
// True when `text` is a JSON object whose "format" says it is a bench table (a trace's says otherwise),
// valid or not: what a window opening either kind of file asks before reading it.
bool is_bench_json(const std::string& text);

}  // namespace sv
