// Runs a parsed kernel on the block emulator: every CUDA thread interprets the kernel's tree on its
// own fiber through the emulator's execution context (EmuExec), so schedules, lockstep, barriers,
// hazards and the trace are the built-in kernels'. Each barrier interval is a step (Phase::Interval).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "cuda_subset/ast.hpp"
#include "emulator/block_emulator.hpp"

namespace sv::cuda {

// What an untrusted kernel may spend: statements executed (all threads together) and trace events.
struct Budget {
  std::int64_t statements = 20'000'000;
  std::int64_t events = 4'000'000;  // about 400 MB of trace
  std::int64_t steps = 4096;        // barrier intervals (each snapshots every buffer)
  std::int64_t snapshot_cells = 16'000'000;  // steps times the cells of all buffers: about 400 MB of snapshots
};

// What a host function's calls do beyond the host thread's own memory: allocations and launches
// (host_run.cpp). A pointer is a buffer and an offset; a number its integer and floating value.
struct HostValue {
  std::int32_t buf = -1;
  std::int64_t i = 0;
  double f = 0;
};
class HostCalls {
 public:
  virtual ~HostCalls() = default;
  // A new global buffer of `host`'s (the host thread's emulator) of `cells` cells, never written
  // (cudaMalloc, malloc, new[]); its index.
  virtual int allocate(BlockEmulator& host, const std::string& name, std::int64_t cells, SrcPos at) = 0;
  // Runs launch `e` of `kernel` (EK::Launch: grid, block, shared bytes, then its arguments) to its end on
  // the global buffers of `host`, which it leaves as the launch did.
  virtual void launch(BlockEmulator& host, const std::string& kernel, const Expr& e, const std::vector<HostValue>& args) = 0;
  // Runs host function `function` (a recursive call, ApiKind::Call) with `args` to its end on `host`.
  virtual void call(BlockEmulator& host, const std::string& function, const Expr& e, const std::vector<HostValue>& args) = 0;
};

struct Binding {
  std::vector<std::int32_t> param_buffer;  // per parameter: the emulator buffer of a pointer, else -1
  std::vector<std::int64_t> param_value;   // per parameter: the value of an integer scalar
  std::vector<double> param_number;        // per parameter: the value of a floating scalar
  ValueType run_type = ValueType::F32;     // what the element type's values are (Interval: symbolic)
  std::int32_t block_id = 0;
  std::int32_t grid = 1;
  std::int32_t threads = 1;
  std::int32_t warp = 32;
  std::int64_t dynamic_cells = 0;  // the cells of the block's extern __shared__ allocation
  std::vector<std::int32_t> device_buffer;  // per shared variable: the global buffer of a __device__ one, else -1
  std::vector<std::int64_t> param_offset;   // per pointer parameter: the cell it points at (empty: 0)
  HostCalls* host = nullptr;                // a host function's (Kernel::host) allocations and launches
  std::vector<std::string>* printed = nullptr;  // printf's lines (null: nowhere), at most kMaxPrinted
};
inline constexpr std::size_t kMaxPrinted = 200;

// A read of a cell nothing had written, whose value reached nothing that makes it a bug (no output,
// address, branch): a warning of the report card. The first of each line.
struct UninitializedRead {
  std::uint32_t line = 0, column = 0;
  std::int32_t thread = 0;
  std::string cell;  // "XY[2]"
};

// Runs `k` on every thread of `emu`. Throws EmulationError (kind and line set) for a fault of the
// kernel: out-of-bounds, uninitialized-read, barrier-divergence, budget, runtime.
// `trace` is the one `emu` records into (read for the memory budget). Returns the statements run.
// `uninitialized`, when given, gets the reads of cells never written whose values reached nothing.
std::int64_t interpret(BlockEmulator& emu, const Kernel& k, const Binding& b, const Trace& trace, const Budget& budget = {},
                       std::vector<UninitializedRead>* uninitialized = nullptr);

}  // namespace sv::cuda
