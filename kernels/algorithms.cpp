// The algorithm registry.
#include "algorithms.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>

namespace sv {

namespace {
constexpr std::array<AlgorithmInfo, 9> kBlockAlgorithms = {{
    {"kogge-stone-racy", "Kogge-Stone, one shared buffer, one barrier a step (PMPP's \"Incorrect!\" kernel): races",
     1, false, true, "log2 n", "n*log2(n) - (n-1)"},
    {"kogge-stone", "Kogge-Stone, one shared buffer, two barriers a step (read, barrier, write, barrier)", 1, false,
     false, "log2 n", "n*log2(n) - (n-1)"},
    {"kogge-stone-double-buffer", "Kogge-Stone reading one buffer and writing the other, one barrier a step", 1,
     false, false, "log2 n", "n*log2(n) - (n-1)"},
    {"brent-kung", "Brent-Kung: reduction tree then distribution tree, two elements per thread", 2, true, false,
     "2*log2(n) - 1", "2n - log2(n) - 2"},
    {"blelloch", "Blelloch: up-sweep, clear root, down-sweep; exclusive by nature, two elements per thread", 2, true,
     false, "2*log2(n) (+1 inclusive)", "2(n-1) (+1 inclusive)"},
    {"sklansky", "Sklansky: divide and conquer, each upper half adds its lower half's last element", 2, true, false,
     "log2 n", "(n/2)*log2(n)"},
    {"warp-brent-kung",
     "Merrill-Garland Fig. 2a: radix-W Brent-Kung, Kogge-Stone warp scans (shuffles), a warp scans the warps' totals, "
     "propagation fans",
     1, true, false, "log2(n) + ceil(log_W n) - 1",
     "per level of L cells (L/W)(W*log2(W) - W + 1) + (L - W); the root's L <= W cells L*log2(L) - L + 1", true},
    {"warp-raking",
     "Merrill-Garland Fig. 2b: raking reduce-then-scan, one warp: serial reductions of n/W cells a lane, a Kogge-Stone "
     "warp scan at the root, serial scans",
     1, true, false, "2n/W - 1 + log2(W)", "2n - n/W - 2W + 1 + W*log2(W)", true},
    {"warp-sklansky",
     "Merrill-Garland Fig. 2c: Sklansky, Kogge-Stone warp scans (shuffles), then fans at spans W, 2W, ..., n/2", 1, true,
     false, "log2 n", "(n/W)(W*log2(W) - W + 1) + (n/2)*log2(n/W)", true},
}};

std::int64_t log2_exact(std::int64_t n) { return std::countr_zero(static_cast<std::uint64_t>(n)); }
}  // namespace

std::span<const AlgorithmInfo> block_algorithms() { return kBlockAlgorithms; }

const AlgorithmInfo* find_algorithm(std::string_view name) {
  for (const auto& a : kBlockAlgorithms)
    if (a.name == name) return &a;
  return nullptr;
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

namespace {

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

}  // namespace

std::optional<ClosedForm> closed_form(std::string_view algorithm, std::int64_t n, bool exclusive, std::int32_t warp) {
  if (n < 2 || !std::has_single_bit(static_cast<std::uint64_t>(n))) return std::nullopt;
  const std::int64_t k = log2_exact(n);
  if (algorithm.rfind("warp-", 0) == 0) {
    const std::int64_t w = warp ? warp : std::min<std::int64_t>(kMaxWarpWidth, n);
    if (w < 2 || w > n || !std::has_single_bit(static_cast<std::uint64_t>(w))) return std::nullopt;
    const std::int64_t m = n / w;
    if (algorithm == "warp-brent-kung") return warp_brent_kung_form(n, w);
    if (algorithm == "warp-raking") return ClosedForm{2 * m - 1 + log2_exact(w), 2 * n - m - 2 * w + 1 + w * log2_exact(w)};
    if (algorithm == "warp-sklansky") return ClosedForm{k, m * kogge_stone_work(w) + n / 2 * log2_exact(m)};
  }
  if (algorithm == "kogge-stone" || algorithm == "kogge-stone-double-buffer" || algorithm == "kogge-stone-racy")
    return ClosedForm{k, n * k - (n - 1)};
  if (algorithm == "brent-kung") return ClosedForm{2 * k - 1, 2 * n - k - 2};
  if (algorithm == "blelloch") return exclusive ? ClosedForm{2 * k, 2 * (n - 1)} : ClosedForm{2 * k + 1, 2 * n - 1};
  if (algorithm == "sklansky") return ClosedForm{k, n / 2 * k};
  return std::nullopt;
}

}  // namespace sv
