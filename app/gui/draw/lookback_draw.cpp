// The look-back view's scene drawn: with ImGui's draw list, and as SVG (gui/draw/lookback_draw.hpp).
#include "gui/draw/lookback_draw.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "gui/draw/canvas.hpp"
#include "gui/model/canvas_fit.hpp"
#include "svg.hpp"

namespace sv::gui {

namespace {

// A label that fits `width`: the value, else abbreviated as the diagram's cells abbreviate it (1.2e7),
// else cut with ".." at its end: its leading characters say more than a blank cell; "" when not even
// one fits. `text_width` measures a string as it will be drawn.
template <class Measure>
std::string fitted_label(const std::string& label, float width, Measure text_width) {
  if (text_width(label) <= width) return label;
  const std::string shorter = abbreviate_value(label);
  if (text_width(shorter) <= width) return shorter;
  for (std::size_t keep = shorter.size(); keep-- > 1;) {
    std::string cut = shorter.substr(0, keep) + "..";
    if (text_width(cut) <= width) return cut;
  }
  return "";
}

}  // namespace

void draw_lookback_scene(const LookbackScene& s, float origin_x, float origin_y, bool lanes_drawn) {
  const ImVec2 origin(origin_x, origin_y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
  for (const SceneRect& r : s.rects) {
    const ImVec2 a(origin.x + r.x, origin.y + r.y), b(a.x + r.w, a.y + r.h);
    if (b.x < clip_min.x || a.x > clip_max.x || b.y < clip_min.y || a.y > clip_max.y) continue;
    if (!lanes_drawn || (r.kind != SceneRect::Kind::Lifetime && r.kind != SceneRect::Kind::Wait)) {
      dl->AddRectFilled(a, b, im_color(r.fill));
      if (r.border) dl->AddRect(a, b, im_color(r.border), 0, 0, r.border_w);
    }
    if (!r.label.empty() && ImGui::GetFontSize() <= r.h + 2) {
      const std::string label =
          fitted_label(r.label, r.w - 2, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; });
      const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
      if (!label.empty())
        dl->AddText(ImVec2(a.x + (r.w - ts.x) / 2, a.y + (r.h - ts.y) / 2), im_color(r.label_color), label.c_str());
    }
  }
  for (const SceneText& t : s.texts) {
    const ImVec2 ts = ImGui::CalcTextSize(t.text.c_str());
    dl->AddText(ImVec2(origin.x + t.x - (t.centred ? ts.x / 2 : 0), origin.y + t.y), im_color(t.color), t.text.c_str());
  }
  for (const SceneArrow& a : s.arrows) {
    const ImVec2 p0(origin.x + a.x0, origin.y + a.y0), p3(origin.x + a.x1, origin.y + a.y1);
    const ImVec2 p1(p0.x, p0.y - a.bend), p2(p3.x, p3.y - a.bend);
    const ImU32 c = im_color(a.color);
    dl->AddBezierCubic(p0, p1, p2, p3, c, 2.0f);
    const float h = 0.45f * ImGui::GetFontSize();
    dl->AddTriangleFilled(p3, ImVec2(p3.x - h * 0.6f, p3.y + h), ImVec2(p3.x + h * 0.6f, p3.y + h), c);
    const ImVec2 ts = ImGui::CalcTextSize(a.label.c_str());
    dl->AddText(ImVec2(p3.x - ts.x / 2, p3.y - a.bend * 0.75f - ts.y / 2), c, a.label.c_str());
  }
}

std::string lookback_scene_svg(const LookbackScene& s, const LookbackPalette& pal, float font_px) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(static_cast<int>(std::ceil(s.width))) +
                    "\" height=\"" + std::to_string(static_cast<int>(std::ceil(s.height))) + "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"" +
                    std::to_string(static_cast<int>(font_px * 0.8f)) + "\">\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", svg::color(pal.background).c_str());
  out += buf;
  for (const SceneRect& r : s.rects) {
    std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"%.2f\"", r.x, r.y,
                  r.w, r.h, svg::color(r.fill).c_str(), static_cast<double>(r.fill & 0xFF) / 255.0);
    out += buf;
    if (r.border) {
      std::snprintf(buf, sizeof buf, " stroke=\"%s\" stroke-width=\"%.1f\"", svg::color(r.border).c_str(), r.border_w);
      out += buf;
    }
    out += "/>\n";
    // A label cut to its cell (about 0.6 em per character), as the window draws it.
    const std::string label = r.label.empty() || font_px > r.h + 2 ? std::string() : fitted_label(r.label, r.w - 2, [&](const std::string& t) {
      return 0.6f * font_px * static_cast<float>(t.size());
    });
    if (!label.empty()) {
      std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"middle\" dominant-baseline=\"central\">", r.x + r.w / 2,
                    r.y + r.h / 2, svg::color(r.label_color).c_str());
      out += buf + svg::escape(label) + "</text>\n";
    }
  }
  for (const SceneText& t : s.texts) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" dominant-baseline=\"hanging\"%s>", t.x, t.y,
                  svg::color(t.color).c_str(), t.centred ? " text-anchor=\"middle\"" : "");
    out += buf + svg::escape(t.text) + "</text>\n";
  }
  for (const SceneArrow& a : s.arrows) {
    std::snprintf(buf, sizeof buf,
                  "<path d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"middle\" dominant-baseline=\"central\">",
                  a.x0, a.y0, a.x0, a.y0 - a.bend, a.x1, a.y1 - a.bend, a.x1, a.y1, svg::color(a.color).c_str(), a.x1,
                  a.y1 - a.bend * 0.75f, svg::color(a.color).c_str());
    out += buf + svg::escape(a.label) + "</text>\n";
  }
  return out + "</svg>\n";
}

}  // namespace sv::gui
