// Instanced drawing of the diagram's cells and arrows with the shaders in shaders/.
#include "gui/gl_diagram.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "embedded.hpp"

namespace sv::gui {

namespace {

void unpack(std::uint32_t rgba, float out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<float>((rgba >> (24 - 8 * i)) & 0xFF) / 255.0f;
}

// A heat colour from dark blue through teal to yellow (t in 0..1).
void heat_color(float t, float out[4]) {
  t = std::clamp(t, 0.0f, 1.0f);
  out[0] = std::clamp(-0.2f + 1.3f * t * t, 0.0f, 1.0f);
  out[1] = std::clamp(0.1f + 0.8f * t, 0.0f, 1.0f);
  out[2] = std::clamp(0.5f + 0.4f * std::sin(3.1f * t) - 0.4f * t, 0.0f, 1.0f);
  out[3] = 1.0f;
}

unsigned compile(unsigned type, const char* name) {
  const std::string_view src = embedded_file(std::string("shaders/") + name);
  if (src.empty()) throw std::runtime_error(std::string("shader ") + name + " is not embedded");
  const unsigned shader = glCreateShader(type);
  const char* text = src.data();
  const int length = static_cast<int>(src.size());
  glShaderSource(shader, 1, &text, &length);
  glCompileShader(shader);
  int ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error(std::string("shader ") + name + ": " + log);
  }
  return shader;
}

unsigned link(const char* vert, const char* frag) {
  const unsigned vs = compile(GL_VERTEX_SHADER, vert), fs = compile(GL_FRAGMENT_SHADER, frag);
  const unsigned program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  int ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    throw std::runtime_error(std::string("program ") + vert + ": " + log);
  }
  return program;
}

void set_view(unsigned program, const ViewTransform& v, int w, int h) {
  glUseProgram(program);
  glUniform2f(glGetUniformLocation(program, "u_offset"), v.offset_x, v.offset_y);
  glUniform2f(glGetUniformLocation(program, "u_scale"), v.scale_x, v.scale_y);
  glUniform2f(glGetUniformLocation(program, "u_viewport"), static_cast<float>(w), static_cast<float>(h));
}

struct InstanceAttribute {
  int components;
  std::size_t offset;
};

// A VAO drawing the unit quad (attribute 0) once per instance of `vbo`, whose float attributes
// 1, 2, ... are laid out as `attributes` within records of `stride` bytes.
void make_instanced_vao(unsigned& vao, unsigned& vbo, unsigned quad_vbo, std::size_t stride,
                        std::initializer_list<InstanceAttribute> attributes) {
  glGenVertexArrays(1, &vao);
  glGenBuffers(1, &vbo);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  unsigned index = 1;
  for (const InstanceAttribute& a : attributes) {
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, a.components, GL_FLOAT, GL_FALSE, static_cast<int>(stride),
                          reinterpret_cast<const void*>(a.offset));
    glVertexAttribDivisor(index++, 1);
  }
}

}  // namespace

GlDiagram::GlDiagram() {
  cell_program_ = link("cells.vert", "cells.frag");
  segment_program_ = link("segments.vert", "segments.frag");
  const float quad[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);

  make_instanced_vao(cell_vao_, cell_vbo_, quad_vbo_, sizeof(CellInstance),
                     {{4, offsetof(CellInstance, rect)}, {4, offsetof(CellInstance, fill)}, {4, offsetof(CellInstance, border)}});
  make_instanced_vao(segment_vao_, segment_vbo_, quad_vbo_, sizeof(SegmentInstance),
                     {{4, offsetof(SegmentInstance, ends)}, {4, offsetof(SegmentInstance, rgba)}, {1, offsetof(SegmentInstance, width)}});
  glBindVertexArray(0);
}

