// Names of the trace's enumerations.
#include "trace/trace.hpp"

#include <array>

namespace sv {

namespace {
constexpr std::array<std::string_view, kPhaseCount> kPhaseNames = {
    "load", "stride", "reduction", "post-reduction", "up-sweep", "clear-root", "down-sweep", "span", "store"};
}

std::string_view phase_name(Phase p) { return kPhaseNames.at(static_cast<std::size_t>(p)); }

std::optional<Phase> parse_phase_name(std::string_view s) {
  for (std::size_t i = 0; i < kPhaseNames.size(); ++i)
    if (kPhaseNames[i] == s) return static_cast<Phase>(i);
  return std::nullopt;
}

std::string phase_label(Phase p, std::int64_t param) {
  std::string label(phase_name(p));
  if (p == Phase::Stride) return "stride = " + std::to_string(param);
  if (p == Phase::Span) return "span = " + std::to_string(param);
  if (param >= 0) label += " stride = " + std::to_string(param);
  return label;
}

std::string_view event_kind_name(EventKind k) {
  static constexpr std::array<std::string_view, 4> names = {"read", "write", "op", "barrier"};
  return names.at(static_cast<std::size_t>(k));
}
std::string_view space_name(Space s) { return s == Space::Global ? "global" : "shared"; }
std::string_view outcome_name(Outcome o) { return o == Outcome::Correct ? "correct" : "wrong"; }

}  // namespace sv
