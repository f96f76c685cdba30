// What a traced GPU kernel writes besides its output: the event buffer, the buffers it declared,
// its steps and the per-step snapshots. Plain structs shared by host and device code.
#pragma once

#include <cstdint>

#include "core/payload.hpp"
#include "core/phase.hpp"
#include "trace/event.hpp"

namespace sv::gpu {

inline constexpr int kMaxBuffers = 16;
// Steps of one traced block: warp-raking at 1024 elements has 2 x 1024 / W + log2 W + 2 of them
// (71 in warps of 32, 1027 in warps of 2). The snapshots take kMaxSteps x cells payloads of device
// memory (100 MB for 1024 intervals, less than 2 MB for the lessons of 16 elements).
inline constexpr int kMaxSteps = 1040;
inline constexpr int kBufferNameLength = 32;

struct BufferDecl {
  char name[kBufferNameLength];
  std::int64_t length;
  std::int64_t snapshot_offset;  // where the buffer's cells start in one snapshot
};

struct StepRecord {
  Phase phase;
  std::int64_t param;
  std::uint32_t line;
  std::uint64_t first_event;
};

enum class TraceFault : std::uint32_t { None, OutOfBounds, TooManyBuffers, TooManySteps, SnapshotTooSmall };

struct TraceState {
  // events: appended with an atomic counter; counter may run past capacity, which the host reports
  unsigned long long counter;
  unsigned long long capacity;
  Event* events;
  // declarations: 0 = input, 1 = output (filled by the host), then the kernel's shared buffers
  int buffers;
  BufferDecl decl[kMaxBuffers];
  int steps;
  StepRecord step[kMaxSteps];
  // snapshots[k * snapshot_cells + decl[b].snapshot_offset + i]
  Payload* snapshots;
  std::int64_t snapshot_cells;
  // the first fault, with where it happened
  TraceFault fault;
  std::uint32_t fault_thread, fault_line;
  std::int32_t fault_buffer;
  std::int64_t fault_index;
};

}  // namespace sv::gpu
