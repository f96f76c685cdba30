// A benchmark table (what `scanviz bench` measures on a GPU) and its JSON form, so a table made on a
// GPU machine can be loaded and shown anywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"

namespace sv {

struct BenchRow {
  std::string algorithm;
  std::int64_t n = 0;
  double median_ms = 0;
  double items_per_s = 0;  // G items/s = items_per_s / 1e9
  double bytes_per_s = 0;  // read + write
  double percent_of_copy = 0;
  double vs_cub = 0;       // this algorithm's throughput / CUB's
  bool verified = false;   // output equal to the reference scan
};

struct BenchResult {
  std::string device;
  int runs = 0;
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

std::string bench_to_json(const BenchResult& result);
// Throws std::runtime_error naming the bad field ("rows[3].n: ...").
BenchResult bench_from_json(const std::string& text);
// True when `text` is a JSON object whose "format" says it is a bench table (a trace's says otherwise),
// valid or not: what a window opening either kind of file asks before reading it.
bool is_bench_json(const std::string& text);

}  // namespace sv
