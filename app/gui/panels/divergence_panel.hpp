// The warp divergence window: the current step's warps as rows of lanes (active, idle in a divergent
// warp, idle warp), its counts, and a table of every step's counts (a click there goes to that step).
#pragma once

#include <cstdint>
#include <string>

#include "trace/trace.hpp"

namespace sv::gui {

struct WarpPalette {
  std::uint32_t active, divergent_idle, idle, label, label_divergent;
};
const WarpPalette& warp_palette(const std::string& theme);

inline constexpr const char* kDivergenceWindowTitle = "Warps: divergence and idle lanes";

// Draws the window while *open; trace may be null (no lesson). Returns the step clicked in the
// table, or -1.
int divergence_window(bool* open, const Trace* trace, int step, const std::string& theme);

}  // namespace sv::gui
