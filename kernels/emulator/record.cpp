// Records a block-level scan on the CPU emulator into a Trace.
#include "emulator/record.hpp"

#include <stdexcept>

#include "algorithms.hpp"
#include "block/all.hpp"
#include "core/values.hpp"
#include "emulator/block_emulator.hpp"

namespace sv {

BlockShape prepare_block_trace(const BlockRunConfig& config, Trace& trace) {
  const AlgorithmInfo* info = find_algorithm(config.algorithm);
  if (!info) throw std::invalid_argument("unknown algorithm '" + config.algorithm + "' (scanviz algos lists them)");
  check_op_type(config.op, config.type);
  const BlockShape shape = block_shape(*info, config.n, config.block);
  if (!config.input.empty() && static_cast<std::int64_t>(config.input.size()) != config.n)
    throw std::invalid_argument("the input has " + std::to_string(config.input.size()) + " values but n = " +
                                std::to_string(config.n));
  TraceMeta& m = trace.meta;
  m.algorithm = config.algorithm;
  m.n = config.n;
  m.block = shape.threads;
  m.items_per_thread = info->items_per_thread;
  m.capacity = shape.capacity;
  m.op = config.op;
  m.type = config.type;
  m.exclusive = config.exclusive;
  m.input_seed = config.input.empty() ? config.input_seed : 0;
  m.input = config.input.empty() ? random_input(config.op, config.type, config.n, config.input_seed) : config.input;
  return shape;
}

void finish_block_trace(Trace& trace, std::vector<Payload> output) {
  const TraceMeta& m = trace.meta;
  trace.result.output = std::move(output);
  trace.result.reference = reference_scan(m.op, m.type, m.input, m.exclusive);
  trace.result.outcome =
      mismatches(m.op, m.type, m.input, m.exclusive, trace.result.reference, trace.result.output).empty()
          ? Outcome::Correct
          : Outcome::Wrong;
}

Trace record_block_scan(const BlockRunConfig& config) {
  Trace trace;
  const BlockShape shape = prepare_block_trace(config, trace);
  TraceMeta& m = trace.meta;
  m.executor.kind = "emulator";
  m.executor.schedule = config.schedule.kind_name();
  m.executor.seed = config.schedule.seed;

  const BlockParams params{config.n, shape.capacity, config.exclusive};
  BlockEmulator emu(trace, config.schedule, shape.threads, 0, m.input, config.n);
  with_block_algorithm(config.algorithm, [&](auto algo) {
    using Algo = decltype(algo);
    visit_op(config.op, config.type, [&](auto op) { emu.run([&](EmuExec& x) { Algo::run(x, op, params); }); });
  });
  finish_block_trace(trace, emu.buffer_values(1));
  return trace;
}

}  // namespace sv
