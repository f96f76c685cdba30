// The trace's fixed-size event record, shared by the host and by the GPU's traced kernels (which
// write these records straight into device memory).
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/payload.hpp"

namespace sv {

enum class EventKind : std::uint8_t { Read, Write, Op, Barrier, Fence };
inline constexpr int kEventKindCount = 5;

// Where a value came from: nothing (an identity or constant), a memory cell, or an operator
// application (the seq of its Op event). Dataflow edges are derived from these.
struct Origin {
  enum Kind : std::uint8_t { None, Cell, OpResult };
  Kind kind = None;
  std::uint8_t buffer = 0;
  std::int64_t index = 0;  // cell index, or the Op event's seq

  SV_HD static constexpr Origin none() { return {}; }
  SV_HD static constexpr Origin cell(std::uint8_t buffer, std::int64_t index) { return {Cell, buffer, index}; }
  SV_HD static constexpr Origin op(std::int64_t seq) { return {OpResult, 0, seq}; }
  friend bool operator==(const Origin&, const Origin&) = default;
};

inline constexpr std::uint8_t kNoBuffer = 0xff;

// One fixed-size record. Read/Write: buffer, index, value (the value read or written), a = origin of
// the written value. Op: value = result, a and b = origins of the left and right operands.
// Barrier: one event per thread arriving, line = the barrier's line. Fence: a thread's __threadfence()
// (its writes before it are seen by other blocks before its writes after it; analysis/block_races). An atomic read-modify-write
// (atomicAdd) is one Write event with `atomic` set: value = the cell's new value; it read the old
// value in the same indivisible access, so two atomics to one cell are no race (analysis/hazards).
struct Event {
  std::uint64_t seq = 0;   // position in Trace::events
  std::uint64_t time = 0;  // ns (GPU %globaltimer) or emulator clock ticks
  EventKind kind = EventKind::Read;
  std::uint8_t buffer = kNoBuffer;
  std::uint16_t sm = 0;
  std::uint32_t block = 0;
  std::uint32_t thread = 0;
  std::uint32_t line = 0;
  std::int64_t index = -1;
  Origin a, b;
  Payload value;
  bool atomic = false;  // Write only: an atomic read-modify-write (appended last: the GPU fills the rest)

  // The hardware warp (32 lanes); TraceMeta::warp_width() is the width the block ran with.
  SV_HD std::uint32_t warp() const { return thread / 32; }
};

}  // namespace sv
