// `scanviz repeat`: the command line around repeated runs of a device-wide scan (repeat.hpp).
#include "cli/repeat.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/bit_difference.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "emulator/record.hpp"
#include "entry/record.hpp"
#include "gpu/executor.hpp"
#include "run/prepare.hpp"
#include "run/request.hpp"

namespace sv::cli {

namespace {

// Each later run against run 0, as either executor reports it.
struct Compared {
  std::vector<BitDifference> runs;  // runs 1, 2, ...
};

// The emulator: run r under jitter=base+r (base 1, or the seed given), the request's machine otherwise.
// Without sms and resident given, 16 multiprocessors of 4 blocks: the default's 8 blocks at once
// keep up with one another, each finding its predecessor's P, and so add in one order every run;
// with 64 at once, as on a GPU, the look-backs after the first wave stop at varying tiles.
Compared on_emulator(BlockRunConfig config, int runs, std::uint64_t base) {
  Compared c;
  std::vector<Payload> first;
  for (int r = 0; r < runs; ++r) {
    config.options["jitter"] = std::to_string(base + static_cast<std::uint64_t>(r));
    const Trace t = record_device_scan(config);
    if (t.result.outcome == Outcome::Deadlock)
      throw std::invalid_argument("run " + std::to_string(r) + " deadlocked on the emulator (scanviz stats of its trace says where)");
    if (r == 0) first = t.result.output;
    else c.runs.push_back(bit_difference(first, t.result.output));
  }
  return c;
}

Compared on_gpu(const BlockRunConfig& config, int runs) {
  const RepeatedRuns g = repeat_device_sum_gpu(config, runs);
  Compared c;
  for (std::size_t r = 0; r < g.differing.size(); ++r) c.runs.push_back({g.differing[r], g.first_difference[r]});
  return c;
}

std::string percent(std::int64_t part, std::int64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return text;
}

int repeat_runs(const CLI::App& app, const RepeatOptions& o) {
  if (o.runs < 2 || o.runs > 10000) throw std::invalid_argument("--runs must be from 2 to 10000, not " + std::to_string(o.runs));
  RunRequest defaults;
  defaults.algorithm = "decoupled-lookback";
  defaults.n = std::int64_t{1} << 20;
  defaults.type = ValueType::F32;
  RunRequest request = request_of(app, o.flags, defaults);
  if (!is_device_algorithm(request.algorithm))
    throw std::invalid_argument("repeat: '" + request.algorithm + "' is a block-level algorithm; repeat runs a device-wide one "
                                "(its tiles' order of arrival is what changes from run to run)");
  const bool floating = request.type == ValueType::F32 || request.type == ValueType::F64;
  if (request.input.empty() && floating && request.op.value_or(OpKind::Sum) == OpKind::Sum) request.input = "uniform";
  BlockRunConfig config = run_config(request);
  if (config.input.empty()) config.input = random_input(config.op, config.type, static_cast<std::size_t>(config.n), config.input_seed);
  std::string why;
  const bool gpu = runs_on_gpu(request, why);
  std::uint64_t jitter = 1;
  if (!gpu && config.options.count("jitter")) jitter = std::stoull(config.options.at("jitter"));
  if (!gpu && !config.options.count("sms") && !config.options.count("resident")) {
    config.options["sms"] = "16";
    config.options["resident"] = "4";
  }
  const DeviceConfig parsed = parse_device_config(config.algorithm, config.options, config.type, config.block, gpu);
  const DeviceParams& tile = parsed.params;
  const std::int64_t tiles = (config.n + tile.tile_items() - 1) / tile.tile_items();

  std::cout << config.algorithm << ", n = " << config.n << ", " << op_name(config.op) << " (" << type_name(config.type)
            << "), input " << (request.input.empty() ? "random" : request.input) << " (seed " << request.seed << ")";
  for (const auto& [key, value] : request.options) std::cout << ", " << key << "=" << value;
  std::cout << "; " << tile.tile_items() << " elements a tile, " << tiles << " tiles; " << o.runs << " runs on "
            << (gpu ? "the GPU, untraced"
                    : "the emulator (" + std::to_string(parsed.machine.sms) + " multiprocessors of " +
                          std::to_string(parsed.machine.resident) + " blocks), run r under jitter=" + std::to_string(jitter) + "+r")
            << (why.empty() ? "" : " (" + why + ")") << "\n";
  const Compared c = gpu ? on_gpu(config, o.runs) : on_emulator(config, o.runs, jitter);

  int differing_runs = 0;
  std::int64_t most = 0, first_tile = -1;
  for (std::size_t r = 0; r < c.runs.size(); ++r) {
    const BitDifference& d = c.runs[r];
    std::cout << "run " << r + 1 << ": ";
    if (d.outputs == 0) {
      std::cout << "the same bits as run 0\n";
      continue;
    }
    ++differing_runs;
    most = std::max(most, d.outputs);
    const std::int64_t t = d.first / tile.tile_items();
    if (first_tile < 0 || t < first_tile) first_tile = t;
    std::cout << d.outputs << " of " << config.n << " outputs differ from run 0 in their bits (" << percent(d.outputs, config.n)
              << "), the first output " << d.first << ", in tile " << t << "\n";
  }
  std::cout << differing_runs << " of " << c.runs.size() << " runs differ from run 0";
  if (differing_runs)
    std::cout << ", in at most " << most << " outputs (" << percent(most, config.n) << "); the earliest tile where a run "
              << "first differs: " << first_tile;
  std::cout << "\n";
  return 0;
}

}  // namespace

Command add_repeat(CLI::App& app) {
  auto o = std::make_shared<RepeatOptions>();
  auto* command = app.add_subcommand("repeat", "run a device-wide scan several times on one input and count the outputs whose "
                                               "bits differ from the first run's (a float scan by decoupled look-back)");
  add_run_flags(*command, o->flags, {
      {"algo", "a device-wide algorithm (default decoupled-lookback)"},
      {"n", "number of elements (default 2^20)"},
      {"op", "operator (default sum; the GPU runs the sum)"},
      {"type", "value type (default float)"},
      {"exclusive", "exclusive scan (default inclusive)"},
      {"input", "the input: uniform (the default for float and double), scaled, mixed, cancel, random:SEED or values"},
      {"block", "threads per tile (default 256)"},
      {"executor", "auto (the GPU when usable), gpu or emulator (run r under jitter=r+1)"},
      {"seed", "seed of the input"},
      {"option", "a switch key=value, repeatable: deterministic=on, window=W, ... (scanviz algos lists them)"},
  });
  command->add_option("--runs", o->runs, "runs, all compared with the first (default 10)");
  return {command, [o, command] { return repeat_runs(*command, *o); }};
}

}  // namespace sv::cli
