// Draws a Diagram's cells and arrows with our own shaders (shaders/), instanced, into whatever
// framebuffer is bound. Only what is visible is uploaded; cells narrower than 3 pixels fold into
// bins of one heat colour (the heatmap for large n). Needs a current OpenGL 3.3 core context.
#pragma once

#include <cstdint>
#include <vector>

#include "gui/diagram_model.hpp"

namespace sv::gui {

// pixel = canvas * scale + offset, per axis: a long diagram is fitted in x and keeps readable rows.
struct ViewTransform {
  float scale_x = 1, scale_y = 1;    // pixels per canvas unit
  float offset_x = 0, offset_y = 0;  // pixel position of the canvas origin
};

class GlDiagram {
 public:
  GlDiagram();  // throws std::runtime_error naming the shader that failed
  ~GlDiagram();
  GlDiagram(const GlDiagram&) = delete;
  GlDiagram& operator=(const GlDiagram&) = delete;

  // Viewport: the framebuffer's size in pixels; clip: the visible pixel rectangle (x0, y0, x1, y1).
  void draw(const Diagram& d, const Palette& pal, const ViewTransform& view, int viewport_w, int viewport_h,
            const float clip[4]);

  std::size_t last_instances() const { return last_instances_; }

 private:
  struct CellInstance {
    float rect[4];
    float fill[4];
    float border[4];
  };
  struct SegmentInstance {
    float ends[4];
    float rgba[4];
    float width;
  };
  unsigned cell_program_ = 0, segment_program_ = 0;
  unsigned quad_vbo_ = 0, cell_vao_ = 0, cell_vbo_ = 0, segment_vao_ = 0, segment_vbo_ = 0;
  std::vector<CellInstance> cells_;
  std::vector<SegmentInstance> segments_;
  std::size_t last_instances_ = 0;
};

}  // namespace sv::gui
