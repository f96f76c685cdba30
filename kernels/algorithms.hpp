// The algorithm registry: names, what `scanviz algos` prints, block shapes, and the closed forms of
// steps and work that the metrics must match.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sv {

struct AlgorithmInfo {
  std::string_view name;
  std::string_view summary;
  int items_per_thread;      // elements each thread loads
  bool power_of_two;         // capacity padded to a power of two with the identity
  bool racy;                 // has a data race by design
  std::string_view steps;    // closed form of the depth, n = capacity = 2^k
  std::string_view work;     // closed form of the operator applications
};

std::span<const AlgorithmInfo> block_algorithms();
const AlgorithmInfo* find_algorithm(std::string_view name);

struct BlockShape {
  std::int32_t threads = 0;
  std::int32_t capacity = 0;
};

inline constexpr std::int32_t kMaxBlockThreads = 1024;

// The block for scanning n elements: `requested_threads` (0 = the smallest block that holds n).
// Throws std::invalid_argument with a one-line reason (n too large, block not allowed...).
BlockShape block_shape(const AlgorithmInfo& algo, std::int64_t n, std::int32_t requested_threads);

// Closed forms for n a power of two >= 2 (what the metrics must equal on race-free schedules).
struct ClosedForm {
  std::int64_t steps;
  std::int64_t operations;
};
std::optional<ClosedForm> closed_form(std::string_view algorithm, std::int64_t n, bool exclusive);

}  // namespace sv
