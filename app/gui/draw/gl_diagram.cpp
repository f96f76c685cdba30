// Instanced drawing of the diagram's cells and arrows with the shaders in shaders/.
#include "gui/draw/gl_diagram.hpp"

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <tuple>

#include "embedded.hpp"
#include "gui/draw/glsl_version.hpp"
#include "gui/draw/legend.hpp"

namespace sv::gui {

namespace {

void unpack(std::uint32_t rgba, float out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<float>((rgba >> (24 - 8 * i)) & 0xFF) / 255.0f;
}

}  // namespace

void heat_color(float t, float out[4]) {
  t = std::clamp(t, 0.0f, 1.0f);
  out[0] = std::clamp(-0.2f + 1.3f * t * t, 0.0f, 1.0f);
  out[1] = std::clamp(0.1f + 0.8f * t, 0.0f, 1.0f);
  out[2] = std::clamp(0.5f + 0.4f * std::sin(3.1f * t) - 0.4f * t, 0.0f, 1.0f);
  out[3] = 1.0f;
}

namespace {

unsigned compile(unsigned type, const char* name) {
  const std::string_view src = embedded_file(std::string("shaders/") + name);
  if (src.empty()) throw std::runtime_error(std::string("shader ") + name + " is not embedded");
  const unsigned shader = glCreateShader(type);
  const std::string source = glsl_for_this_gl(src);
  const char* text = source.c_str();
  const int length = static_cast<int>(source.size());
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

// Visible columns [first, end) of a row whose cells start at x0 (canvas) and are w wide.
std::pair<std::size_t, std::size_t> visible_columns(float x0, float w, std::size_t count, const ViewTransform& v,
                                                    const float clip[4]) {
  const float left = x0 * v.scale_x + v.offset_x, cell_px = std::max(w * v.scale_x, 1e-6f);
  const float first = std::floor((clip[0] - left) / cell_px), end = std::ceil((clip[2] - left) / cell_px) + 1;
  const auto clamp = [&](float c) { return static_cast<std::size_t>(std::clamp(c, 0.0f, static_cast<float>(count))); };
  return {clamp(first), clamp(end)};
}

// A heat texel's alpha that marks a bin with a race: shaders/cells.frag hatches it.
constexpr float kHeatHatchAlpha = 254;

std::uint32_t pack_texel(const float rgba[4]) {
  std::uint32_t t = 0;
  for (int i = 0; i < 4; ++i) t |= static_cast<std::uint32_t>(std::lround(std::clamp(rgba[i], 0.0f, 1.0f) * 255)) << (8 * i);
  return t;
}

}  // namespace

GlDiagram::GlDiagram() {
  cell_program_ = link("cells.vert", "cells.frag");
  segment_program_ = link("segments.vert", "segments.frag");
  glUseProgram(cell_program_);
  glUniform1i(glGetUniformLocation(cell_program_, "u_heat"), 0);
  glUseProgram(0);
  const float quad[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
}

GlDiagram::~GlDiagram() {
  for (Canvas& c : canvases_) {
    const unsigned arrays[] = {c.cell_vao, c.segment_vao};
    const unsigned buffers[] = {c.cell_vbo, c.segment_vbo};
    glDeleteVertexArrays(2, arrays);
    glDeleteBuffers(2, buffers);
    glDeleteTextures(1, &c.heat_texture);
  }
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteProgram(cell_program_);
  glDeleteProgram(segment_program_);
}

void GlDiagram::reserve(const void* canvas) {
  if (std::none_of(canvases_.begin(), canvases_.end(), [&](const Canvas& c) { return c.owner == canvas; })) {
    Canvas c;
    c.owner = canvas;
    make_instanced_vao(c.cell_vao, c.cell_vbo, quad_vbo_, sizeof(CellInstance),
                       {{4, offsetof(CellInstance, rect)}, {4, offsetof(CellInstance, fill)}, {4, offsetof(CellInstance, border)},
                        {1, offsetof(CellInstance, heat_row)}, {1, offsetof(CellInstance, bin_w)}, {1, offsetof(CellInstance, pattern)}});
    make_instanced_vao(c.segment_vao, c.segment_vbo, quad_vbo_, sizeof(SegmentInstance),
                       {{4, offsetof(SegmentInstance, ends)}, {4, offsetof(SegmentInstance, rgba)}, {1, offsetof(SegmentInstance, width)},
                        {1, offsetof(SegmentInstance, sweep)}});
    glBindVertexArray(0);
    glGenTextures(1, &c.heat_texture);
    glBindTexture(GL_TEXTURE_2D, c.heat_texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);  // no mipmaps: complete for texelFetch
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    canvases_.push_back(std::move(c));
  }
}

int GlDiagram::prepare(const void* canvas, const Diagram& d, std::uint64_t version, const Palette& pal,
                       const ViewTransform& view, const float clip[4], bool heat) {
  reserve(canvas);
  const auto it = std::find_if(canvases_.begin(), canvases_.end(), [&](const Canvas& c) { return c.owner == canvas; });
  Canvas& c = *it;
  const bool same_view = c.view.scale_x == view.scale_x && c.view.scale_y == view.scale_y &&
                         c.view.offset_x == view.offset_x && c.view.offset_y == view.offset_y;
  if (!c.built || c.version != version || c.palette != &pal || !same_view || !std::equal(clip, clip + 4, c.clip) || c.heat_colours != heat) {
    c.version = version;
    c.heat_colours = heat;
    c.palette = &pal;
    c.view = view;
    std::copy(clip, clip + 4, c.clip);
    build(c, d, pal);
  }
  last_instances_ = c.cells.size() + c.segments.size();
  return static_cast<int>(it - canvases_.begin());
}

void GlDiagram::build(Canvas& c, const Diagram& d, const Palette& pal) {
  ++builds_;
  c.built = true;
  c.uploaded = false;
  build_cells(c, d, pal);
  build_segments(c, d);
}

void GlDiagram::build_cells(Canvas& c, const Diagram& d, const Palette& pal) {
  c.cells.clear();
  c.heat.clear();
  c.heat_w = c.heat_h = 0;
  const ViewTransform& v = c.view;
  float border[4];
  unpack(pal.border, border);
  const float cell_px = d.cells.empty() ? 0 : d.cells.front().w * v.scale_x;
  // Cells under 3 px wide fold, per row, into bins at least 3 px wide (from column 0, so that panning
  // keeps the bins where they are); a row's visible bins are one quad over a row of the heat texture.
  const std::size_t fold = cell_px >= 3 ? 1 : static_cast<std::size_t>(std::ceil(3.0f / std::max(cell_px, 1e-3f)));
  struct HeatRow {
    std::size_t first_bin, bins;
  };
  std::vector<std::pair<std::size_t, HeatRow>> heat_rows;  // (row, its visible bins)
  for (std::size_t r = 0; r < d.rows.size(); ++r) {
    const DiagramRow& row = d.rows[r];
    if (row.cell_count == 0) continue;
    const DiagramCell& first = d.cells[row.first_cell];
    const float y0 = first.y * v.scale_y + v.offset_y, y1 = (first.y + first.h) * v.scale_y + v.offset_y;
    if (y1 < c.clip[1] || y0 > c.clip[3]) continue;
    const auto [c0, c1] = visible_columns(first.x, first.w, row.cell_count, v, c.clip);
    if (c0 >= c1) continue;
    if (fold == 1 && !c.heat_colours) {
      for (std::size_t i = c0; i < c1; ++i) {
        const DiagramCell& cell = d.cells[row.first_cell + i];
        CellInstance inst{{cell.x, cell.y, cell.w, cell.h}, {}, {}, -1, 0, cell.hazard ? 1.0f : 0.0f};
        unpack(cell.fill, inst.fill);
        std::copy(border, border + 4, inst.border);
        c.cells.push_back(inst);
        if (cell.wrong && cell.w * v.scale_x >= 12.0f) {
          // A wrong output: a 3 px outline from 2 px inside, as three nested one-pixel borders
          // (each instance covers the one before it but for its own border).
          unpack(pal.wrong, inst.border);
          for (float inset = 2; inset <= 4; ++inset) {
            const float ix = inset / v.scale_x, iy = inset / v.scale_y;
            inst.rect[0] = cell.x + ix, inst.rect[1] = cell.y + iy, inst.rect[2] = cell.w - 2 * ix, inst.rect[3] = cell.h - 2 * iy;
            c.cells.push_back(inst);
          }
          // Over them, the corner mark: the whole cell, of which only the triangle is drawn.
          inst.rect[0] = cell.x, inst.rect[1] = cell.y, inst.rect[2] = cell.w, inst.rect[3] = cell.h;
          inst.pattern = 2;
          c.cells.push_back(inst);
        }
      }
      continue;
    }
    const std::size_t b0 = c0 / fold, b1 = (c1 + fold - 1) / fold;
    heat_rows.push_back({r, {b0, b1 - b0}});
    const float x0 = first.x + static_cast<float>(b0 * fold) * first.w;
    const float x1 = first.x + static_cast<float>(std::min(b1 * fold, row.cell_count)) * first.w;
    CellInstance inst{{x0, first.y, x1 - x0, first.h}, {}, {}, static_cast<float>(heat_rows.size() - 1),
                      static_cast<float>(fold) * first.w, 0};
    std::copy(border, border + 4, inst.border);
    c.cells.push_back(inst);
  }
  if (heat_rows.empty()) return;
  c.heat_h = static_cast<int>(heat_rows.size());
  for (const auto& [r, h] : heat_rows) c.heat_w = std::max(c.heat_w, static_cast<int>(h.bins));
  c.heat.assign(static_cast<std::size_t>(c.heat_w) * c.heat_h, 0);
  for (std::size_t k = 0; k < heat_rows.size(); ++k) {
    const DiagramRow& row = d.rows[heat_rows[k].first];
    const HeatRow& h = heat_rows[k].second;
    for (std::size_t b = 0; b < h.bins; ++b) {
      const std::size_t i0 = (h.first_bin + b) * fold, i1 = std::min(i0 + fold, row.cell_count);
      float heat = 0;
      bool hazard = false, wrong = false;  // a bin with a hazard (or a wrong value) shows its colour
      for (std::size_t i = i0; i < i1; ++i) {
        heat = std::max(heat, d.cells[row.first_cell + i].heat);
        hazard |= d.cells[row.first_cell + i].hazard;
        wrong |= d.cells[row.first_cell + i].wrong;
      }
      float rgba[4];
      if (hazard) unpack(pal.cell_hazard, rgba);
      else if (wrong) unpack(pal.wrong, rgba);
      else heat_color(heat, rgba);
      if (hazard) rgba[3] = kHeatHatchAlpha / 255.0f;  // the shader hatches such a bin (and draws it opaque)
      c.heat[k * static_cast<std::size_t>(c.heat_w) + b] = pack_texel(rgba);
    }
  }
}

void GlDiagram::build_segments(Canvas& c, const Diagram& d) {
  c.segments.clear();
  const ViewTransform& v = c.view;
  // Parallel arrows of one colour between the same rows, in order along x: closer together than
  // their 2 px width they show as one band, drawn as one segment swept along x.
  const auto group = [&](const DiagramEdge& e) { return std::tuple(e.color, e.y0, e.y1, e.x1 - e.x0); };
  std::vector<std::size_t> order(d.edges.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple(group(d.edges[a]), d.edges[a].x0, a) < std::tuple(group(d.edges[b]), d.edges[b].x0, b);
  });
  struct Band {
    std::size_t first_listed, begin, end;  // its earliest arrow in d.edges; its arrows in `order`
  };
  std::vector<Band> bands;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1, first_listed = order[i];
    while (j < order.size() && group(d.edges[order[j]]) == group(d.edges[order[i]]) &&
           (d.edges[order[j]].x0 - d.edges[order[j - 1]].x0) * v.scale_x < 2.0f)
      first_listed = std::min(first_listed, order[j++]);
    bands.push_back({first_listed, i, j});
    i = j;
  }
  // Drawn in the diagram's order (where arrows cross, the later one stays on top).
  std::sort(bands.begin(), bands.end(), [](const Band& a, const Band& b) { return a.first_listed < b.first_listed; });
  const auto head = [&](const DiagramEdge& e, const float rgba[4]) {
    // Two 8 px strokes back from the tip, worked out in pixels, stored in canvas units.
    const float dx = (e.x1 - e.x0) * v.scale_x, dy = (e.y1 - e.y0) * v.scale_y;
    const float len = std::max(std::sqrt(dx * dx + dy * dy), 1e-3f), ux = dx / len, uy = dy / len;
    for (float side : {-1.0f, 1.0f}) {
      const float hx = e.x1 - 8.0f * (ux * 0.87f - side * uy * 0.5f) / std::max(v.scale_x, 1e-6f);
      const float hy = e.y1 - 8.0f * (uy * 0.87f + side * ux * 0.5f) / std::max(v.scale_y, 1e-6f);
      c.segments.push_back({{hx, hy, e.x1, e.y1}, {rgba[0], rgba[1], rgba[2], rgba[3]}, 2.0f, 0});
    }
  };
  for (const Band& band : bands) {
    const DiagramEdge &first = d.edges[order[band.begin]], &last = d.edges[order[band.end - 1]];
    const float sweep = last.x0 - first.x0;
    const float px0 = std::min(first.x0, first.x1) * v.scale_x + v.offset_x;
    const float px1 = (std::max(first.x0, first.x1) + sweep) * v.scale_x + v.offset_x;
    const float py0 = std::min(first.y0, first.y1) * v.scale_y + v.offset_y, py1 = std::max(first.y0, first.y1) * v.scale_y + v.offset_y;
    if (px1 + 8 < c.clip[0] || px0 - 8 > c.clip[2] || py1 < c.clip[1] || py0 > c.clip[3]) continue;
    SegmentInstance line{{first.x0, first.y0, first.x1, first.y1}, {}, 2.0f, sweep};
    unpack(first.color, line.rgba);
    c.segments.push_back(line);
    // Heads where they do not run into each other (10 px apart), and on the band's last arrow.
    float last_head = -1e30f;
    for (std::size_t k = band.begin; k < band.end; ++k) {
      const DiagramEdge& e = d.edges[order[k]];
      if (k + 1 < band.end && (e.x0 - last_head) * v.scale_x < 10.0f) continue;
      head(e, line.rgba);
      last_head = e.x0;
    }
  }
}

void GlDiagram::draw(int slot, const ViewTransform& view, int w, int h) {
  Canvas& c = canvases_[static_cast<std::size_t>(slot)];
  if (!c.uploaded) {
    glBindBuffer(GL_ARRAY_BUFFER, c.segment_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<long>(c.segments.size() * sizeof(SegmentInstance)), c.segments.data(), GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, c.cell_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<long>(c.cells.size() * sizeof(CellInstance)), c.cells.data(), GL_STATIC_DRAW);
    if (!c.heat.empty()) {
      glBindTexture(GL_TEXTURE_2D, c.heat_texture);
      glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
      glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, c.heat_w, c.heat_h, 0, GL_RGBA, GL_UNSIGNED_BYTE, c.heat.data());
    }
    c.uploaded = true;
  }
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!c.segments.empty()) {
    set_view(segment_program_, view, w, h);
    glBindVertexArray(c.segment_vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<int>(c.segments.size()));
  }
  if (!c.cells.empty()) {
    set_view(cell_program_, view, w, h);
    float hatch[4];
    unpack(hatch_color(*c.palette), hatch);
    glUniform4f(glGetUniformLocation(cell_program_, "u_hatch"), hatch[0], hatch[1], hatch[2], hatch[3]);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, c.heat_texture);
    glBindVertexArray(c.cell_vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<int>(c.cells.size()));
  }
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace sv::gui
