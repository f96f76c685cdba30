// The window's fixed panels, which tile it under the menu bar: the lesson's controls on the left, the
// narration and the kernel source on the right, the diagram in the middle above the timeline.
// Lecture mode keeps the diagram, the narration and the timeline.
#pragma once

#include <memory>
#include <vector>

#include "gui/draw/canvas.hpp"
#include "gui/draw/gl_diagram.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// Where the panels went, for the windows that float over them.
struct PanelLayout {
  float W = 0, H = 0;  // the window's size
  float menu_h = 0, left_w = 0, right_w = 0, timeline_h = 0;
  float em = 0;  // the font size
};

// The share of the right-hand column's height the narration takes (less over the "Your kernel" panel,
// which takes the rest).
float narration_share(const Ui& ui);

// Lays the panels out under a menu bar `menu_h` tall and draws them (the diagram's canvases with
// `gl`, their draw callbacks kept in `frame_draws` until the frame is rendered); returns true when
// a lesson control changed.
bool tiled_panels(Ui& ui, float menu_h, GlDiagram& gl, std::vector<std::unique_ptr<CanvasDraw>>& frame_draws,
                  PanelLayout& layout);

}  // namespace sv::gui
