// Draws a Diagram's cells and arrows with our own shaders (shaders/), instanced, into whatever
// framebuffer is bound. Only what is visible is built, and only when the diagram, the view or the
// canvas' rectangle changed. Cells narrower than 3 pixels fold, per row, into bins at least 3 pixels
// wide, drawn as one quad a row over a texture of the bins' heat colours (the heatmap for large n; on
// request at any width, where the values do not fit as text);
// arrows closer together than their width fold into one band. Needs a current OpenGL 3.3 core context.
#pragma once

#include <cstdint>
#include <vector>

#include "gui/model/diagram_model.hpp"

namespace sv::gui {

// pixel = canvas * scale + offset, per axis: a long diagram is fitted in x and keeps readable rows.
struct ViewTransform {
  float scale_x = 1, scale_y = 1;    // pixels per canvas unit
  float offset_x = 0, offset_y = 0;  // pixel position of the canvas origin
};

// The heat map's colour for t in 0..1: dark blue through teal to yellow.
void heat_color(float t, float out[4]);

class GlDiagram {
 public:
  GlDiagram();  // throws std::runtime_error naming the shader that failed
  ~GlDiagram();
  GlDiagram(const GlDiagram&) = delete;
  GlDiagram& operator=(const GlDiagram&) = delete;

  // Makes what `canvas` shows of `d` (built as `version`; a new diagram needs a new version) visible
  // in clip (x0, y0, x1, y1, framebuffer pixels) at `view`: rebuilt only when one of them changed.
  // Returns the canvas' slot for draw().
  // `heat`: the cells in heat colours whatever their width (their values do not fit as text).
  int prepare(const void* canvas, const Diagram& d, std::uint64_t version, const Palette& pal, const ViewTransform& view,
              const float clip[4], bool heat = false);
  // Makes the GL objects of `canvas`'s slot now (prepare() would on its first call): a canvas whose
  // wrapped bands come and go keeps a fixed number of objects.
  void reserve(const void* canvas);
  // Uploads what prepare() rebuilt and draws it. Viewport: the framebuffer's size in pixels.
  void draw(int slot, const ViewTransform& view, int viewport_w, int viewport_h);

  std::size_t last_instances() const { return last_instances_; }
  std::size_t builds() const { return builds_; }  // prepare() calls that rebuilt, all canvases together

 private:
  struct CellInstance {
    float rect[4];
    float fill[4];
    float border[4];
    float heat_row;  // >= 0: the fill comes from this row of the heat texture, one texel a bin
    float bin_w;     // with heat_row: a bin's width in canvas units
    float pattern;   // bits: 1 the race hatch, 2 a wrong cell's corner quad (shaders/cells.frag)
  };
  struct SegmentInstance {
    float ends[4];
    float rgba[4];
    float width;  // pixels
    float sweep;  // canvas units: the segment repeated along x this far (a band of parallel arrows)
  };
  struct Canvas {
    const void* owner = nullptr;
    std::uint64_t version = 0;
    const Palette* palette = nullptr;
    ViewTransform view;
    float clip[4] = {};
    bool built = false, uploaded = false, heat_colours = false;
    std::vector<CellInstance> cells;
    std::vector<SegmentInstance> segments;
    std::vector<std::uint32_t> heat;  // heat_w x heat_h texels, RGBA8
    int heat_w = 0, heat_h = 0;
    unsigned cell_vao = 0, cell_vbo = 0, segment_vao = 0, segment_vbo = 0, heat_texture = 0;
  };
  void build(Canvas& c, const Diagram& d, const Palette& pal);
  void build_cells(Canvas& c, const Diagram& d, const Palette& pal);
  void build_segments(Canvas& c, const Diagram& d);

  unsigned cell_program_ = 0, segment_program_ = 0, quad_vbo_ = 0;
  std::vector<Canvas> canvases_;
  std::size_t last_instances_ = 0, builds_ = 0;
};

}  // namespace sv::gui
