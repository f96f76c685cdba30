// `scanviz bench`: GPU throughput of device-wide scans against the baselines, CUB's
// DeviceScan::InclusiveSum and a device-to-device copy (the memory-bandwidth ceiling). Host-only
// header; the build without CUDA reports that there is no GPU support.
//
// Method: inclusive sum of the chosen type (int32 unless asked); per size, inputs rotated over
// buffer pairs holding 256 MiB together (past the largest L2), warm-up runs, then in each round two
// measures: the latency (one launch between CUDA events on an idle GPU, the median of the round's
// runs) and back to back (many launches captured in one CUDA graph, its time over the launches);
// the spread of each over the rounds. Every algorithm's output checked against the sequential
// reference, after a single launch and after a graph. docs/performance.md says more.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms.hpp"
#include "bench_result.hpp"
#include "device/device_options.hpp"

namespace sv {

struct BenchOptions {
  std::vector<std::int64_t> sizes;      // empty: 2^10 .. 2^28, every even power (see default_bench_sizes)
  int runs = 20;                        // timed single launches a round (the round's median is its latency)
  int rounds = 3;                       // rounds of both measures (latency, back to back in a graph): the spread
  int warmup = 3;
  std::vector<std::string> algorithms;  // algorithms to time (empty: every device-wide one and every race-free
                                        // block-level one); the copy and CUB always run, the % copy and vs CUB
                                        // columns need them
  ValueType type = ValueType::I32;      // the sum's type: int32, int64, float or double
};

// Block-level kernels are timed as `block NAME`: every block scans its own tile of kBenchTile
// elements (the kernel a device-wide scan runs first; the output is each tile's own scan, checked
// tile by tile), the warp-level ones with warps of 32.
inline constexpr std::int32_t kBenchTile = 1024;

std::vector<std::int64_t> default_bench_sizes();

// The words of `v` between `sep`s, empty ones kept ("a,,b" -> a, "", b; "" -> one empty word).
inline std::vector<std::string_view> bench_words(std::string_view v, char sep) {
  std::vector<std::string_view> words;
  for (std::size_t at = 0; at <= v.size();) {
    const std::size_t end = std::min(v.find(sep, at), v.size());
    words.push_back(v.substr(at, end - at));
    at = end + 1;
  }
  return words;
}

// A comma-separated list of decoupled look-back's switches KEY=VALUE, as `variable` gives it.
// std::invalid_argument for a word that is not KEY=VALUE ("is not `other`a switch KEY=VALUE") or a
// switch decoupled look-back refuses.
inline std::map<std::string, std::string> bench_switch_list(std::string_view v, const char* variable,
                                                            const char* other = "") {
  std::map<std::string, std::string> switches;
  for (const std::string_view word : bench_words(v, ',')) {
    const std::size_t eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw std::invalid_argument(std::string(variable) + ": '" + std::string(word) + "' is not " + other +
                                  "a switch KEY=VALUE");
    switches[std::string(word.substr(0, eq))] = std::string(word.substr(eq + 1));
  }
  (void)parse_device_config("decoupled-lookback", switches, ValueType::I32, 0, true);
  return switches;
}

// SCANVIZ_BENCH_PHASES (`value`, null when unset): whether bench adds a clocked run of decoupled
// look-back at each size (anything but unset, empty or "0"), and under which of its switches: none
// for "1", else a comma-separated list of KEY=VALUE (e.g. "window=16,tile-ids=static").
// std::invalid_argument as bench_switch_list.
inline bool bench_phase_switches(const char* value, std::map<std::string, std::string>& switches) {
  switches.clear();
  const std::string_view v = value ? value : "";
  if (v.empty() || v == "0") return false;
  if (v == "1") return true;
  switches = bench_switch_list(v, "SCANVIZ_BENCH_PHASES", "1 or ");
  return true;
}

// SCANVIZ_BENCH_SWITCHES (`value`, null when unset): more rows of decoupled look-back, each under a
// set of its switches, the sets separated by ';' (e.g. "share=on;window=16,share=on"). Each set, as
// written, names its row ("dl share=on"). std::invalid_argument as bench_switch_list.
inline std::vector<std::string> bench_switch_sets(const char* value) {
  const std::string_view v = value ? value : "";
  std::vector<std::string> sets;
  if (v.empty()) return sets;
  for (const std::string_view set : bench_words(v, ';')) {
    (void)bench_switch_list(set, "SCANVIZ_BENCH_SWITCHES");
    sets.emplace_back(set);
  }
  return sets;
}

// SCANVIZ_BENCH_HOLDS (`value`, null when unset): the holds in microseconds of the baseline rows
// "tiles alone, stored N us late" (SCANVIZ_BENCH_POLICIES=tiles-alone-late), a comma-separated list
// such as "1,2,3.5"; 7 when unset or empty. std::invalid_argument for a word that is not a number
// from 0 to 1000.
inline std::vector<double> bench_holds_us(const char* value) {
  const std::string_view v = value ? value : "";
  if (v.empty()) return {7.0};
  std::vector<double> holds;
  for (const std::string_view w : bench_words(v, ',')) {
    const std::string word(w);
    char* end = nullptr;
    const double us = std::strtod(word.c_str(), &end);
    if (word.empty() || end != word.c_str() + word.size() || !(us >= 0 && us <= 1000))
      throw std::invalid_argument("SCANVIZ_BENCH_HOLDS: '" + word + "' is not a hold in microseconds from 0 to 1000");
    holds.push_back(us);
  }
  return holds;
}

// The checks run_bench makes before it looks for a device, so a caller can report bad options the
// same way with or without one: std::invalid_argument for a size outside 1 .. 2^30, fewer than one
// timed run, an algorithm that is not a device-wide one (naming it) or a bad SCANVIZ_BENCH_PHASES,
// SCANVIZ_BENCH_HOLDS or SCANVIZ_BENCH_SWITCHES.
inline void check_bench_options(const BenchOptions& options) {
  std::map<std::string, std::string> switches;
  (void)bench_phase_switches(std::getenv("SCANVIZ_BENCH_PHASES"), switches);
  (void)bench_holds_us(std::getenv("SCANVIZ_BENCH_HOLDS"));
  (void)bench_switch_sets(std::getenv("SCANVIZ_BENCH_SWITCHES"));
  for (std::int64_t n : options.sizes)
    if (n < 1 || n > (std::int64_t{1} << 30)) throw std::invalid_argument("bench size " + std::to_string(n) + " is outside 1..2^30");
  if (options.runs < 1 || options.warmup < 0) throw std::invalid_argument("bench needs at least one timed run");
  if (options.rounds < 1 || options.rounds > 100) throw std::invalid_argument("bench takes 1 to 100 rounds");
  if (options.type == ValueType::Interval) throw std::invalid_argument("type: bench times sums: int32, int64, float or double");
  for (const std::string& a : options.algorithms) {
    if (find_device_algorithm(a)) continue;
    if (const AlgorithmInfo* b = find_algorithm(a); b && !b->racy) continue;
    std::string known;
    for (const DeviceAlgorithmInfo& d : device_algorithms()) known += (known.empty() ? "" : ", ") + std::string(d.name);
    throw std::invalid_argument("bench: unknown algorithm '" + a + "' (device-wide: " + known +
                                "; or a race-free block-level one)");
  }
}

// SCANVIZ_BENCH_POLICIES: whether the value `words` adds the tile policy named `name` (gpu::TilePolicy::
// name) to bench's rows: "1" adds every one, a comma-separated list those whose name contains one of
// its words (e.g. "512x24,sleep0"); empty or "0" none.
inline bool bench_policy_picked(std::string_view words, std::string_view name) {
  if (words.empty() || words == "0") return false;
  if (words == "1") return true;
  for (const std::string_view word : bench_words(words, ','))
    if (!word.empty() && name.find(word) != std::string_view::npos) return true;
  return false;
}

// Throws GpuError (gpu/executor.hpp) without a usable device or on any CUDA failure, and what
// check_bench_options throws. `progress` gets one line per measurement.
BenchResult run_bench(const BenchOptions& options, const std::function<void(const std::string&)>& progress);

}  // namespace sv
