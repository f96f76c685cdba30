// The algorithm registry.
#include "algorithms.hpp"

#include <array>
#include <bit>
#include <stdexcept>
#include <string>

namespace sv {

namespace {
constexpr std::array<AlgorithmInfo, 6> kBlockAlgorithms = {{
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
  if (!algo.power_of_two) {
    shape.threads = requested_threads ? requested_threads : static_cast<std::int32_t>(n);
    shape.capacity = shape.threads;
  } else if (requested_threads) {
    if (!std::has_single_bit(static_cast<std::uint32_t>(requested_threads)))
      throw std::invalid_argument(who + " needs a power-of-two block size, not " + std::to_string(requested_threads));
    shape.threads = requested_threads;
    shape.capacity = 2 * requested_threads;
  } else {
    shape.capacity = static_cast<std::int32_t>(std::max<std::uint64_t>(2, std::bit_ceil(static_cast<std::uint64_t>(n))));
    shape.threads = shape.capacity / 2;
  }
  if (shape.capacity < n)
    throw std::invalid_argument("block size " + std::to_string(shape.threads) + " holds " +
                                std::to_string(shape.capacity) + " elements with " + who + ", fewer than n = " +
                                std::to_string(n));
  return shape;
}

std::optional<ClosedForm> closed_form(std::string_view algorithm, std::int64_t n, bool exclusive) {
  if (n < 2 || !std::has_single_bit(static_cast<std::uint64_t>(n))) return std::nullopt;
  const std::int64_t k = log2_exact(n);
  if (algorithm == "kogge-stone" || algorithm == "kogge-stone-double-buffer" || algorithm == "kogge-stone-racy")
    return ClosedForm{k, n * k - (n - 1)};
  if (algorithm == "brent-kung") return ClosedForm{2 * k - 1, 2 * n - k - 2};
  if (algorithm == "blelloch") return exclusive ? ClosedForm{2 * k, 2 * (n - 1)} : ClosedForm{2 * k + 1, 2 * n - 1};
  if (algorithm == "sklansky") return ClosedForm{k, n / 2 * k};
  return std::nullopt;
}

}  // namespace sv
