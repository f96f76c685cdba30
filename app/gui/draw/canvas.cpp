// Fonts, themes and the diagram canvas shared by the window and the offscreen renderer.
#include "gui/draw/canvas.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/model/ink.hpp"

#include <glad/gl.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "core/values.hpp"
#include "gui/model/canvas_fit.hpp"
#include "gui/draw/legend.hpp"

namespace sv::gui {

namespace fs = std::filesystem;

// ============================================================================================
// [SECTION] fonts and themes
// ============================================================================================

Fonts load_fonts(float scale, float diagram_scale) {
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
  f.diagram = f.text;
  if (diagram_scale > 0 && diagram_scale != scale) {
    if (fs::exists(sans)) f.diagram = io.Fonts->AddFontFromFileTTF(sans, kBaseFontPx * diagram_scale, &whole_pixels, ranges);
    if (!f.diagram) {
      ImFontConfig cfg;
      cfg.SizePixels = kBaseFontPx * diagram_scale;
      f.diagram = io.Fonts->AddFontDefault(&cfg);
    }
  }
  io.Fonts->Build();
  return f;
}

void upload_fonts() {
  // The first time, the backend's shaders and font texture are made here rather than in NewFrame;
  // later only the font texture. That the first time is past is kept in the context (io.UserData,
  // which nothing else uses): building the atlas clears its texture id, and making the device
  // objects again would leave the backend's recorded vertex buffer sizes stale (GL errors on every
  // frame after a font change, as when lecture mode or a resize changes the scale).
  static char device_objects_made;
  ImGuiIO& io = ImGui::GetIO();
  if (io.UserData != &device_objects_made) {
    ImGui_ImplOpenGL3_CreateDeviceObjects();
    io.UserData = &device_objects_made;
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
  // Dear ImGui's own colours changed where they fall under WCAG 2.1 AA (tests/gui/test_contrast.py):
  // its dimmed text (labels, line numbers, notes) 4.5:1 against the windows, the check mark and the
  // slider's grab 3:1 (white text over the grab 4.5:1), and menus, popups and floating windows
  // opaque, so that the panels under a menu or the charts do not show through them.
  const bool dark = theme == "dark" || theme == "high-contrast";
  style.Colors[ImGuiCol_TextDisabled] = dark ? ImVec4(0.66f, 0.66f, 0.66f, 1) : ImVec4(0.36f, 0.36f, 0.36f, 1);
  style.Colors[ImGuiCol_CheckMark] = dark ? ImVec4(0.45f, 0.75f, 1.0f, 1) : ImVec4(0.05f, 0.35f, 0.70f, 1);
  if (dark) {  // white text over these blues, and borders (a menu's edge) that show
    style.Colors[ImGuiCol_SliderGrab] = ImVec4(0.16f, 0.38f, 0.72f, 1);
    style.Colors[ImGuiCol_SliderGrabActive] = ImVec4(0.12f, 0.30f, 0.60f, 1);
    style.Colors[ImGuiCol_Header] = ImVec4(0.16f, 0.33f, 0.58f, 1);
    style.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.18f, 0.38f, 0.68f, 1);
    style.Colors[ImGuiCol_HeaderActive] = ImVec4(0.14f, 0.32f, 0.60f, 1);
    if (theme == "dark") style.Colors[ImGuiCol_Border] = ImVec4(0.55f, 0.55f, 0.60f, 1);
  }
  style.Colors[ImGuiCol_PopupBg].w = style.Colors[ImGuiCol_MenuBarBg].w = style.Colors[ImGuiCol_WindowBg].w = 1;
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

}  // namespace

void add_solid_rect(ImDrawList* dl, ImVec2 min, ImVec2 max, std::uint32_t rgba) {
  dl->PushClipRect(min, max, true);
  dl->AddCallback(clear_callback, as_callback_data(rgba));
  dl->PopClipRect();
}

void keep_in_display() {
  const ImVec2 display = ImGui::GetIO().DisplaySize, pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const ImVec2 fit(std::min(size.x, display.x), std::min(size.y, display.y));
  const ImVec2 at(std::clamp(pos.x, 0.0f, display.x - fit.x), std::clamp(pos.y, 0.0f, display.y - fit.y));
  if (fit.x != size.x || fit.y != size.y) ImGui::SetWindowSize(fit);
  if (at.x != pos.x || at.y != pos.y) ImGui::SetWindowPos(at);
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
  const std::uint32_t fill = palette_named(theme).wrong;
  dl->AddRectFilled(b0, ImVec2(top_right.x, top_right.y + height), im_color(fill));
  // Black or white, whichever contrasts more with the fill (white on the dark theme's pink was 2:1).
  dl->AddText(ImVec2(b0.x + pad, top_right.y + (height - ts.y) / 2), im_color(ink_on(fill)), text.c_str());
}

namespace {

// The values' widths and the labels', measured once per diagram and font (a large n has many cells).
void measure(CanvasState& cs, ImFont* font, float font_px) {
  if (cs.measured_version == cs.version && cs.measured_px == font_px) return;
  cs.measured_version = cs.version;
  cs.measured_px = font_px;
  cs.text_w = cs.short_text_w = cs.label_w = cs.step_label_w = 0;
  std::string longest;
  for (const DiagramCell& c : cs.diagram.cells)
    if (c.label.size() > longest.size()) longest = c.label;
  // Proportional digits are about as wide as each other: the longest values are the widest, give or take.
  for (const DiagramCell& c : cs.diagram.cells) {
    if (c.label.size() + 1 < longest.size()) continue;
    cs.text_w = std::max(cs.text_w, font->CalcTextSizeA(font_px, FLT_MAX, 0, c.label.c_str()).x);
    cs.short_text_w = std::max(cs.short_text_w, font->CalcTextSizeA(font_px, FLT_MAX, 0, abbreviate_value(c.label).c_str()).x);
  }
  for (const DiagramRow& r : cs.diagram.rows) {
    const char* s = r.label.c_str();
    cs.label_w = std::max(cs.label_w, font->CalcTextSizeA(font_px, FLT_MAX, 0, s).x);
    cs.step_label_w = std::max(cs.step_label_w, font->CalcTextSizeA(font_px, FLT_MAX, 0, s, s + std::min(r.label.find(" | "), r.label.size())).x);
  }
}

// The row labels' column, pixels: the labels (whole, or the steps' names alone) at `px`, but no
// more than a quarter of the canvas unless the labels need it at the smallest label size.
float label_column(const CanvasState& cs, float width, float font_px, bool whole, float px) {
  const float pad = 0.5f * font_px, w = (whole ? cs.label_w : cs.step_label_w) / font_px;
  return std::max(std::min(w * px, 0.25f * width - 2 * pad), w * kMinLabelPx) + 2 * pad;
}

// The legend's swatch for `item` in the rectangle [a, b]: the arrow, bar or cell the diagram draws,
// with the race cell's hatch and the wrong cell's outline and corner mark.
void draw_legend_swatch(ImDrawList* dl, const LegendItem& item, const Palette& pal, ImVec2 a, ImVec2 b) {
  const float mid = (a.y + b.y) / 2, h = b.y - a.y;
  switch (item.mark) {
    case LegendMark::Left:
    case LegendMark::Right:
    case LegendMark::Copy: {
      const float head = std::min(0.45f * h, 8.0f);
      dl->AddLine(ImVec2(a.x, mid), ImVec2(b.x - head, mid), im_color(item.rgba), 2);
      dl->AddTriangleFilled(ImVec2(b.x, mid), ImVec2(b.x - head, mid - 0.6f * head), ImVec2(b.x - head, mid + 0.6f * head), im_color(item.rgba));
      return;
    }
    case LegendMark::SegmentHead:
      dl->AddRectFilled(ImVec2((a.x + b.x) / 2 - 2, a.y), ImVec2((a.x + b.x) / 2 + 2, b.y), im_color(item.rgba));
      return;
    case LegendMark::Caption: return;
    default: break;
  }
  const bool wrong = item.mark == LegendMark::Wrong;
  dl->AddRectFilled(a, b, im_color(wrong ? pal.cell : item.rgba));
  if (item.mark == LegendMark::Race) {
    // The shader's stripes: x + y (the framebuffer's y, from the bottom) within kHatchWidth of a multiple
    // of kHatchPeriod, which on the screen are lines running down to the right.
    dl->PushClipRect(a, b, true);
    const float fb_h = ImGui::GetIO().DisplaySize.y;
    const float first = a.x - std::fmod(a.x + (fb_h - a.y), kHatchPeriod) - std::ceil(h / kHatchPeriod) * kHatchPeriod;
    for (float x = first; x < b.x; x += kHatchPeriod)
      dl->AddQuadFilled(ImVec2(x, a.y), ImVec2(x + kHatchWidth, a.y), ImVec2(x + kHatchWidth + h, b.y), ImVec2(x + h, b.y),
                        im_color(hatch_color(pal)));
    dl->PopClipRect();
  }
  dl->AddRect(a, b, im_color(pal.border));
  if (wrong) {
    dl->AddRect(ImVec2(a.x + 3.5f, a.y + 3.5f), ImVec2(b.x - 3.5f, b.y - 3.5f), im_color(pal.wrong), 0, 0, 3);
    const float k = wrong_corner_px(b.x - a.x, h);
    dl->AddTriangleFilled(ImVec2(b.x - k, a.y), ImVec2(b.x, a.y), ImVec2(b.x, a.y + k), im_color(pal.wrong));
  }
}

// The legend's text, pixels: at a lecture's font the smallest a cell's value is drawn with (legible
// from the back of the hall), so that the strip takes little of the cells' height; at a desk's font up
// to 13 px; never under the labels' minimum.
float legend_text_px(float font_px) { return std::max({kMinLabelPx, min_cell_text_px(font_px), std::min(0.8f * font_px, 13.0f)}); }

LegendLayout lay_out_legend(const std::vector<LegendItem>& items, ImFont* font, float font_px, float width) {
  const float px = legend_text_px(font_px);
  return layout_legend(items, width - font_px, px, [&](const std::string& t) { return font->CalcTextSizeA(px, FLT_MAX, 0, t.c_str()).x; });
}

// The legend's strip: the entries' lines and a fifth of a line's gap above and below.
float legend_strip_px(const LegendLayout& laid, float font_px) { return laid.items.empty() ? 0 : laid.height + 0.4f * legend_text_px(font_px); }

// Draws the laid-out legend in the strip from `top`, its lines from `left`, and lists its entries in `laid`.
void draw_legend(const LegendLayout& legend, const Palette& pal, ImFont* font, float font_px, float left, float top, CanvasLayout& laid) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float px = legend_text_px(font_px);
  top += 0.2f * px;
  for (const PlacedLegendItem& p : legend.items) {
    const float x = left + p.x, y = top + p.y;
    if (p.item.mark != LegendMark::Caption) {
      draw_legend_swatch(dl, p.item, pal, ImVec2(std::round(x), std::round(y)), ImVec2(std::round(x + p.swatch_w), std::round(y + px)));
      laid.legend.push_back({p.item.rgba, p.item.text, legend_mark_name(p.item.mark), {std::round(x), std::round(y), std::round(p.swatch_w), px}});
    }
    dl->AddText(font, px, ImVec2(std::round(left + p.text_x), std::round(y)), im_color(pal.text), p.item.text.c_str());
  }
}

void build(CanvasState& cs, const TraceView& tv, int step, const Palette& pal, const DiagramLayout& L,
           const TraceView* race_free) {
  cs.diagram = build_diagram(tv, step, pal, L, race_free);
  static std::uint64_t builds = 0;  // every canvas' builds: a new canvas at an old one's address differs
  cs.version = ++builds;
  cs.built_row_gap = L.row_gap;
}

}  // namespace

