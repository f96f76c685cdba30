// Fonts, themes and the diagram canvas shared by the window and the offscreen renderer.
#include "gui/canvas.hpp"

#include <glad/gl.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "core/values.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] fonts and themes
// ============================================================================================

Fonts load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  Fonts f;
  const char* sans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  const char* mono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
  // Latin, general punctuation (–, −'s neighbours) and mathematical operators (⊕, −) for the sources.
  static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2010, 0x205E, 0x2200, 0x22FF, 0};
  // Glyphs one texel a pixel, at whole pixels: the atlas can be sampled nearest (upload_fonts).
  ImFontConfig whole_pixels;
  whole_pixels.OversampleH = 1;
  whole_pixels.PixelSnapH = true;
  if (fs::exists(sans)) f.text = io.Fonts->AddFontFromFileTTF(sans, kBaseFontPx * scale, &whole_pixels, ranges);
  if (!f.text) {  // ImGui's own font, at the same size so the layout matches
    ImFontConfig cfg;
    cfg.SizePixels = kBaseFontPx * scale;
    f.text = io.Fonts->AddFontDefault(&cfg);
  }
  if (fs::exists(mono)) f.mono = io.Fonts->AddFontFromFileTTF(mono, kBaseFontPx * scale, &whole_pixels, ranges);
  if (!f.mono) f.mono = f.text;
  io.Fonts->Build();
  return f;
}

void upload_fonts() {
  // The first time, the backend's shaders and font texture are made here rather than in NewFrame.
  if (!ImGui::GetIO().Fonts->TexID) {
    ImGui_ImplOpenGL3_CreateDeviceObjects();
  } else {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  // Every glyph and the white pixel of solid shapes sit on whole texels: nearest gives linear's
  // pixels, and llvmpipe samples it with one fetch instead of four.
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(reinterpret_cast<std::intptr_t>(ImGui::GetIO().Fonts->TexID)));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
}

const Palette& palette_named(const std::string& theme) {
  if (theme == "dark") return palette_dark();
  if (theme == "high-contrast") return palette_high_contrast();
  return palette_light();
}

void apply_theme(const std::string& theme, float scale) {
  ImGuiStyle style;
  if (theme == "dark") {
    ImGui::StyleColorsDark(&style);
  } else if (theme == "high-contrast") {
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    style.Colors[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
    style.Colors[ImGuiCol_Border] = ImVec4(1, 1, 1, 1);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.15f, 0.15f, 0.15f, 1);
    style.Colors[ImGuiCol_Button] = ImVec4(0.1f, 0.1f, 0.5f, 1);
    style.Colors[ImGuiCol_Header] = ImVec4(0.5f, 0.5f, 0, 1);
    style.WindowBorderSize = 2;
  } else {
    ImGui::StyleColorsLight(&style);
  }
  style.ScaleAllSizes(scale);
  style.AntiAliasedLinesUseTex = false;  // textured lines need linear sampling of the atlas (upload_fonts)
  ImGui::GetStyle() = style;
}

ImU32 im_color(std::uint32_t rgba) {
  return IM_COL32((rgba >> 24) & 0xFF, (rgba >> 16) & 0xFF, (rgba >> 8) & 0xFF, rgba & 0xFF);
}

// ============================================================================================
// [SECTION] the canvas
// ============================================================================================

