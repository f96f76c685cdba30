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
  std::vector<BenchRow> rows;
};

std::string bench_to_json(const BenchResult& result);
// Throws std::runtime_error naming the bad field ("rows[3].n: ...").
BenchResult bench_from_json(const std::string& text);

}  // namespace sv