GlDiagram::~GlDiagram() {
  glDeleteVertexArrays(1, &cell_vao_);
  glDeleteVertexArrays(1, &segment_vao_);
  const unsigned buffers[] = {quad_vbo_, cell_vbo_, segment_vbo_};
  glDeleteBuffers(3, buffers);
  glDeleteProgram(cell_program_);
  glDeleteProgram(segment_program_);
}

void GlDiagram::draw(const Diagram& d, const Palette& pal, const ViewTransform& view, int w, int h,
                     const float clip[4]) {
  cells_.clear();
  segments_.clear();
  float border[4];
  unpack(pal.border, border);
  // Visible cells only; cells under 3 px wide fold, per row, into bins at least 3 px wide.
  const float cell_px = d.cells.empty() ? 0 : d.cells.front().w * view.scale_x;
  const std::size_t fold = cell_px >= 3 ? 1 : static_cast<std::size_t>(std::ceil(3.0f / std::max(cell_px, 1e-3f)));
  for (std::size_t i = 0; i < d.cells.size();) {
    const DiagramCell& c = d.cells[i];
    std::size_t j = i + 1;
    float heat = c.heat;
    bool hazard = c.hazard;  // a folded bin with a hazard cell shows the hazard colour
    while (fold > 1 && j < d.cells.size() && j - i < fold && d.cells[j].row == c.row) {
      heat = std::max(heat, d.cells[j].heat);
      hazard |= d.cells[j].hazard;
      ++j;
    }
    const DiagramCell& last = d.cells[j - 1];
    const float x0 = c.x * view.scale_x + view.offset_x, x1 = (last.x + last.w) * view.scale_x + view.offset_x;
    const float y0 = c.y * view.scale_y + view.offset_y, y1 = (c.y + c.h) * view.scale_y + view.offset_y;
    if (x1 >= clip[0] && x0 <= clip[2] && y1 >= clip[1] && y0 <= clip[3]) {
      CellInstance inst{{c.x, c.y, last.x + last.w - c.x, c.h}, {}, {}};
      if (fold > 1) {
        if (hazard) unpack(pal.cell_hazard, inst.fill);
        else heat_color(heat, inst.fill);
      } else {
        unpack(c.fill, inst.fill);
      }
      std::copy(border, border + 4, inst.border);
      cells_.push_back(inst);
    }
    i = j;
  }
  for (const DiagramEdge& e : d.edges) {
    SegmentInstance s{{e.x0, e.y0, e.x1, e.y1}, {}, 2.0f};
    unpack(e.color, s.rgba);
    segments_.push_back(s);
    // Arrow head: two 8 px strokes back from the tip, worked out in pixels, stored in canvas units.
    const float dx = (e.x1 - e.x0) * view.scale_x, dy = (e.y1 - e.y0) * view.scale_y;
    const float len = std::max(std::sqrt(dx * dx + dy * dy), 1e-3f), ux = dx / len, uy = dy / len;
    for (float side : {-1.0f, 1.0f}) {
      const float hx = e.x1 - 8.0f * (ux * 0.87f - side * uy * 0.5f) / std::max(view.scale_x, 1e-6f);
      const float hy = e.y1 - 8.0f * (uy * 0.87f + side * ux * 0.5f) / std::max(view.scale_y, 1e-6f);
      SegmentInstance a{{hx, hy, e.x1, e.y1}, {}, 2.0f};
      std::copy(s.rgba, s.rgba + 4, a.rgba);
      segments_.push_back(a);
    }
  }
  last_instances_ = cells_.size() + segments_.size();

  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!segments_.empty()) {
    set_view(segment_program_, view, w, h);
    glBindVertexArray(segment_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, segment_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<long>(segments_.size() * sizeof(SegmentInstance)), segments_.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<int>(segments_.size()));
  }
  if (!cells_.empty()) {
    set_view(cell_program_, view, w, h);
    glBindVertexArray(cell_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, cell_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<long>(cells_.size() * sizeof(CellInstance)), cells_.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<int>(cells_.size()));
  }
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace sv::gui
