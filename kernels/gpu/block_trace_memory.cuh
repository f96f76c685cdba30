// The device memory a traced block kernel writes into, and the host code that turns it into a
// Trace: the same for every algorithm and operator, so declared here and compiled once (executor.cu).
#pragma once

#include <cstdint>

#include "gpu/cuda_util.cuh"
#include "gpu/trace_state.hpp"
#include "trace/trace.hpp"

namespace sv::gpu {

// Where a traced block kernel writes (its events, each step's snapshot of every buffer, and the
// state).
struct TracedBlockMemory {
  TracedBlockMemory(std::int64_t n, std::int64_t shared_cells, std::uint64_t capacity);
  std::int64_t cells;  // of one snapshot: input, output and the shared buffers
  cuda::DeviceArray<Event> events;
  cuda::DeviceArray<Payload> snapshots;
  cuda::DeviceArray<TraceState> state;
};
// Reads the state, events, steps and snapshots into `trace`; throws GpuError for a kernel fault or
// a trace buffer too small (naming the capacity needed).
void collect_block_trace(const TracedBlockMemory& m, Trace& trace);

}  // namespace sv::gpu
