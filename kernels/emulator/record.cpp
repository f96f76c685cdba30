// Records a scan on the CPU emulator into a Trace.
#include "emulator/record.hpp"

#include "core/segmented.hpp"
#include "device/all.hpp"
#include "device/device_options.hpp"
#include "emulator/block_emulator.hpp"
#include "emulator/device_emulator.hpp"
#include "emulator/emulated_block.hpp"

namespace sv {

Trace record_device_scan(const BlockRunConfig& config) {
  Trace trace;
  const DeviceConfig c = prepare_device_trace(config, trace, false);
  TraceMeta& m = trace.meta;
  m.executor.kind = "emulator";
  m.executor.schedule = c.machine.launch.kind_name();
  m.executor.seed = c.machine.launch.seed;
  DeviceEmulator emu(trace, c.machine, kernel_input(m), config.n);
  std::vector<std::int64_t> waiting;
  bool deadlock = false;
  try {
    visit_op_maybe_segmented(config.op, config.type, !m.flags.empty(), [&](auto op) {
      drive_device_scan(emu, config.algorithm, c.block_algorithm, op, c.params, emu.input(), emu.output());
    });
  } catch (DeadlockDetected& d) {
    deadlock = true;
    waiting = std::move(d.waiting);
  }
  finish_block_trace(trace, emu.buffer_values(1));
  if (deadlock) {
    trace.result.outcome = Outcome::Deadlock;
    trace.result.waiting = std::move(waiting);
  }
  return trace;
}


Trace record_scan(const BlockRunConfig& config) {
  return is_device_algorithm(config.algorithm) ? record_device_scan(config) : record_block_scan(config);
}


Trace record_block_scan(const BlockRunConfig& config) {
  Trace trace;
  const BlockShape shape = prepare_block_trace(config, trace);
  TraceMeta& m = trace.meta;
  m.executor.kind = "emulator";
  m.executor.schedule = config.schedule.kind_name();
  m.executor.seed = config.schedule.seed;

  const BlockParams params = block_params_of(m);
  trace.events.reserve(expected_events(m));
  BlockEmulator emu(trace, config.schedule, shape.threads, 0, kernel_input(m), config.n, true, params.warp);
  emulate_block(config.algorithm, emu, config.op, config.type, !m.flags.empty(), params);
  finish_block_trace(trace, emu.buffer_values(1));
  return trace;
}


}  // namespace sv
