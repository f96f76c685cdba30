// Warp schedules: parsing and names.
#include "core/schedule.hpp"

#include <array>
#include <charconv>

namespace sv {

namespace {
constexpr std::array<std::string_view, 4> kKindNames = {"in-order", "reverse", "round-robin", "random"};
}

std::span<const std::string_view> schedule_kind_names() { return kKindNames; }

std::optional<Schedule> Schedule::parse(std::string_view text, std::uint64_t default_seed) {
  std::string_view kind = text;
  std::optional<std::uint64_t> seed;
  if (auto colon = text.find(':'); colon != std::string_view::npos) {
    kind = text.substr(0, colon);
    auto digits = text.substr(colon + 1);
    std::uint64_t v = 0;
    auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits.empty() || res.ec != std::errc() || res.ptr != digits.data() + digits.size()) return std::nullopt;
    seed = v;
  }
  for (std::size_t i = 0; i < kKindNames.size(); ++i) {
    if (kKindNames[i] != kind) continue;
    Schedule s{static_cast<Kind>(i), 0};
    if (s.kind == Kind::Random) s.seed = seed.value_or(default_seed);
    else if (seed) return std::nullopt;  // only random takes a seed
    return s;
  }
  return std::nullopt;
}

std::string Schedule::kind_name() const { return std::string(kKindNames.at(static_cast<std::size_t>(kind))); }

std::string Schedule::name() const {
  return kind == Kind::Random ? kind_name() + ":" + std::to_string(seed) : kind_name();
}

}  // namespace sv
