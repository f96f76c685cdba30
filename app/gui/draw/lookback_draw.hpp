// The look-back view's scene (gui/model/lookback_scene.hpp, plain data) drawn: in the window with
// ImGui's draw list, and as a standalone SVG document (vector export for slides).
#pragma once

#include <string>

#include "gui/model/lookback_scene.hpp"

namespace sv::gui {

// Draws a scene with the current ImGui window's draw list, its top-left corner at `origin`; with
// `lanes_drawn`, all but the lanes' marks (the caller drew their lane_picture).
void draw_lookback_scene(const LookbackScene& scene, float origin_x, float origin_y, bool lanes_drawn = false);
// The same scene as a standalone SVG document.
std::string lookback_scene_svg(const LookbackScene& scene, const LookbackPalette& pal, float font_px);

}  // namespace sv::gui
