// Analyses of a Trace, all pure functions of it: metrics (depth, work, activity, accesses), shared
// memory hazards as compute-sanitizer racecheck reports them, dataflow edges (the diagram's arrows)
// and correctness against the sequential reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv {

// ---- metrics ----

struct StepMetrics {
  std::int64_t operations = 0;      // operator applications in the step
  std::int64_t active_threads = 0;  // threads applying the operator (writers, in steps without any)
  std::int64_t reads = 0;
  std::int64_t writes = 0;
};

struct BufferAccesses {
  std::int64_t reads = 0;
  std::int64_t writes = 0;
};

struct Metrics {
  std::int64_t steps = 0;       // depth: steps that apply the operator at least once (the deepest
                                // block's, where blocks ran one after another: blocks_one_after_another;
                                // a host run's launches one after another, their depths added)
  std::int64_t operations = 0;  // work: operator applications
  std::int64_t barriers = 0;    // block-wide barriers (most any one thread of a block passed)
  std::vector<StepMetrics> per_step;      // one per trace step
  std::vector<BufferAccesses> per_buffer;  // one per trace buffer
};

Metrics compute_metrics(const Trace& trace);

// The scan's depth in rounds, whatever its barriers: in each step the longest chain of operator
// applications that depend on one another within that step (through registers, shuffles or memory),
// summed over the steps. Where every step applies the operator at most once along any path (the
// built-in kernels, whose warp-synchronous levels are steps of their own) it is Metrics::steps; a
// kernel of the user's own whose warp-level levels have no barrier gets them counted inside its step.
// Where blocks ran one after another, the deepest block's sum.
std::int64_t operation_depth(const Trace& trace);

// Threads that applied the operator in step k (sorted); the writers when none did.
std::vector<std::uint32_t> active_threads(const Trace& trace, std::size_t step);

// Sorted thread ids as ranges: {1,2,3,7} -> "1-3,7" (with separator "," and dash "-"); "none" if empty.
std::string thread_ranges(const std::vector<std::uint32_t>& ids, std::string_view separator = ",",
                          std::string_view dash = "-");

// The step whose [first_event, end_event) holds event `seq`, or -1.
int step_of_event(const Trace& trace, std::uint64_t seq);

// The block step `step` is one of, where the blocks ran one after another (blocks_one_after_another);
// none for other traces and for a step without events.
std::optional<std::uint32_t> step_block(const Trace& trace, std::size_t step);

// ---- hazards ----

enum class HazardKind : std::uint8_t { RAW, WAR, WAW };
std::string_view hazard_kind_name(HazardKind k);

struct HazardAccess {
  std::uint64_t seq = 0;  // the Read or Write event
  std::uint32_t block = 0;
  std::uint32_t thread = 0;
  std::uint32_t line = 0;
  bool write = false;
  Payload value;  // value read or written
};

// Two different threads of one block touched the same shared cell inside one barrier interval, at
// least one writing, not both atomically (two atomicAdds to one cell are no race). `first` happened
// before `second` in the trace.
struct Hazard {
  HazardKind kind = HazardKind::RAW;
  std::uint32_t block = 0;
  int buffer = 0;
  std::int64_t index = 0;
  int step = -1;
  bool same_warp = false;
  bool between_blocks = false;  // the accesses' blocks differ (analysis/block_races.hpp)
  HazardAccess first, second;
  // RAW: the value the reader should have seen, the cell's value when the barrier interval began.
  bool has_expected = false;
  Payload expected;
};

// `global`: global memory's cells too (a kernel of the user's own, whose global races compute-sanitizer's
// racecheck cannot see); the built-in lessons show shared memory's.
std::vector<Hazard> find_hazards(const Trace& trace, bool global = false);

// One line, as the CLI and the GUI's tooltip say it: "RAW buffer_s[31]: thread 31 wrote x30..x31
// (line 34), then thread 32 read it (line 34) instead of x31". The lines are the emulator form's
// (kernels/block/ALGO.hpp); without `lines` they are left out, as where the CUDA form is shown.
std::string describe_hazard(const Trace& trace, const Hazard& h, bool lines = true);

// ---- dataflow ----

enum class EdgeRole : std::uint8_t { Left, Right, Copy };
std::string_view edge_role_name(EdgeRole r);

// A value moved from one cell into another: as the left or right operand of an operator
// application, or copied unchanged.
struct Edge {
  int step = -1;
  std::uint32_t thread = 0;
  EdgeRole role = EdgeRole::Copy;
  int from_buffer = 0;
  std::int64_t from_index = 0;
  int to_buffer = 0;
  std::int64_t to_index = 0;
  std::uint64_t write_seq = 0;
};

std::vector<Edge> dataflow_edges(const Trace& trace);

// ---- correctness ----

struct Correctness {
  Outcome outcome = Outcome::Correct;
  std::vector<std::int64_t> wrong;  // indices where the output differs from the reference
  std::vector<Payload> reference;   // recomputed from meta.input
};

// Recomputes the reference from the trace's input; does not trust result.reference. A trace whose
// run deadlocked stays Deadlock (its output is what was stored before).
Correctness check_result(const Trace& trace);

}  // namespace sv
