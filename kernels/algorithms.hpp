// The algorithms as the algorithm table (algorithms.def) describes them: names, what `scanviz algos`
// prints, their look in charts, block shapes, the closed forms of steps and work that the metrics
// must match, and the traits that code asks a row for instead of comparing its name. The table sits
// on core/ alone, below the kernels, the trace and the executors, so each of them may read it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sv {

// How a chart draws an algorithm's series: its colour and marker, a column of the algorithm table.
enum class Marker : std::uint8_t {
  Circle, Ring, Square, Triangle, Diamond, TriangleDown, Cross, Plus, Star, TriangleLeft, TriangleRight
};
struct AlgorithmLook {
  std::uint32_t colour = 0x868E96FF;  // 0xRRGGBBAA
  Marker marker = Marker::Circle;
};

// Closed forms for n a power of two >= 2 (what the metrics must equal on race-free schedules).
struct ClosedForm {
  std::int64_t steps;
  std::int64_t operations;
};
// What a row's formulas are evaluated at: n = 2^k, and for warp-level kernels w and m = n / w.
struct ClosedFormArgs {
  std::int64_t n, k, w, m;
  bool exclusive;
};

// A member of a family of kernels that differ only in shared buffers and barriers a step (the
// lesson panel's switches between them, and its side by side); family empty for none.
struct AlgorithmTwin {
  std::string_view family;
  int buffers = 0;
  int barriers = 0;  // a step
};

struct AlgorithmInfo {
  std::string_view name;
  std::string_view summary;
  int items_per_thread;      // elements each thread loads
  bool power_of_two;         // capacity padded to a power of two with the identity
  bool racy;                 // has a data race by design
  std::string_view steps;    // closed form of the depth, n = capacity = 2^k
  std::string_view work;     // closed form of the operator applications
  bool warp_level;           // a warp-level hybrid (Merrill and Garland, Fig. 2): takes a warp width
  bool cuda_form_exclusive;  // the CUDA form (block/cuda/NAME.cu) computes an exclusive scan as written
  AlgorithmTwin twin;
  AlgorithmLook look;
  ClosedForm (*formulas)(const ClosedFormArgs&);  // the closed forms; closed_form() checks n and w first
};

// The table's block-level rows, in its order.
std::span<const AlgorithmInfo> block_algorithms();
const AlgorithmInfo* find_algorithm(std::string_view name);
// The member of `family` with that many buffers and barriers a step, else its race-free member with
// that many buffers; nullptr when it has neither.
const AlgorithmInfo* find_twin(std::string_view family, int buffers, int barriers);

// A device-wide row: its traits are the table's `traits` words (algorithms.def says what each means).
struct DeviceAlgorithmInfo {
  std::string_view name;
  std::string_view summary;
  AlgorithmLook look;
  std::string_view switches;  // the --option keys it takes besides the emulator machine's, space-separated
  bool single_pass;           // SinglePass
  bool block_tiles;           // BlockTiles
  bool lookback_view;         // LookbackView
  bool segmented;             // Segmented
  bool gpu_tile_policies;     // GpuTilePolicies
};
std::span<const DeviceAlgorithmInfo> device_algorithms();
const DeviceAlgorithmInfo* find_device_algorithm(std::string_view name);
// Whether `algo` takes the switch `key` (window: the look-back inspects a window of predecessors).
bool takes_switch(const DeviceAlgorithmInfo& algo, std::string_view key);
// The rows the look-back view records, the single-pass ones first (the view is about their look-back).
std::span<const DeviceAlgorithmInfo* const> lookback_algorithms();

// The algorithm the window's lesson and the hierarchical scan's tiles start with: a name, so a row
// added to the table before it changes nothing.
inline constexpr std::string_view kDefaultBlockAlgorithm = "kogge-stone-double-buffer";
// The position of `name` in block_algorithms(); throws std::invalid_argument for an unknown name.
std::size_t block_algorithm_index(std::string_view name);

struct BlockShape {
  std::int32_t threads = 0;
  std::int32_t capacity = 0;
};

inline constexpr std::int32_t kMaxBlockThreads = 1024;
inline constexpr std::int32_t kMaxWarpWidth = 32;  // a shuffle reaches within one hardware warp

// The warp width a warp-level algorithm runs with in a block of `capacity` elements: `requested`, or
// 0 for 32 (the block, when it is smaller). Throws std::invalid_argument with a one-line reason when
// the width is not a power of two from 2 to 32, or exceeds the block. For the other algorithms the
// width is only how many threads the emulator advances in lockstep: `requested` from 1 (every thread
// on its own, as the slides draw a kernel, and as independent thread scheduling allows) to 32, or 0
// for 32 (a GPU's warp).
std::int32_t warp_width_for(const AlgorithmInfo& algo, std::int32_t capacity, std::int32_t requested);

// The block for scanning n elements: `requested_threads` (0 = the smallest block that holds n).
// Throws std::invalid_argument with a one-line reason (n too large, block not allowed...).
BlockShape block_shape(const AlgorithmInfo& algo, std::int64_t n, std::int32_t requested_threads);

// The closed forms of `algorithm` at n, or nothing where n is not a power of two >= 2 (or the warp
// width does not fit). warp: the warp-level algorithms' warp width (0: their default for n, as warp_width_for).
std::optional<ClosedForm> closed_form(std::string_view algorithm, std::int64_t n, bool exclusive, std::int32_t warp = 0);

}  // namespace sv
