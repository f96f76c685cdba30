// Warp divergence and idle warps per step, from the trace's events.
#include "analysis/divergence.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>

#include "algorithms.hpp"

namespace sv {

int WarpActivity::active_count() const { return std::popcount(active_lanes); }

WarpState WarpActivity::state() const {
  const int active = active_count();
  if (active == 0) return WarpState::Idle;
  return active == live_lanes ? WarpState::Full : WarpState::Divergent;
}

bool is_data_movement(Phase phase) {
  return phase == Phase::Load || phase == Phase::ClearRoot || phase == Phase::Store || phase == Phase::TileSums;
}

bool divergence_applies(const Trace& trace) {
  return trace.meta.grid == 1 && find_algorithm(trace.meta.algorithm) != nullptr;
}

Divergence compute_divergence(const Trace& trace, int warp_width) {
  if (warp_width == 0) warp_width = trace.meta.warp_width();
  if (warp_width < 1 || warp_width > 32 || !std::has_single_bit(static_cast<unsigned>(warp_width)))
    throw std::invalid_argument("warp width " + std::to_string(warp_width) + " is not a power of two from 1 to 32");
  Divergence d;
  d.warp_width = warp_width;
  const std::int64_t threads = std::max<std::int64_t>(0, trace.meta.block);
  const std::int64_t blocks = std::max<std::int64_t>(1, trace.meta.grid);
  d.warps_per_block = static_cast<int>((threads + warp_width - 1) / warp_width);
  const std::size_t warps = static_cast<std::size_t>(blocks) * static_cast<std::size_t>(d.warps_per_block);

  d.per_step.resize(trace.steps.size());
  for (std::size_t k = 0; k < trace.steps.size(); ++k) {
    const Step& step = trace.steps[k];
    StepDivergence& sd = d.per_step[k];
    sd.warps.resize(warps);
    for (std::size_t w = 0; w < warps; ++w) {
      WarpActivity& a = sd.warps[w];
      a.block = static_cast<std::uint32_t>(w / static_cast<std::size_t>(d.warps_per_block));
      a.warp = static_cast<std::uint32_t>(w % static_cast<std::size_t>(d.warps_per_block));
      a.live_lanes = static_cast<int>(std::min<std::int64_t>(warp_width, threads - std::int64_t{a.warp} * warp_width));
    }
    const EventKind work = is_data_movement(step.phase) ? EventKind::Write : EventKind::Op;
    for (std::uint64_t i = step.first_event; i < step.end_event && i < trace.events.size(); ++i) {
      const Event& e = trace.events[i];
      if (e.kind != work || e.block >= blocks || e.thread >= threads) continue;  // a loaded file may say anything
      const std::size_t w = e.block * static_cast<std::size_t>(d.warps_per_block) + e.thread / warp_width;
      sd.warps[w].active_lanes |= std::uint32_t{1} << (e.thread % warp_width);
    }
    for (const WarpActivity& a : sd.warps) {
      const WarpState s = a.state();
      sd.full_warps += s == WarpState::Full;
      sd.divergent_warps += s == WarpState::Divergent;
      sd.idle_warps += s == WarpState::Idle;
      sd.active_lanes += a.active_count();
      sd.idle_lanes += a.live_lanes - a.active_count();
    }
    d.divergent_warps += sd.divergent_warps;
    d.idle_warps += sd.idle_warps;
    d.idle_lanes += sd.idle_lanes;
  }
  return d;
}

}  // namespace sv