namespace {

// The framebuffer pixels whose centres lie in the command's clip rectangle, for glScissor: x, y
// (rows from the bottom), width, height.
std::array<int, 4> scissor_of(const ImDrawCmd* cmd) {
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 scale = dd->FramebufferScale;
  const float fb_h = dd->DisplaySize.y * scale.y;
  auto px = [](float v) { return static_cast<int>(std::ceil(v - 0.5f)); };
  const int x0 = px((cmd->ClipRect.x - dd->DisplayPos.x) * scale.x), x1 = px((cmd->ClipRect.z - dd->DisplayPos.x) * scale.x);
  const int y0 = px((cmd->ClipRect.y - dd->DisplayPos.y) * scale.y), y1 = px((cmd->ClipRect.w - dd->DisplayPos.y) * scale.y);
  return {x0, static_cast<int>(fb_h) - y1, x1 - x0, y1 - y0};
}

// UserCallbackData carries the colour; the command's clip rectangle is the rectangle to clear.
void clear_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto [x, y, w, h] = scissor_of(cmd);
  if (w <= 0 || h <= 0) return;
  const auto rgba = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(cmd->UserCallbackData));
  glEnable(GL_SCISSOR_TEST);
  glScissor(x, y, w, h);
  glClearColor(((rgba >> 24) & 0xFF) / 255.0f, ((rgba >> 16) & 0xFF) / 255.0f, ((rgba >> 8) & 0xFF) / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

// UserCallbackData is the GlPictures slot; the command's clip rectangle is the part to copy.
void picture_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* s = static_cast<const GlPictures::Slot*>(cmd->UserCallbackData);
  const auto [x, y, w, h] = scissor_of(cmd);
  if (w <= 0 || h <= 0) return;
  const ImDrawData* dd = ImGui::GetDrawData();
  const ImVec2 scale = dd->FramebufferScale;
  const float fb_h = dd->DisplaySize.y * scale.y;
  const auto left = static_cast<int>(std::lround((s->at.x - dd->DisplayPos.x) * scale.x));
  const auto top = static_cast<int>(std::lround(fb_h - (s->at.y - dd->DisplayPos.y) * scale.y));
  glEnable(GL_SCISSOR_TEST);
  glScissor(x, y, w, h);
  GLint previous = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, s->framebuffer);
  // The picture's first row is its top; the framebuffer's rows count from the bottom.
  glBlitFramebuffer(0, 0, s->w, s->h, left, top, left + static_cast<int>(std::lround(static_cast<float>(s->w) * scale.x)),
                    top - static_cast<int>(std::lround(static_cast<float>(s->h) * scale.y)), GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous));
}

void* as_callback_data(std::uint32_t rgba) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(rgba)); }

void gl_canvas_callback(const ImDrawList*, const ImDrawCmd* cmd) {
  const auto* c = static_cast<const CanvasDraw*>(cmd->UserCallbackData);
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<int>(c->clip[0]), c->fb_h - static_cast<int>(c->clip[3]),
            static_cast<int>(c->clip[2] - c->clip[0]), static_cast<int>(c->clip[3] - c->clip[1]));
  c->gl->draw(c->slot, c->view, c->fb_w, c->fb_h);
}

// The smallest text a row label is shrunk to (pixels) before it gives way.
constexpr float kMinLabelPx = 11;

// Small diagrams fit with one scale (cells stay boxes with readable labels), their rows kept as
// high as the text; long ones fit their width and keep their rows readable (the folded heatmap).
void fit_view(CanvasState& cs, ImVec2 size) {
  const Diagram& d = cs.diagram;
  if (d.width <= 0 || d.height <= 0) return;
  const float sx = std::clamp(size.x / d.width, 1e-5f, 2.5f), sy = std::clamp(size.y / d.height, 0.05f, 2.5f);
  const float cell_w = d.cells.empty() ? 1 : d.cells.front().w;
  if (std::min(sx, sy) * cell_w >= 16) {
    // Boxes drawn to scale, but rows no lower than the text while the height allows: a wide
    // lesson (16 intervals) would otherwise shrink its rows below any readable label.
    cs.view.scale_x = std::min(sx, sy);
    cs.view.scale_y = std::max(cs.view.scale_x, std::min({sy, 1.0f, ImGui::GetFontSize() / d.layout.cell_h}));
  } else {
    cs.view.scale_x = sx;
    cs.view.scale_y = std::min(sy, 1.0f);
  }
  cs.view.offset_x = std::max(0.0f, (size.x - d.width * cs.view.scale_x) / 2);
  cs.view.offset_y = 0;
}

}  // namespace

void add_solid_rect(ImDrawList* dl, ImVec2 min, ImVec2 max, std::uint32_t rgba) {
  dl->PushClipRect(min, max, true);
  dl->AddCallback(clear_callback, as_callback_data(rgba));
  dl->PopClipRect();
}

void clear_window_background(std::uint32_t rgba) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  ImDrawCmd cmd;
  cmd.ClipRect = ImVec4(pos.x, pos.y + ImGui::GetFrameHeight(), pos.x + size.x, pos.y + size.y);
  cmd.TextureId = dl->CmdBuffer.empty() ? ImTextureID{} : dl->CmdBuffer[0].TextureId;
  cmd.UserCallback = clear_callback;
  cmd.UserCallbackData = as_callback_data(rgba);
  // First in the window's list: Begin() has already drawn the title bar and borders, which go over it.
  dl->CmdBuffer.push_front(cmd);
}