float legend_strip_height(const TraceView& tv, const TraceView* race_free, const Palette& pal, ImFont* font, float font_px, float width) {
  return legend_strip_px(lay_out_legend(legend_items(tv, race_free, pal), font, font_px, width), font_px);
}

ImVec2 canvas_to_screen(const CanvasState& cs, ImVec2 pos, int column, float x, float y) {
  const CanvasBand* band = &cs.bands.front();
  for (const CanvasBand& b : cs.bands)
    if (column >= b.first_column) band = &b;
  return ImVec2(pos.x + band->view.offset_x + x * band->view.scale_x, pos.y + band->view.offset_y + y * band->view.scale_y);
}

void draw_canvas(const TraceView& tv, int step, CanvasState& cs, GlDiagram& gl, const std::string& theme,
                 std::vector<std::unique_ptr<CanvasDraw>>& frame_draws, ImVec2 pos, ImVec2 size, bool interactive,
                 const char* id, const TraceView* race_free) {
  const Palette& pal = palette_named(theme);
  ImFont* font = ImGui::GetFont();
  const float font_px = ImGui::GetFontSize();
  const float text_scale = font_px / kBaseFontPx;
  DiagramLayout L = DiagramLayout::scaled(text_scale);
  L.cell_w = std::max(L.cell_w, cs.min_cell_w);
  if (cs.built_step != step || cs.built_for != &tv || cs.built_against != race_free || cs.built_theme != theme ||
      cs.text_scale != text_scale) {
    cs.text_scale = text_scale;
    cs.built_against = race_free;
    cs.built_step = step;
    cs.built_for = &tv;
    cs.built_theme = theme;
    build(cs, tv, step, pal, L, race_free);
  }
  measure(cs, font, font_px);
  const float legible = min_cell_text_px(font_px);
  const int columns = cs.diagram.rows.empty() ? 0 : static_cast<int>(std::max_element(cs.diagram.rows.begin(), cs.diagram.rows.end(),
      [](const DiagramRow& a, const DiagramRow& b) { return a.cell_count < b.cell_count; })->cell_count);
  DiagramLayout as_built = cs.diagram.layout;  // cells widened for their values
  as_built.row_gap = L.row_gap;                // fitted from the layout's own gap, so the fit is stable
  CanvasFit fit;
  fit.scale_x = cs.view.scale_x, fit.scale_y = cs.view.scale_y, fit.row_gap = cs.built_row_gap;
  fit.columns_per_band = columns;
  // The legend's strip under the cells: the marks the trace shows, and the heat map's colours where
  // the cells show them (which takes a fit to know, so the strip is laid out again then).
  if (cs.legend_for != &tv || cs.legend_against != race_free || cs.legend_theme != theme) {
    cs.legend_for = &tv, cs.legend_against = race_free, cs.legend_theme = theme;
    cs.legend = legend_items(tv, race_free, pal);
  }
  const float canvas_h = size.y;
  LegendLayout legend = lay_out_legend(cs.legend, font, font_px, size.x);
  const auto with_heat = [&] {
    std::vector<LegendItem> items = heat_legend_items(cs.diagram);
    items.insert(items.end(), cs.legend.begin(), cs.legend.end());
    return lay_out_legend(items, font, font_px, size.x);
  };
  size.y = std::max(0.0f, canvas_h - legend_strip_px(legend, font_px));
  if (cs.fit && cs.diagram.width > 0) {
    // The labels no larger than the values; whole, unless only the steps' names leave the values
    // legible. The heat map's colours take more of the legend's strip.
    FitInput in{size.x, size.y, 0, columns, static_cast<int>(cs.diagram.rows.size()), as_built, font_px, cs.text_w, cs.short_text_w};
    for (const bool whole : {true, false}) {
      in.height = size.y;
      in.label_px = label_column(cs, size.x, font_px, whole, font_px);
      fit = fit_canvas(in);
      cs.label_text_px = std::clamp(fit.heat ? legible : fit.text_px, std::min(font_px, kMinLabelPx), font_px);
      in.label_px = label_column(cs, size.x, font_px, whole, cs.label_text_px);
      fit = fit_canvas(in);
      if (fit.heat) {
        in.height = std::max(0.0f, canvas_h - legend_strip_px(with_heat(), font_px));
        fit = fit_canvas(in);
        fit.heat = true;
      }
      cs.label_px = in.label_px;
      cs.whole_labels = whole;
      if (!fit.heat) break;
    }
  } else {
    // Drawn as zoomed (or, offscreen, one to one): the values shrink, then abbreviate, then give way.
    const float cell_w = as_built.cell_w * fit.scale_x, cell_h = as_built.cell_h * fit.scale_y;
    const auto px_for = [&](float w) { return std::min({font_px, (cell_w - 2 * kCellPadX) * font_px / std::max(w, 1.0f), cell_h - 2 * kCellPadY}); };
    fit.text_px = px_for(cs.text_w);
    if (fit.text_px < legible) fit.abbreviate = true, fit.text_px = px_for(cs.short_text_w);
    fit.heat = fit.text_px < legible;
  }
  if (fit.heat) legend = with_heat();
  size.y = std::max(0.0f, canvas_h - legend_strip_px(legend, font_px));
  if (fit.row_gap != cs.built_row_gap) {  // the rows grew into their gaps
    L.row_gap = fit.row_gap;
    build(cs, tv, step, pal, L, race_free);
  }
  const Diagram* d = &cs.diagram;
  const DiagramLayout& DL = d->layout;
  const float label_px = cs.label_px > 0 ? cs.label_px : (L.margin + L.label_w) * cs.view.scale_x;
  const float cells_left = pos.x + label_px;

  // The bands: columns [first, end) each, one under the other, cells starting right of the labels.
  cs.bands.clear();
  if (cs.fit) {
    cs.view.scale_x = fit.scale_x, cs.view.scale_y = fit.scale_y;
    const float used = static_cast<float>(fit.columns_per_band) * DL.cell_w * fit.scale_x;
    const float spare = fit.bands == 1 ? std::max(0.0f, (size.x - label_px - used) / 2) : 0;  // one band: centred
    cs.view.offset_x = label_px + spare - (DL.margin + DL.label_w) * fit.scale_x;
    cs.view.offset_y = 0;
  }
  const float band_pitch = fit.band_px + DL.row_gap * fit.scale_y;
  for (int b = 0; b < fit.bands; ++b) {
    CanvasBand band;
    band.first_column = b * fit.columns_per_band;
    band.end_column = std::min(columns, band.first_column + fit.columns_per_band);
    band.view = cs.view;
    band.view.offset_x -= static_cast<float>(band.first_column) * DL.cell_w * fit.scale_x;
    band.view.offset_y += static_cast<float>(b) * band_pitch;
    band.top = fit.bands == 1 ? pos.y : pos.y + static_cast<float>(b) * band_pitch;
    // Half the gap under a wrapped band is still its own: the last row's lower edge is drawn there.
    band.bottom = fit.bands == 1 ? pos.y + size.y : band.top + fit.band_px + 0.5f * DL.row_gap * fit.scale_y;
    cs.bands.push_back(band);
  }

  for (int b = 0; b < kMaxBands; ++b) gl.reserve(reinterpret_cast<const char*>(&cs) + b);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  add_solid_rect(dl, pos, ImVec2(pos.x + size.x, pos.y + canvas_h), pal.background);
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

  cs.laid = CanvasLayout{};
  cs.laid.area = {pos.x, pos.y, size.x, canvas_h};
  cs.laid.legend_area = {pos.x, pos.y + size.y, size.x, canvas_h - size.y};
  cs.laid.cells_area = {cells_left, pos.y, pos.x + size.x - cells_left, size.y};
  cs.laid.bands = fit.bands;
  cs.laid.min_text_px = legible;
  cs.laid.heat = fit.heat;
  const ImVec2 fb_scale = io.DisplayFramebufferScale;
  const ImU32 text = im_color(pal.text);
  const float pad = 0.5f * font_px;
  for (std::size_t b = 0; b < cs.bands.size(); ++b) {
    const CanvasBand& band = cs.bands[b];
    const ViewTransform& v = band.view;
    const float right = fit.bands == 1 ? pos.x + size.x
                                       : cells_left + static_cast<float>(band.end_column - band.first_column) * DL.cell_w * v.scale_x + 1;
    auto draw = std::make_unique<CanvasDraw>();
    draw->gl = &gl;
    draw->view = {v.scale_x * fb_scale.x, v.scale_y * fb_scale.y, (pos.x + v.offset_x) * fb_scale.x, (pos.y + v.offset_y) * fb_scale.y};
    draw->clip[0] = cells_left * fb_scale.x;
    draw->clip[1] = band.top * fb_scale.y;
    draw->clip[2] = std::min(right, pos.x + size.x) * fb_scale.x;
    draw->clip[3] = std::min(band.bottom, pos.y + size.y) * fb_scale.y;
    draw->fb_w = static_cast<int>(io.DisplaySize.x * fb_scale.x);
    draw->fb_h = static_cast<int>(io.DisplaySize.y * fb_scale.y);
    draw->slot = gl.prepare(reinterpret_cast<const char*>(&cs) + b, *d, cs.version, pal, draw->view, draw->clip, fit.heat);
    dl->PushClipRect(ImVec2(cells_left, band.top), ImVec2(std::min(right, pos.x + size.x), std::min(band.bottom, pos.y + size.y)), true);
    dl->AddCallback(gl_canvas_callback, draw.get());
    dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
    frame_draws.push_back(std::move(draw));
    auto to_screen = [&](float x, float y) { return ImVec2(pos.x + v.offset_x + x * v.scale_x, pos.y + v.offset_y + y * v.scale_y); };
    for (const DiagramRow& row : d->rows) {
      const auto c0 = std::min(static_cast<std::size_t>(band.first_column), row.cell_count);
      const auto c1 = std::min(static_cast<std::size_t>(band.end_column), row.cell_count);
      for (std::size_t i = c0; i < c1; ++i) {
        const DiagramCell& c = d->cells[row.first_cell + i];
        const ImVec2 a = to_screen(c.x, c.y), e = to_screen(c.x + c.w, c.y + c.h);
        const bool visible = e.x > cells_left && a.x < pos.x + size.x && e.y > pos.y && a.y < pos.y + size.y;
        if (!visible && !cs.record) continue;
        LaidCell laid{c.row, c.column, static_cast<int>(b), {a.x, a.y, e.x - a.x, e.y - a.y}, c.label, "", 0, 0, c.hazard, c.wrong};
        if (c.segment_head && visible)  // a segmented scan restarts here: a bar at the cell's left edge
          dl->AddLine(to_screen(c.x, c.y - DL.row_gap * 0.2f), to_screen(c.x, c.y + c.h + DL.row_gap * 0.2f), im_color(pal.edge_right),
                      std::max(2.0f, 0.08f * (e.x - a.x)));
        if (visible && !fit.heat && !c.label.empty()) {
          laid.text = fit.abbreviate ? abbreviate_value(c.label) : c.label;
          laid.text_px = fit.text_px;
          laid.text_w = font->CalcTextSizeA(fit.text_px, FLT_MAX, 0, laid.text.c_str()).x;
          dl->AddText(font, fit.text_px, ImVec2(std::round((a.x + e.x - laid.text_w) / 2), std::round((a.y + e.y - fit.text_px) / 2)), text,
                      laid.text.c_str());
        }
        if (cs.record) cs.laid.cells.push_back(std::move(laid));
      }
    }
    dl->PopClipRect();

    // The row labels in their column, each beside its row, shrunk to fit (down to a readable size)
    // and without the buffer's name if need be.
    dl->PushClipRect(ImVec2(pos.x, band.top), ImVec2(cells_left, std::min(band.bottom, pos.y + size.y)), true);
    const float room_w = label_px - 2 * pad, pitch = (DL.cell_h + DL.row_gap) * v.scale_y;
    for (const DiagramRow& row : d->rows) {
      const char* label = row.label.c_str();
      const char* whole_end = label + row.label.size();
      const char* step_end = label + std::min(row.label.find(" | "), row.label.size());
      const float most = cs.label_px > 0 ? cs.label_text_px : font_px;
      auto fits = [&](const char* end) {
        return std::min({most, font_px * room_w / std::max(font->CalcTextSizeA(font_px, FLT_MAX, 0, label, end).x, 1.0f), 0.9f * pitch});
      };
      const float whole_px = cs.whole_labels ? fits(whole_end) : 0;
      const float step_px = whole_px < most ? fits(step_end) : whole_px;
      const bool whole = whole_px >= 0.9f * step_px;
      const float px = whole ? whole_px : step_px;
      if (px < std::min(font_px, kMinLabelPx) && !cs.fit) continue;  // zoomed out past them
      const char* end = whole ? whole_end : step_end;
      const ImVec2 ls = font->CalcTextSizeA(px, FLT_MAX, 0, label, end);
      const float y = pos.y + v.offset_y + (row.y + DL.cell_h / 2) * v.scale_y - px / 2;
      if (y + px < band.top || y > band.bottom) continue;
      dl->AddText(font, px, ImVec2(pos.x + pad, std::round(y)), text, label, end);
      cs.laid.labels.push_back({row.step, static_cast<int>(b), {pos.x + pad, std::round(y), ls.x, ls.y}, std::string(label, end), px});
    }
    dl->PopClipRect();
  }
  draw_legend(legend, pal, font, font_px, pos.x + pad, pos.y + size.y, cs.laid);

  // Hover: the cell's value, and the hazard it is part of.
  if (interactive && ImGui::IsItemHovered() && !d->rows.empty() && !d->cells.empty() && io.MousePos.x >= cells_left) {
    const CanvasBand* band = nullptr;
    for (const CanvasBand& b : cs.bands)
      if (io.MousePos.y >= b.top && io.MousePos.y < b.bottom) band = &b;
    if (band) {
      const ViewTransform& v = band->view;
      const float cx = (io.MousePos.x - pos.x - v.offset_x) / v.scale_x, cy = (io.MousePos.y - pos.y - v.offset_y) / v.scale_y;
      const int r = static_cast<int>(std::floor((cy - DL.margin) / (DL.cell_h + DL.row_gap)));
      const float col_f = (cx - DL.margin - DL.label_w) / DL.cell_w;
      if (r >= 0 && r < static_cast<int>(d->rows.size()) && col_f >= static_cast<float>(band->first_column) &&
          col_f < static_cast<float>(band->end_column) && cy - d->rows[r].y <= DL.cell_h) {
        const auto col = static_cast<std::size_t>(col_f);
        if (col < d->rows[r].cell_count) {
          const DiagramCell& c = d->cells[d->rows[r].first_cell + col];
          ImGui::BeginTooltip();
          ImGui::Text("%s[%zu] = %s", tv.trace.buffers[d->rows[r].buffer].name.c_str(), col,
                      c.label.empty() ? "(not written yet)" : c.label.c_str());
          ImGui::TextDisabled("after step %d: %s", r, tv.trace.steps[r].label().c_str());
          if (c.wrong) ImGui::Text("wrong: a correct run holds %s here", c.expected.c_str());
          for (int h : c.hazards) {
            ImGui::PushStyleColor(ImGuiCol_Text, bad_text());
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
            // Without the emulator form's line numbers: the source pane lights the step's lines in
            // the form it shows.
            ImGui::TextUnformatted(describe_hazard(tv.trace, tv.hazards[h], false).c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopStyleColor();
          }
          ImGui::EndTooltip();
        }
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

}  // namespace sv::gui
