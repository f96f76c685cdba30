// The trace: everything a scan run did, the contract between producers (emulator, GPU executor) and
// consumers (analyses, CLI, GUI). Saved as versioned JSON by trace_json.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "trace/event.hpp"
#include "trace/phase.hpp"
#include "trace/tile_event.hpp"

namespace sv {

enum class Space : std::uint8_t { Global, Shared };
// Deadlock: the emulator found every resident block waiting on a tile that can never publish.
enum class Outcome : std::uint8_t { Correct, Wrong, Deadlock };
inline constexpr int kOutcomeCount = 3;

std::string_view event_kind_name(EventKind k);
std::string_view space_name(Space s);
std::string_view outcome_name(Outcome o);
std::string_view tile_event_kind_name(TileEventKind k);
std::string_view tile_flag_name(TileFlag f);  // "X", "A", "P"

// A kernel of your own (scanviz trace --kernel) is traced as meta.algorithm "kernel:" and its
// __global__ function's name, a C identifier.
std::string own_kernel_algorithm(std::string_view kernel_name);
bool is_own_kernel_algorithm(std::string_view algorithm);

struct BufferInfo {
  std::string name;
  Space space = Space::Shared;
  std::int64_t length = 0;
};

// One round of the algorithm, [first_event, end_event) in Trace::events. A step starts right after a
// barrier and ends at the barrier before the next step, so its snapshot is well defined.
struct Step {
  Phase phase = Phase::Load;
  std::int64_t param = -1;  // stride or span; -1 when the phase has none
  std::uint32_t line = 0;   // source line of the step's start
  std::uint64_t first_event = 0;
  std::uint64_t end_event = 0;

  std::string label() const { return phase_label(phase, param); }
};

// A buffer's contents at the end of a step; defined[i] == 0 where nothing was written yet.
struct BufferSnapshot {
  std::vector<Payload> values;
  std::vector<std::uint8_t> defined;
};

struct Executor {
  std::string kind = "emulator";  // "emulator" or "gpu"
  std::string device;             // GPU name; empty for the emulator
  std::string schedule;           // emulator warp schedule name (e.g. "random")
  std::uint64_t seed = 0;         // schedule seed
  std::string compute_capability;  // GPU only: "9.0"
  std::int32_t sm_count = 0;       // GPU only
  std::string driver_version;      // GPU only: CUDA driver version, "13.0"
};

// A scan used by one of the applications the slides list (kind "compact" or "allocate"; empty: a scan
// for its own sake). Stream compaction: `values` are the elements, meta.input their predicate (0 or 1);
// allocation: meta.input holds the requests. Both scan exclusively with sum; the scattered output is
// derived from the trace's scan (analysis/application.hpp).
struct Application {
  std::string kind;
  std::string predicate;        // compact: the predicate's text, e.g. "x > 0"
  std::vector<Payload> values;  // compact: the elements tested, of meta.type
};

struct TraceMeta {
  std::string algorithm;
  std::map<std::string, std::string> options;  // variant switches
  std::int64_t n = 0;                           // elements scanned
  std::int32_t block = 0;                       // threads per block
  std::int32_t items_per_thread = 1;
  std::int64_t capacity = 0;                    // elements a block holds (n padded as the algorithm needs)
  std::int32_t grid = 1;                        // blocks
  OpKind op = OpKind::Sum;
  ValueType type = ValueType::I32;
  bool exclusive = false;
  std::uint64_t input_seed = 0;                 // seed of the random input, 0 when given by hand
  Executor executor;
  std::vector<Payload> input;
  std::vector<std::uint8_t> flags;  // segmented scan: 1 where a segment starts (empty: not segmented)
  Application application;

  // The width of the warps the block ran in: options["warp"] (the warp-level algorithms' warp width,
  // or the threads the emulator ran in lockstep when --warp narrowed them), else 32.
  std::int32_t warp_width() const;
};

// A kernel of your own launched on several blocks whose output is each block's section scanned on its
// own (the first pass of a hierarchical scan) says so with options["scan"] = "blocks" (kBlockSections).
inline constexpr std::string_view kBlockSections = "blocks";
// The segment heads the output is judged with: meta.flags, or for such a kernel a head at the first
// element of each block's section (meta.capacity elements a block).
std::vector<std::uint8_t> judged_heads(const TraceMeta& m);
// A kernel of your own launched on several blocks ran them one after another on the emulator, each
// step one block's; a GPU runs them at once, so its depth is the deepest block's, not their sum.
bool blocks_one_after_another(const TraceMeta& m);

struct TraceResult {
  std::vector<Payload> output;
  std::vector<Payload> reference;
  Outcome outcome = Outcome::Correct;
  std::vector<std::int64_t> waiting;  // deadlock: the tiles that were waiting when it was found
};

struct Trace {
  static constexpr std::string_view kFormat = "scanviz-trace";
  // Versions 1 and 2 are read; 2 (events with an `atomic` field) is written only when an event is atomic.
  static constexpr int kVersion = 3;        // fence events
  static constexpr int kAtomicVersion = 2;  // events carry `atomic`
  static constexpr int kFirstVersion = 1;

  TraceMeta meta;
  std::vector<BufferInfo> buffers;
  std::vector<Step> steps;
  std::vector<Event> events;
  std::vector<std::vector<BufferSnapshot>> snapshots;  // [step][buffer]
  std::vector<TileEvent> tile_events;                  // device-wide scans: the tile-level trace
  TraceResult result;

  int find_buffer(std::string_view name) const {
    for (std::size_t i = 0; i < buffers.size(); ++i)
      if (buffers[i].name == name) return static_cast<int>(i);
    return -1;
  }
};

}  // namespace sv