namespace {

// The pixels a clear command covers, in ImGui coordinates (whole framebuffer pixels).
ImVec4 cleared_pixels(const ImDrawData* dd, const ImDrawCmd& cmd) {
  const ImVec2 scale = dd->FramebufferScale, at = dd->DisplayPos;
  auto snap = [](float v, float s, float origin) { return std::ceil((v - origin) * s - 0.5f) / s + origin; };
  return ImVec4(snap(cmd.ClipRect.x, scale.x, at.x), snap(cmd.ClipRect.y, scale.y, at.y), snap(cmd.ClipRect.z, scale.x, at.x),
                snap(cmd.ClipRect.w, scale.y, at.y));
}

// r minus o, as up to four disjoint rectangles (above, below, then left and right of o).
void subtract(const ImVec4& r, const ImVec4& o, std::vector<ImVec4>& out) {
  if (o.x >= r.z || o.z <= r.x || o.y >= r.w || o.w <= r.y) {
    out.push_back(r);
    return;
  }
  const float top = std::max(r.y, o.y), bottom = std::min(r.w, o.w);
  if (o.y > r.y) out.push_back(ImVec4(r.x, r.y, r.z, o.y));
  if (o.w < r.w) out.push_back(ImVec4(r.x, o.w, r.z, r.w));
  if (o.x > r.x) out.push_back(ImVec4(r.x, top, o.x, bottom));
  if (o.z < r.z) out.push_back(ImVec4(o.z, top, r.z, bottom));
}

}  // namespace

int clip_hidden_draws(ImDrawData* dd) {
  // Clears large enough to be worth it, from the last drawn back; each hides what came before it.
  constexpr float kMinOccluderArea = 64 * 64;
  constexpr std::size_t kMaxPieces = 16;  // a command cut into more pieces is drawn whole
  std::vector<ImVec4> occluders, pieces, next;
  int clipped = 0;
  for (int l = dd->CmdListsCount - 1; l >= 0; --l) {
    ImDrawList* list = dd->CmdLists[l];
    std::vector<ImDrawCmd> kept;  // in reverse
    for (int k = list->CmdBuffer.Size - 1; k >= 0; --k) {
      const ImDrawCmd cmd = list->CmdBuffer[k];
      const bool clear = cmd.UserCallback == clear_callback || cmd.UserCallback == picture_callback;  // opaque
      pieces.assign(1, cmd.ClipRect);
      if (cmd.UserCallback && !clear) {
        // Another callback (the canvas' GL drawing) draws where it likes: dropped only when all hidden.
        const ImVec4& r = cmd.ClipRect;
        for (const ImVec4& o : occluders)
          if (cmd.UserCallback != ImDrawCallback_ResetRenderState && o.x <= r.x && o.y <= r.y && o.z >= r.z && o.w >= r.w) pieces.clear();
      } else {
        for (const ImVec4& o : occluders) {
          next.clear();
          for (const ImVec4& p : pieces) subtract(p, o, next);
          if (next.size() > kMaxPieces) break;
          pieces.swap(next);
        }
      }
      if (pieces.size() != 1 || pieces[0].x != cmd.ClipRect.x || pieces[0].y != cmd.ClipRect.y || pieces[0].z != cmd.ClipRect.z ||
          pieces[0].w != cmd.ClipRect.w)
        ++clipped;
      for (auto p = pieces.rbegin(); p != pieces.rend(); ++p) {
        ImDrawCmd piece = cmd;
        piece.ClipRect = *p;
        kept.push_back(piece);
      }
      if (clear) {
        const ImVec4 o = cleared_pixels(dd, cmd);
        if ((o.z - o.x) * (o.w - o.y) >= kMinOccluderArea) occluders.push_back(o);
      }
    }
    list->CmdBuffer.resize(static_cast<int>(kept.size()));
    std::copy(kept.rbegin(), kept.rend(), list->CmdBuffer.begin());
  }
  return clipped;
}

std::uint32_t window_background_over(std::uint32_t under) {
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  std::uint32_t out = 0xFF;
  const float channels[3] = {bg.x, bg.y, bg.z};
  for (int i = 0; i < 3; ++i) {
    const float below = static_cast<float>((under >> (24 - 8 * i)) & 0xFF) / 255.0f;
    const float mixed = channels[i] * bg.w + below * (1 - bg.w);
    out |= static_cast<std::uint32_t>(std::lround(std::clamp(mixed, 0.0f, 1.0f) * 255)) << (24 - 8 * i);
  }
  return out;
}

