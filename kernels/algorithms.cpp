// The algorithm table's rows (algorithms.def): the block-level ones' shapes and closed forms, the
// device-wide ones' traits.
#include "algorithms.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

namespace sv {

namespace {

std::int64_t log2_exact(std::int64_t n) { return std::countr_zero(static_cast<std::uint64_t>(n)); }

// Kogge-Stone over c lanes: c*log2(c) - (c - 1) operator applications.
std::int64_t kogge_stone_work(std::int64_t c) { return c * log2_exact(c) - (c - 1); }

// warp-brent-kung, level by level (see kernels/block/warp_brent_kung.hpp).
ClosedForm warp_brent_kung_form(std::int64_t n, std::int64_t w) {
  ClosedForm f{0, 0};
  std::int64_t levels = 0;
  for (std::int64_t cells = n; cells > 1; cells /= w) {
    const std::int64_t count = std::min(cells, w);
    f.steps += log2_exact(count);
    f.operations += cells / count * kogge_stone_work(count);
    if (cells > w) f.operations += cells - w;  // this level's fan
    ++levels;
    if (cells <= w) break;
  }
  f.steps += levels - 1;  // one fan a level below the root
  return f;
}

// The twin column's two forms.
constexpr AlgorithmTwin NoTwin{};
constexpr AlgorithmTwin Twin(std::string_view family, int buffers, int barriers) { return {family, buffers, barriers}; }

// The table's columns as AlgorithmInfo's fields; each row's formulas become a function of n, k, w, m
// and exclusive.
#define SCANVIZ_BLOCK_ALGORITHM(name_, Type, kind_, hazards_, items_, capacity_, colour_, marker_, cuda_form_,    \
                                twin_, steps_, steps_formula, work_, work_formula, summary_)                      \
  AlgorithmInfo{.name = name_,                                                                                    \
                .summary = summary_,                                                                              \
                .items_per_thread = items_,                                                                       \
                .power_of_two = std::string_view(#capacity_) == "PowerOfTwo",                                     \
                .racy = std::string_view(#hazards_) == "Racy",                                                    \
                .steps = steps_,                                                                                  \
                .work = work_,                                                                                    \
                .warp_level = std::string_view(#kind_) == "WarpLevel",                                            \
                .cuda_form_exclusive = std::string_view(#cuda_form_) == "Exclusive",                              \
                .twin = twin_,                                                                                    \
                .look = {colour_, Marker::marker_},                                                               \
                .formulas = [](const ClosedFormArgs& a) {                                                         \
                  [[maybe_unused]] const auto [n, k, w, m, exclusive] = a;                                        \
                  return ClosedForm{steps_formula, work_formula};                                                 \
                }},
#define SCANVIZ_DEVICE_ALGORITHM(...)
constexpr AlgorithmInfo kBlockAlgorithms[] = {
#include "algorithms.def"
};
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

// A column's word outside its choices would silently read as the other choice: refuse it here.
#define SCANVIZ_BLOCK_ALGORITHM(name_, Type, kind_, hazards_, items_, capacity_, colour_, marker_, cuda_form_, ...) \
  static_assert(std::string_view(#kind_) == "Block" || std::string_view(#kind_) == "WarpLevel", name_);             \
  static_assert(std::string_view(#hazards_) == "RaceFree" || std::string_view(#hazards_) == "Racy", name_);         \
  static_assert(std::string_view(#capacity_) == "AnyN" || std::string_view(#capacity_) == "PowerOfTwo", name_);     \
  static_assert(std::string_view(#cuda_form_) == "Inclusive" || std::string_view(#cuda_form_) == "Exclusive", name_); \
  static_assert(items_ == 1 || items_ == 2, name_);
#define SCANVIZ_DEVICE_ALGORITHM(...)
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

constexpr bool names_unique_and_default_present() {
  bool found_default = false;
  for (const AlgorithmInfo& a : kBlockAlgorithms) {
    found_default |= a.name == kDefaultBlockAlgorithm;
    for (const AlgorithmInfo& b : kBlockAlgorithms)
      if (&a != &b && a.name == b.name) return false;
  }
  return found_default;
}
static_assert(names_unique_and_default_present(), "algorithms.def: a name twice, or no row for kDefaultBlockAlgorithm");

// A device-wide row's traits column: words separated by spaces.
constexpr bool has_word(std::string_view words, std::string_view word) {
  for (std::size_t pos = 0; pos < words.size();) {
    std::size_t end = words.find(' ', pos);
    if (end == std::string_view::npos) end = words.size();
    if (words.substr(pos, end - pos) == word) return true;
    pos = end + 1;
  }
  return false;
}
constexpr std::string_view kTraitWords[] = {"None", "SinglePass", "BlockTiles", "LookbackView", "Segmented", "GpuTilePolicies"};
constexpr bool known_words(std::string_view words) {
  for (std::size_t pos = 0; pos < words.size();) {
    std::size_t end = words.find(' ', pos);
    if (end == std::string_view::npos) end = words.size();
    bool known = false;
    for (std::string_view w : kTraitWords) known |= words.substr(pos, end - pos) == w;
    if (!known) return false;
    pos = end + 1;
  }
  return !words.empty();
}

#define SCANVIZ_BLOCK_ALGORITHM(...)
#define SCANVIZ_DEVICE_ALGORITHM(name_, Driver, traits_, colour_, marker_, switches_, summary_)            \
  DeviceAlgorithmInfo{.name = name_,                                                                      \
                      .summary = summary_,                                                                \
                      .look = {colour_, Marker::marker_},                                                 \
                      .switches = switches_,                                                              \
                      .single_pass = has_word(#traits_, "SinglePass"),                                    \
                      .block_tiles = has_word(#traits_, "BlockTiles"),                                    \
                      .lookback_view = has_word(#traits_, "LookbackView"),                                \
                      .segmented = has_word(#traits_, "Segmented"),                                       \
                      .gpu_tile_policies = has_word(#traits_, "GpuTilePolicies")},
constexpr DeviceAlgorithmInfo kDeviceAlgorithms[] = {
#include "algorithms.def"
};
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

// A traits word outside the list would silently read as no trait: refuse it here.
#define SCANVIZ_BLOCK_ALGORITHM(...)
#define SCANVIZ_DEVICE_ALGORITHM(name_, Driver, traits_, ...) static_assert(known_words(#traits_), name_);
#include "algorithms.def"
#undef SCANVIZ_BLOCK_ALGORITHM
#undef SCANVIZ_DEVICE_ALGORITHM

constexpr bool device_names_unique() {
  for (const DeviceAlgorithmInfo& a : kDeviceAlgorithms) {
    for (const DeviceAlgorithmInfo& b : kDeviceAlgorithms)
      if (&a != &b && a.name == b.name) return false;
    for (const AlgorithmInfo& b : kBlockAlgorithms)
      if (a.name == b.name) return false;
  }
  return true;
}
static_assert(device_names_unique(), "algorithms.def: a device-wide name twice, or also a block-level one");

}  // namespace

std::span<const AlgorithmInfo> block_algorithms() { return kBlockAlgorithms; }

const AlgorithmInfo* find_algorithm(std::string_view name) {
  for (const auto& a : kBlockAlgorithms)
    if (a.name == name) return &a;
  return nullptr;
}

const AlgorithmInfo* find_twin(std::string_view family, int buffers, int barriers) {
  const AlgorithmInfo* race_free = nullptr;
  for (const auto& a : kBlockAlgorithms) {
    if (family.empty() || a.twin.family != family || a.twin.buffers != buffers) continue;
    if (a.twin.barriers == barriers) return &a;
    if (!a.racy && !race_free) race_free = &a;
  }
  return race_free;
}

std::span<const DeviceAlgorithmInfo> device_algorithms() { return kDeviceAlgorithms; }

const DeviceAlgorithmInfo* find_device_algorithm(std::string_view name) {
  for (const auto& a : kDeviceAlgorithms)
    if (a.name == name) return &a;
  return nullptr;
}

bool takes_switch(const DeviceAlgorithmInfo& algo, std::string_view key) { return has_word(algo.switches, key); }

std::span<const DeviceAlgorithmInfo* const> lookback_algorithms() {
  static const std::vector<const DeviceAlgorithmInfo*> rows = [] {
    std::vector<const DeviceAlgorithmInfo*> v;
    for (const auto& a : kDeviceAlgorithms)
      if (a.lookback_view) v.push_back(&a);
    std::stable_partition(v.begin(), v.end(), [](const DeviceAlgorithmInfo* a) { return a->single_pass; });
    return v;
  }();
  return rows;
}

std::size_t block_algorithm_index(std::string_view name) {
  const AlgorithmInfo* info = find_algorithm(name);
  if (!info) throw std::invalid_argument("unknown block-level algorithm '" + std::string(name) + "'");
  return static_cast<std::size_t>(info - kBlockAlgorithms);
}

BlockShape block_shape(const AlgorithmInfo& algo, std::int64_t n, std::int32_t requested_threads) {
  const std::string who(algo.name);
  if (n < 1) throw std::invalid_argument("n must be at least 1 for the block algorithm " + who);
  const std::int64_t max_capacity = static_cast<std::int64_t>(kMaxBlockThreads) * algo.items_per_thread;
  if (n > max_capacity)
    throw std::invalid_argument("n = " + std::to_string(n) + " exceeds what one block of " + who + " holds (" +
                                std::to_string(max_capacity) + " elements with 1024 threads)");
  if (requested_threads < 0 || requested_threads > kMaxBlockThreads)
    throw std::invalid_argument("block size " + std::to_string(requested_threads) + " is outside 1..1024");
  BlockShape shape;
  const std::int32_t items = algo.items_per_thread;
  if (!algo.power_of_two) {
    shape.threads = requested_threads ? requested_threads : static_cast<std::int32_t>(n);
    shape.capacity = shape.threads;
  } else if (requested_threads) {
    if (!std::has_single_bit(static_cast<std::uint32_t>(requested_threads)))
      throw std::invalid_argument(who + " needs a power-of-two block size, not " + std::to_string(requested_threads));
    shape.threads = requested_threads;
    shape.capacity = items * requested_threads;
  } else {
    shape.capacity = static_cast<std::int32_t>(std::max<std::uint64_t>(2, std::bit_ceil(static_cast<std::uint64_t>(n))));
    shape.threads = shape.capacity / items;
  }
  if (shape.capacity < n)
    throw std::invalid_argument("block size " + std::to_string(shape.threads) + " holds " +
                                std::to_string(shape.capacity) + " elements with " + who + ", fewer than n = " +
                                std::to_string(n));
  return shape;
}

std::int32_t warp_width_for(const AlgorithmInfo& algo, std::int32_t capacity, std::int32_t requested) {
  const std::string who(algo.name);
  if (!algo.warp_level) {
    if (requested == 0) return kMaxWarpWidth;
    if (requested < 1 || requested > kMaxWarpWidth || !std::has_single_bit(static_cast<std::uint32_t>(requested)))
      throw std::invalid_argument("threads in lockstep " + std::to_string(requested) + " is not a power of two from 1 to 32");
    return requested;
  }
  if (requested == 0) return std::min(kMaxWarpWidth, capacity);
  if (requested < 2 || requested > kMaxWarpWidth || !std::has_single_bit(static_cast<std::uint32_t>(requested)))
    throw std::invalid_argument("warp width " + std::to_string(requested) + " is not a power of two from 2 to 32");
  if (requested > capacity)
    throw std::invalid_argument("warp width " + std::to_string(requested) + " exceeds the block of " + who + " (" +
                                std::to_string(capacity) + " threads)");
  return requested;
}

std::optional<ClosedForm> closed_form(std::string_view algorithm, std::int64_t n, bool exclusive, std::int32_t warp) {
  const AlgorithmInfo* info = find_algorithm(algorithm);
  if (!info || n < 2 || !std::has_single_bit(static_cast<std::uint64_t>(n))) return std::nullopt;
  ClosedFormArgs args{n, log2_exact(n), 0, 0, exclusive};
  if (info->warp_level) {
    args.w = warp ? warp : std::min<std::int64_t>(kMaxWarpWidth, n);
    if (args.w < 2 || args.w > n || !std::has_single_bit(static_cast<std::uint64_t>(args.w))) return std::nullopt;
    args.m = n / args.w;
  }
  return info->formulas(args);
}

}  // namespace sv
