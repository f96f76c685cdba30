// The set-up and judging of a run that every executor shares: checks, the trace's meta, the verdict.
#include "run/prepare.hpp"

#include <algorithm>
#include <bit>
#include <optional>
#include <stdexcept>

#include "algorithms.hpp"
#include "core/limits.hpp"
#include "core/segmented.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "device/trace_plan.hpp"

namespace sv {

namespace {

void check_input_length(const BlockRunConfig& config) {
  if (!config.input.empty() && static_cast<std::int64_t>(config.input.size()) != config.n)
    throw std::invalid_argument("the input has " + std::to_string(config.input.size()) + " values but n = " +
                                std::to_string(config.n));
}

// A segmented scan: one flag per element, inclusive, and an algorithm that has a segmented form
// (every block algorithm; of the device-wide ones, decoupled look-back over (flag, value) pairs).
void check_segmented(const BlockRunConfig& config) {
  if (config.flags.empty()) return;
  if (static_cast<std::int64_t>(config.flags.size()) != config.n)
    throw std::invalid_argument("flags: " + std::to_string(config.flags.size()) + " flags for n = " +
                                std::to_string(config.n) + ": give one flag per element");
  if (config.exclusive)
    throw std::invalid_argument("flags: segmented scans are inclusive here (exclusive off)");
  const DeviceAlgorithmInfo* device = find_device_algorithm(config.algorithm);
  if (device && !device->segmented) {
    std::string segmented;
    for (const DeviceAlgorithmInfo& a : device_algorithms())
      if (a.segmented) segmented += (segmented.empty() ? "" : " or ") + std::string(a.name);
    throw std::invalid_argument("flags: the device-wide segmented scan is " + segmented +
                                " (or use a block algorithm), not " + config.algorithm);
  }
  if (!config.application.kind.empty()) throw std::invalid_argument("flags: an application's scan is not segmented");
}

void fill_common_meta(const BlockRunConfig& config, TraceMeta& m) {
  check_segmented(config);
  m.algorithm = config.algorithm;
  m.n = config.n;
  m.op = config.op;
  m.type = config.type;
  m.exclusive = config.exclusive;
  m.input_seed = config.input.empty() ? config.input_seed : 0;
  m.input = config.input.empty() ? random_input(config.op, config.type, config.n, config.input_seed) : config.input;
  check_op_values(config.op, config.type, m.input);
  m.flags = config.flags;
  m.application = config.application;
}

// The payloads of a segmented trace are (value, flag) pairs while it runs; the trace keeps their values
// (what every view prints and the JSON stores) and the heads in meta.flags.
void strip_segment_flags(Trace& trace) {
  const ValueType type = trace.meta.type;
  auto strip = [&](Payload& p) { p = unpack_segmented(type, {p})[0]; };
  for (Event& e : trace.events) strip(e.value);
  for (auto& step : trace.snapshots)
    for (BufferSnapshot& b : step)
      for (Payload& p : b.values) strip(p);
  for (TileEvent& e : trace.tile_events) strip(e.value);
}

// Refuses, before it runs, a device-wide run whose trace would hold more than kMaxTraceCells.
void check_trace_budget(const std::string& algorithm, const DeviceConfig& c) {
  const TracePlan plan = plan_device_trace(algorithm, c.block_algorithm, c.params);
  if (plan.cells() <= kMaxTraceCells) return;
  throw std::invalid_argument("a trace of " + algorithm + " at n = " + std::to_string(c.params.n) + " would hold " +
                              std::to_string(plan.cells()) + " cells (" + std::to_string(plan.steps) + (plan.steps == 1 ? " launch x " : " launches x ") +
                              std::to_string(plan.buffer_cells) + " buffer cells, and its tiles' events), over the " +
                              std::to_string(kMaxTraceCells) + " a trace may hold: lower --n, or raise --block or items");
}

}  // namespace

bool is_device_algorithm(std::string_view name) { return find_device_algorithm(name) != nullptr; }

std::vector<Payload> kernel_input(const TraceMeta& m) {
  return m.flags.empty() ? m.input : pack_segmented(m.type, m.input, m.flags);
}

DeviceConfig prepare_device_trace(const BlockRunConfig& config, Trace& trace, bool on_gpu) {
  check_op_type(config.op, config.type);
  if (config.n < 0 || config.n > kMaxTracedDeviceN)
    throw std::invalid_argument("n = " + std::to_string(config.n) + " is outside 0.." +
                                std::to_string(kMaxTracedDeviceN) + " for a traced device-wide scan");
  check_input_length(config);
  DeviceConfig c =
      parse_device_config(config.algorithm, config.options, config.type, config.block, on_gpu, !config.flags.empty());
  c.params = level_params(c.params, config.n, config.exclusive);
  // The hierarchical scan (tiles a block algorithm's) scans its tile sums again until one tile holds
  // them: a tile of one element never gets there.
  if (find_device_algorithm(config.algorithm)->block_tiles && c.params.tile_items() < 2 && config.n > 1)
    throw std::invalid_argument("block: a tile of " + std::to_string(c.params.tile_items()) + " element never reduces n = " +
                                std::to_string(config.n) + " (" + config.algorithm + " scans the tile sums until one tile holds them): " +
                                "give block 2 or more, or items 2 or more");
  check_trace_budget(config.algorithm, c);
  TraceMeta& m = trace.meta;
  fill_common_meta(config, m);
  m.options = c.options;
  m.block = c.params.threads;
  m.items_per_thread = c.params.items;
  m.capacity = c.params.tile_items();
  m.grid = static_cast<std::int32_t>(c.params.tiles);
  return c;
}

BlockShape prepare_block_trace(const BlockRunConfig& config, Trace& trace) {
  const AlgorithmInfo* info = find_algorithm(config.algorithm);
  if (!info) throw std::invalid_argument("algo: unknown algorithm '" + config.algorithm + "'");
  check_op_type(config.op, config.type);
  const BlockShape shape = block_shape(*info, config.n, config.block);
  check_input_length(config);
  if (!config.options.empty())
    throw std::invalid_argument("option " + config.options.begin()->first + ": " + config.algorithm +
                                " has no switches (the device-wide algorithms do)");
  const std::int32_t warp = warp_width_for(*info, shape.capacity, config.warp);
  TraceMeta& m = trace.meta;
  fill_common_meta(config, m);
  m.block = shape.threads;
  m.items_per_thread = info->items_per_thread;
  m.capacity = shape.capacity;
  if (info->warp_level || config.warp != 0) m.options["warp"] = std::to_string(warp);
  return shape;
}

// Every operator application is an event and reads two values and writes one; every thread loads
// and stores its items (a read and a write each) and meets up to two barriers a step. A serial phase
// of many steps (warp-raking's) keeps few threads at work, so a thread counts at most 2 log2 n + 1.
std::size_t expected_events(const TraceMeta& m) {
  const AlgorithmInfo* info = find_algorithm(m.algorithm);
  if (!info) return 0;
  const auto capacity = static_cast<std::int64_t>(std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(m.capacity, 2))));
  const std::int64_t log2 = std::bit_width(static_cast<std::uint64_t>(capacity)) - 1;
  const std::optional<ClosedForm> form = closed_form(info->name, capacity, m.exclusive, info->warp_level ? m.warp_width() : 0);
  const std::int64_t operations = form ? form->operations : capacity * log2;
  const std::int64_t thread_steps = std::min(form ? form->steps : 2 * log2 + 1, 2 * log2 + 1);
  return static_cast<std::size_t>(4 * operations + std::int64_t{m.block} * (2 * thread_steps + 4 * m.items_per_thread + 4));
}

BlockParams block_params_of(const TraceMeta& meta) {
  return BlockParams{meta.n, static_cast<std::int32_t>(meta.capacity), meta.exclusive, meta.warp_width()};
}

void finish_block_trace(Trace& trace, std::vector<Payload> output) {
  // Buffers allocated by a later launch appear, undefined, in the earlier snapshots.
  for (auto& step : trace.snapshots)
    for (std::size_t b = step.size(); b < trace.buffers.size(); ++b) {
      const auto length = static_cast<std::size_t>(trace.buffers[b].length);
      step.push_back({std::vector<Payload>(length), std::vector<std::uint8_t>(length, 0)});
    }
  const TraceMeta& m = trace.meta;
  if (!m.flags.empty()) {
    output = unpack_segmented(m.type, output);
    strip_segment_flags(trace);
  }
  trace.result.output = std::move(output);
  trace.result.reference = reference_scan(m.op, m.type, m.input, m.exclusive, m.flags);
  trace.result.outcome =
      mismatches(m.op, m.type, m.input, m.exclusive, trace.result.reference, trace.result.output, m.flags).empty()
          ? Outcome::Correct
          : Outcome::Wrong;
}

}  // namespace sv