void draw_wrong_banner(const TraceView& tv, const std::string& theme, ImVec2 top_right, float height) {
  if (tv.wrong_outputs == 0) return;
  const std::size_t n = tv.trace.result.output.size();
  const std::string text = "WRONG: " + std::to_string(tv.wrong_outputs) + " of " + std::to_string(n) +
                           (n == 1 ? " output differs" : " outputs differ") + " from a correct scan";
  const ImVec2 ts = ImGui::CalcTextSize(text.c_str());
  const float pad = 0.4f * ImGui::GetFontSize();
  const ImVec2 b0(top_right.x - ts.x - 2 * pad, top_right.y);
  ImDrawList* dl = ImGui::GetForegroundDrawList();  // over the title bar too
  dl->AddRectFilled(b0, ImVec2(top_right.x, top_right.y + height), im_color(palette_named(theme).wrong));
  dl->AddText(ImVec2(b0.x + pad, top_right.y + (height - ts.y) / 2), IM_COL32_WHITE, text.c_str());
}

void draw_canvas(const TraceView& tv, int step, CanvasState& cs, GlDiagram& gl, const std::string& theme,
                 std::vector<std::unique_ptr<CanvasDraw>>& frame_draws, ImVec2 pos, ImVec2 size, bool interactive,
                 const char* id, const TraceView* race_free) {
  const Palette& pal = palette_named(theme);
  const float text_scale = ImGui::GetFontSize() / kBaseFontPx;
  if (cs.built_step != step || cs.built_for != &tv || cs.built_against != race_free || cs.built_theme != theme ||
      cs.text_scale != text_scale) {
    cs.text_scale = text_scale;
    cs.built_against = race_free;
    cs.diagram = build_diagram(tv, step, pal, DiagramLayout::scaled(text_scale), race_free);
    static std::uint64_t builds = 0;  // every canvas' builds: a new canvas at an old one's address differs
    cs.version = ++builds;
    cs.built_step = step;
    cs.built_for = &tv;
    cs.built_theme = theme;
  }
  if (cs.fit) fit_view(cs, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  add_solid_rect(dl, pos, ImVec2(pos.x + size.x, pos.y + size.y), pal.background);

  ImGui::SetCursorScreenPos(pos);
  ImGui::InvisibleButton(id, size, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonMiddle);
  const ImGuiIO& io = ImGui::GetIO();
  if (interactive && ImGui::IsItemHovered() && io.MouseWheel != 0) {
    const float factor = std::pow(1.15f, io.MouseWheel);
    const float mx = io.MousePos.x - pos.x, my = io.MousePos.y - pos.y;
    cs.view.offset_x = mx - (mx - cs.view.offset_x) * factor;
    cs.view.offset_y = my - (my - cs.view.offset_y) * factor;
    cs.view.scale_x *= factor;
    cs.view.scale_y *= factor;
    cs.fit = false;
  }
  if (interactive && ImGui::IsItemActive() && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
    cs.view.offset_x += io.MouseDelta.x;
    cs.view.offset_y += io.MouseDelta.y;
    cs.fit = false;
  }

  const ImVec2 fb_scale = io.DisplayFramebufferScale;
  auto draw = std::make_unique<CanvasDraw>();
  draw->gl = &gl;
  draw->view = {cs.view.scale_x * fb_scale.x, cs.view.scale_y * fb_scale.y, (pos.x + cs.view.offset_x) * fb_scale.x,
                (pos.y + cs.view.offset_y) * fb_scale.y};
  draw->clip[0] = pos.x * fb_scale.x;
  draw->clip[1] = pos.y * fb_scale.y;
  draw->clip[2] = (pos.x + size.x) * fb_scale.x;
  draw->clip[3] = (pos.y + size.y) * fb_scale.y;
  draw->fb_w = static_cast<int>(io.DisplaySize.x * fb_scale.x);
  draw->fb_h = static_cast<int>(io.DisplaySize.y * fb_scale.y);
  draw->slot = gl.prepare(&cs, cs.diagram, cs.version, pal, draw->view, draw->clip);
  dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
  dl->AddCallback(gl_canvas_callback, draw.get());
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  frame_draws.push_back(std::move(draw));

  // Labels: visible cells only; a label fades out as its cell gets too narrow to hold it.
  const Diagram& d = cs.diagram;
  cs.laid = CanvasLayout{};
  cs.laid.area = {pos.x, pos.y, size.x, size.y};
  const float s = cs.view.scale_x, sy = cs.view.scale_y;
  auto to_screen = [&](float x, float y) { return ImVec2(pos.x + cs.view.offset_x + x * s, pos.y + cs.view.offset_y + y * sy); };
  const ImU32 text = im_color(pal.text);
  const float font = ImGui::GetFontSize();
  const float room_w = (d.layout.label_w - 16) * s, room_h = d.layout.cell_h * sy;
  for (const DiagramRow& row : d.rows) {
    const ImVec2 at = to_screen(d.layout.margin, row.y + (d.layout.cell_h - font / std::max(sy, 1e-3f)) / 2);
    if (at.y > pos.y + size.y || at.y + font < pos.y) continue;
    // A fitted diagram can leave its label column narrower and its rows lower than the text: the
    // label then shrinks to fit, down to a readable size, and without the buffer's name if need be.
    // (The step's name is the label's text up to " | "; measured and drawn in place, no copy a frame.)
    const char* label = row.label.c_str();
    const char* whole_end = label + row.label.size();
    const char* step_end = label + std::min(row.label.find(" | "), row.label.size());
    auto fit = [&](const char* end) {
      return std::min({font, font * room_w / std::max(ImGui::CalcTextSize(label, end).x, 1.0f), room_h});
    };
    const float whole_px = fit(whole_end);
    // The whole label unless it would be clearly smaller than the step's name alone.
    const float step_px = whole_px < font ? fit(step_end) : whole_px;
    const bool whole = whole_px >= 0.9f * step_px;
    const float label_px = whole ? whole_px : step_px;
    if (label_px >= std::min(font, kMinLabelPx)) {
      const ImVec2 centred = to_screen(d.layout.margin, row.y + (d.layout.cell_h - label_px / std::max(sy, 1e-3f)) / 2);
      dl->AddText(ImGui::GetFont(), label_px, centred, im_color(pal.text), label, whole ? whole_end : step_end);  // full colour where it fits
      const ImVec2 ls = ImGui::GetFont()->CalcTextSizeA(label_px, FLT_MAX, 0, label, whole ? whole_end : step_end);
      cs.laid.labels.push_back({row.step, 0, {centred.x, centred.y, ls.x, ls.y}, std::string(label, whole ? whole_end : step_end), label_px});
    } else if (room_h >= font) {  // no room at the left: over the row, dimmed
      dl->AddText(ImVec2(pos.x + 4, at.y), (im_color(pal.text_dim) & ~IM_COL32_A_MASK) | (160u << IM_COL32_A_SHIFT),
                  row.label.c_str());
      const ImVec2 ls = ImGui::CalcTextSize(row.label.c_str());
      cs.laid.labels.push_back({row.step, 0, {pos.x + 4, at.y, ls.x, ls.y}, row.label, font});
    }
    if (cs.record)
      for (std::size_t i = 0; i < row.cell_count; ++i) {
        const DiagramCell& c = d.cells[row.first_cell + i];
        const ImVec2 a = to_screen(c.x, c.y), b = to_screen(c.x + c.w, c.y + c.h);
        cs.laid.cells.push_back({c.row, c.column, 0, {a.x, a.y, b.x - a.x, b.y - a.y}, c.label, "", 0, 0});
      }
    if (row.cell_count == 0) continue;
    const DiagramCell& first = d.cells[row.first_cell];
    const float cell_px = first.w * s;
    if (cell_px < 12) continue;
    const auto c0 = static_cast<std::size_t>(std::max(0.0f, std::floor((pos.x - to_screen(first.x, 0).x) / cell_px)));
    const float last_visible = std::max(0.0f, std::ceil((pos.x + size.x - to_screen(first.x, 0).x) / cell_px));
    const auto c1 = std::min(row.cell_count, static_cast<std::size_t>(last_visible) + 1);
    for (std::size_t i = c0; i < c1; ++i) {
      const DiagramCell& c = d.cells[row.first_cell + i];
      if (c.segment_head) {  // a segmented scan restarts here: a bar at the cell's left edge
        const ImVec2 top = to_screen(c.x, c.y - d.layout.row_gap * 0.2f), bottom = to_screen(c.x, c.y + c.h + d.layout.row_gap * 0.2f);
        dl->AddLine(top, bottom, im_color(pal.edge_right), std::max(2.0f, 0.08f * cell_px));
      }
      if (c.label.empty()) continue;
      const ImVec2 ts = ImGui::CalcTextSize(c.label.c_str());
      const float alpha = std::clamp((cell_px - 4 - ts.x) / std::max(ts.x * 0.4f, 1.0f), 0.0f, 1.0f);
      if (alpha <= 0) continue;
      const ImVec2 center = to_screen(c.x + c.w / 2, c.y + c.h / 2);
      if (cs.record) {
        LaidCell& laid = cs.laid.cells[cs.laid.cells.size() - row.cell_count + i];
        laid.text = c.label, laid.text_px = font, laid.text_w = ts.x;
      }
      dl->AddText(ImVec2(center.x - ts.x / 2, center.y - ts.y / 2), (text & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha * 255) << IM_COL32_A_SHIFT), c.label.c_str());
    }
  }
  dl->PopClipRect();

  // Hover: the cell's value, and the hazard it is part of.
  if (interactive && ImGui::IsItemHovered() && !d.rows.empty() && !d.cells.empty()) {
    const DiagramLayout& L = d.layout;
    const float cx = (io.MousePos.x - pos.x - cs.view.offset_x) / s, cy = (io.MousePos.y - pos.y - cs.view.offset_y) / sy;
    const int r = static_cast<int>(std::floor((cy - L.margin) / (L.cell_h + L.row_gap)));
    const float col_f = (cx - L.margin - L.label_w) / L.cell_w;
    if (r >= 0 && r < static_cast<int>(d.rows.size()) && col_f >= 0 && cy - d.rows[r].y <= L.cell_h) {
      const auto col = static_cast<std::size_t>(col_f);
      if (col < d.rows[r].cell_count) {
        const DiagramCell& c = d.cells[d.rows[r].first_cell + col];
        ImGui::BeginTooltip();
        ImGui::Text("%s[%zu] = %s", tv.trace.buffers[d.rows[r].buffer].name.c_str(), col,
                    c.label.empty() ? "(not written yet)" : c.label.c_str());
        ImGui::TextDisabled("after step %d: %s", r, tv.trace.steps[r].label().c_str());
        if (c.wrong) ImGui::Text("wrong: a correct run holds %s here", c.expected.c_str());
        for (int h : c.hazards) {
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.88f, 0.19f, 0.19f, 1));
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
          ImGui::TextUnformatted(describe_hazard(tv.trace, tv.hazards[h]).c_str());
          ImGui::PopTextWrapPos();
          ImGui::PopStyleColor();
        }
        ImGui::EndTooltip();
      }
    }
  }
}

