// The divergence figures as text and JSON.
#include "divergence_text.hpp"

#include <ostream>

#include "analysis/divergence.hpp"

namespace sv {

namespace {
constexpr const char* kActiveMeaning =
    "a lane is active when it applied the operator in the step (in load, clear-root and store steps: when it wrote a cell)";
}  // namespace

void print_divergence(std::ostream& out, const Trace& t) {
  const Divergence d = compute_divergence(t);
  out << "divergence         " << d.warps_per_block << " warps of " << d.warp_width << " lanes; over the steps "
      << d.divergent_warps << " divergent warps, " << d.idle_warps << " idle warps, " << d.idle_lanes
      << " idle lanes\n";
  out << "  per step         (divergent warps/idle warps/idle lanes) ";
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const StepDivergence& s = d.per_step[k];
    out << t.steps[k].label() << ": " << s.divergent_warps << "/" << s.idle_warps << "/" << s.idle_lanes << "; ";
  }
  out << "\n";
}

nlohmann::json divergence_json(const Trace& t) {
  using nlohmann::json;
  const Divergence d = compute_divergence(t);
  json per_step = json::array();
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const StepDivergence& s = d.per_step[k];
    json divergent = json::array();
    for (const WarpActivity& w : s.warps)
      if (w.state() == WarpState::Divergent) divergent.push_back(w.warp);
    per_step.push_back({{"label", t.steps[k].label()}, {"full_warps", s.full_warps},
                        {"divergent_warps", s.divergent_warps}, {"idle_warps", s.idle_warps},
                        {"active_lanes", s.active_lanes}, {"idle_lanes", s.idle_lanes},
                        {"divergent_warp_ids", divergent}});
  }
  return {{"warp_width", d.warp_width}, {"warps", d.warps_per_block}, {"active", kActiveMeaning},
          {"divergent_warps", d.divergent_warps}, {"idle_warps", d.idle_warps}, {"idle_lanes", d.idle_lanes},
          {"per_step", per_step}};
}

}  // namespace sv
