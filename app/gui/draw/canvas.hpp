// What the window and the offscreen renderer share: fonts (DejaVu Sans at any scale), themes, and
// the diagram canvas (GL cells and arrows through an ImGui draw callback, ImGui labels, hover).
#pragma once

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gui/model/diagram_model.hpp"
#include "gui/draw/gl_diagram.hpp"
#include "gui/model/layout_report.hpp"
#include "gui/draw/legend.hpp"

namespace sv::gui {

inline constexpr float kBaseFontPx = 16.0f;

struct Fonts {
  ImFont* text = nullptr;
  ImFont* mono = nullptr;
  ImFont* diagram = nullptr;  // the diagram's values and labels, at the diagram's scale
};

// DejaVu Sans (fonts-dejavu-core) rasterized at the scale, so large text stays crisp on a projector;
// the diagram's font at `diagram_scale` (0: the same), which may be larger than the panels'.
Fonts load_fonts(float scale, float diagram_scale = 0);
// Makes the OpenGL backend's font texture from the atlas load_fonts built (after the backend's Init),
// sampled nearest.
void upload_fonts();
const Palette& palette_named(const std::string& theme);
void apply_theme(const std::string& theme, float scale);
ImU32 im_color(std::uint32_t rgba);

// One band of a wrapped diagram: columns [first_column, end_column), drawn with `view` (window
// pixels relative to the canvas' top-left) between `top` and `bottom` (window pixels).
struct CanvasBand {
  int first_column = 0, end_column = 0;
  ViewTransform view;
  float top = 0, bottom = 0;
};

struct CanvasState {
  ViewTransform view;  // in window (logical) pixels, relative to the canvas' top-left
  bool fit = true;
  float min_cell_w = 0;  // cells at least this wide (canvas units): a GIF's frames keep the last step's widths
  float text_scale = 1;  // the font scale the layout was made for
  Diagram diagram;
  std::uint64_t version = 0;  // of `diagram`: unique to each build, so the GL side knows it is the same
  int built_step = -2;
  const TraceView* built_for = nullptr;
  const TraceView* built_against = nullptr;  // the race-free run it was compared with
  std::string built_theme;
  float built_row_gap = 0;  // the layout's row gap the diagram was built with (fitting may narrow it)
  std::vector<CanvasBand> bands;  // as last drawn; one unless the fitted columns wrap
  float label_px = 0;  // the row labels' column as last fitted (kept while zoomed)
  float label_text_px = 0;  // ... their largest text
  bool whole_labels = true;  // ... with the buffers' names (else the steps' alone)
  // Measured for `version` at a font size: the widest value, abbreviated value, label, step name.
  std::uint64_t measured_version = 0;
  float measured_px = 0, text_w = 0, short_text_w = 0, label_w = 0, step_label_w = 0;
  std::vector<LegendItem> legend;  // the marks the legend names, for `legend_for` against `legend_against`
  const TraceView* legend_for = nullptr;
  const TraceView* legend_against = nullptr;
  std::string legend_theme;
  bool record = false;  // fill `laid` with every cell, not only the visible ones (the layout report)
  CanvasLayout laid;    // what the last draw_canvas drew where
};

// What the GL callback needs, alive until the frame is rendered.
struct CanvasDraw {
  GlDiagram* gl;
  int slot;            // GlDiagram::prepare's
  ViewTransform view;  // framebuffer pixels
  float clip[4];
  int fb_w, fb_h;
};

// Draws the diagram for `step` in the rectangle [pos, pos + size] of the current ImGui window, with
// the current font: the row labels in a column of their own at the left, the cells right of it. A
// fitted diagram keeps every value legible (gui/model/canvas_fit.hpp): its columns may wrap into bands one
// under the other; where no text can fit, the cells show the heat map. A strip along the bottom holds
// the legend (gui/draw/legend.hpp), which no cell covers.
// A run whose output differs from the reference: a WRONG banner ("WRONG: 6 of 8 outputs differ from a
// correct scan") ending at `top_right`, `height` tall, in a strip above the diagram (the window's
// title bar, a side-by-side caption) so that it covers no cell; it shows where the panel is hidden
// (lecture mode) and on each kernel of a side-by-side pair. Nothing for a right run.
void draw_wrong_banner(const TraceView& tv, const std::string& theme, ImVec2 top_right, float height);

// The height of the legend's strip draw_canvas keeps under a canvas `width` wide with `font` at
// `font_px` (without the heat map's colours): an image is made this much taller to show it.
float legend_strip_height(const TraceView& tv, const TraceView* race_free, const Palette& pal, ImFont* font, float font_px, float width);

// Where canvas point (x, y) of a cell in `column` is on the screen, in the band that shows the column.
ImVec2 canvas_to_screen(const CanvasState& cs, ImVec2 pos, int column, float x, float y);

void draw_canvas(const TraceView& tv, int step, CanvasState& cs, GlDiagram& gl, const std::string& theme,
                 std::vector<std::unique_ptr<CanvasDraw>>& frame_draws, ImVec2 pos, ImVec2 size, bool interactive,
                 const char* id,
                 const TraceView* race_free = nullptr);

// An opaque rectangle drawn as a scissored glClear, in draw order: a software rasterizer (llvmpipe)
// shades a textured, blended ImGui quad pixel by pixel, but clears a rectangle at memory speed.
// Clipped to the draw list's clip rectangle.
void add_solid_rect(ImDrawList* dl, ImVec2 min, ImVec2 max, std::uint32_t rgba);

// The current window's background as add_solid_rect, under its title bar and borders: for a window
// begun with a transparent ImGuiCol_WindowBg.
void clear_window_background(std::uint32_t rgba);

// Moves and shrinks the current window, where needed, to lie within the display: called after
// Begin by the windows a reader opens over the others, so that one opened in a larger window or page
// stays whole when it is made smaller (it takes effect from the next frame).
void keep_in_display();

// Draws only what no later add_solid_rect (or GlPictures picture) covers: each command of `dd` is clipped to the parts of
// its rectangle that the clears after it leave visible (a window under the look-back view is drawn
// only where it shows). The picture is the same. Returns how many commands were clipped or dropped.
int clip_hidden_draws(ImDrawData* dd);

// ImGui's window background colour (ImGuiCol_WindowBg) as it shows over `under` (0xRRGGBBAA, opaque).
std::uint32_t window_background_over(std::uint32_t under);

// Pictures the frame makes on the CPU (the look-back lanes), one per slot, kept as textures and
// uploaded again only when a slot's version changes; deleted with this (before the context).
class GlPictures {
 public:
  GlPictures() = default;
  ~GlPictures();
  GlPictures(const GlPictures&) = delete;
  GlPictures& operator=(const GlPictures&) = delete;

  // Draws `slot`'s picture (w x h texels, top row first, GL_RGBA bytes, as of `version`) with its
  // top-left corner at `at` (whole pixels), in draw order, clipped like the list: copied to the
  // framebuffer, not blended, so it is opaque and hides what is under it (clip_hidden_draws).
  void add(ImDrawList* dl, std::size_t slot, std::uint64_t version, int w, int h, const std::uint32_t* rgba, ImVec2 at);

  struct Slot {
    unsigned texture = 0, framebuffer = 0;
    std::uint64_t version = 0;
    int w = 0, h = 0;
    ImVec2 at;  // this frame's top-left corner
  };

 private:
  std::vector<std::unique_ptr<Slot>> slots_;  // they stay put: the frame's draw commands point at them
};

// Bottom-up RGBA pixels (as glReadPixels gives them) as the bytes of a PNG file.
std::vector<unsigned char> encode_png(int w, int h, const std::vector<unsigned char>& rgba);

}  // namespace sv::gui