GlPictures::~GlPictures() {
  for (const auto& s : slots_) {
    glDeleteFramebuffers(1, &s->framebuffer);
    glDeleteTextures(1, &s->texture);
  }
}

void GlPictures::add(ImDrawList* dl, std::size_t slot, std::uint64_t version, int w, int h, const std::uint32_t* rgba, ImVec2 at) {
  while (slot >= slots_.size()) slots_.push_back(std::make_unique<Slot>());
  Slot& s = *slots_[slot];
  if (!s.texture) {
    glGenTextures(1, &s.texture);
    glGenFramebuffers(1, &s.framebuffer);
  }
  if (s.version != version || s.w != w || s.h != h) {
    s.version = version;
    s.w = w;
    s.h = h;
    glBindTexture(GL_TEXTURE_2D, s.texture);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLint previous = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, s.framebuffer);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s.texture, 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous));
  }
  s.at = at;
  dl->PushClipRect(at, ImVec2(at.x + static_cast<float>(w), at.y + static_cast<float>(h)), true);
  dl->AddCallback(picture_callback, &s);
  dl->PopClipRect();
}

std::vector<unsigned char> encode_png(int w, int h, const std::vector<unsigned char>& rgba) {
  // GL rows run bottom-up.
  std::vector<unsigned char> flipped(rgba.size());
  for (int y = 0; y < h; ++y)
    std::copy_n(&rgba[static_cast<std::size_t>(h - 1 - y) * w * 4], w * 4, &flipped[static_cast<std::size_t>(y) * w * 4]);
  std::vector<unsigned char> png;
  const auto append = [](void* to, void* data, int size) {
    auto& out = *static_cast<std::vector<unsigned char>*>(to);
    const auto* bytes = static_cast<const unsigned char*>(data);
    out.insert(out.end(), bytes, bytes + size);
  };
  if (!stbi_write_png_to_func(append, &png, w, h, 4, flipped.data(), w * 4)) throw std::runtime_error("cannot encode the PNG");
  return png;
}

void glfw_error(int code, const char* what) { std::cerr << "scanviz: GLFW error " << code << ": " << what << "\n"; }

}  // namespace sv::gui
