// The float chart's runs, recorded on the emulator (float_error_runs.hpp).
#include "float_error_runs.hpp"

#include <algorithm>
#include <stdexcept>

#include "algorithms.hpp"
#include "core/float_inputs.hpp"
#include "core/values.hpp"
#include "emulator/record.hpp"
#include "run/request.hpp"

namespace sv {

std::vector<std::int64_t> default_float_error_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 8; n <= 4096; n *= 2) sizes.push_back(n);
  return sizes;
}

std::vector<FloatErrorPoint> measure_float_errors(ValueType type, const std::string& input, std::uint64_t seed,
                                                  const std::vector<std::int64_t>& sizes, const std::vector<std::string>& only) {
  std::vector<FloatErrorPoint> points;
  for (std::int64_t n : sizes) {
    RunRequest r;  // the input as `--input NAME --seed S` makes it
    r.n = n;
    r.type = type;
    r.input = input;
    r.seed = seed;
    for (const AlgorithmInfo& a : block_algorithms()) {
      if (a.racy || (!only.empty() && std::find(only.begin(), only.end(), a.name) == only.end())) continue;
      if (n > static_cast<std::int64_t>(kMaxBlockThreads) * a.items_per_thread) continue;
      r.algorithm = std::string(a.name);
      points.push_back(float_error_point(float_errors(record_block_scan(run_config(r))), r.algorithm, false));
    }
    // The loop needs no block: the same values, drawn as run_config draws them for a block.
    const auto values = float_input(input, type, static_cast<std::size_t>(n), seed);
    if (!values) throw std::invalid_argument("'" + input + "' is not a float input (" + std::string(float_input_names_text()) + ")");
    points.push_back(float_error_point(sequential_float_errors(type, *values), "", true));
  }
  return points;
}

}  // namespace sv
