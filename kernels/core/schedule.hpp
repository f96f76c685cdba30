// Warp schedules: which runnable warp issues the next warp instruction on the CPU emulator (and the
// order the device-wide emulator launches blocks in). A plain value, parsed from the command line.
//
//   in-order     the lowest runnable warp runs until it blocks at a barrier, then the next
//   reverse      the highest runnable warp first
//   round-robin  one warp instruction per warp in turn
//   random:SEED  a seeded uniformly random runnable warp for every instruction
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sv {

struct Schedule {
  enum class Kind : std::uint8_t { InOrder, Reverse, RoundRobin, Random };
  Kind kind = Kind::InOrder;
  std::uint64_t seed = 0;  // used by Random only

  // "in-order", "reverse", "round-robin", "random" (seed = default_seed) or "random:SEED".
  static std::optional<Schedule> parse(std::string_view text, std::uint64_t default_seed = 1);
  std::string kind_name() const;
  std::string name() const;  // "random:7", "in-order"
};

std::span<const std::string_view> schedule_kind_names();

}  // namespace sv
