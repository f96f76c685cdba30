// svplot: the chart widget.
#include "gui/draw/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace svplot {

namespace {

ImU32 color(std::uint32_t rgba, float alpha = 1.0f) {
  return IM_COL32((rgba >> 24) & 0xFF, (rgba >> 16) & 0xFF, (rgba >> 8) & 0xFF, static_cast<int>((rgba & 0xFF) * alpha));
}

// The chart being drawn between BeginChart and EndChart.
struct Current {
  const sv::chart::Chart* chart = nullptr;
  sv::chart::Extent extent;
  ImVec2 plot_min, plot_max;
  ImVec2 after;  // the cursor below the chart, restored after the legend's buttons
  float bottom = 0;  // the chart's lower edge
  ImGuiID id = 0;
  bool legend = true;
  float best_distance = 0;
  std::string hover;
};
Current g;

int legend_rows(const sv::chart::Chart& chart) {
  return static_cast<int>(std::count_if(chart.series.begin(), chart.series.end(), [](const auto& s) { return s.legend; }));
}

ImVec2 to_screen(double x, double y) {
  const auto& e = g.extent;
  const double fx = (sv::chart::to_axis(x, g.chart->log2_x) - e.x0) / (e.x1 - e.x0);
  const double fy = (sv::chart::to_axis(y, g.chart->log2_y) - e.y0) / (e.y1 - e.y0);
  return ImVec2(g.plot_min.x + static_cast<float>(fx) * (g.plot_max.x - g.plot_min.x),
                g.plot_max.y - static_cast<float>(fy) * (g.plot_max.y - g.plot_min.y));
}

ImGuiID hidden_key(int index) { return g.id + 1 + static_cast<ImGuiID>(index); }

// A series' marker at p, r pixels in radius (chart::marker_shape: the SVG draws the same polygon);
// `hollow` outlines it whatever its shape (a series drawn over an equal one).
void draw_marker(ImDrawList* dl, ImVec2 p, float r, sv::chart::Marker m, ImU32 c, bool hollow = false) {
  const sv::chart::MarkerShape shape = sv::chart::marker_shape(m);
  if (hollow && !shape.hollow) r *= sv::chart::kHollowScale;
  ImVec2 pts[24];
  const int n = static_cast<int>(std::min<std::size_t>(shape.outline.size(), 24));
  for (int i = 0; i < n; ++i) pts[i] = ImVec2(p.x + shape.outline[i].first * r, p.y + shape.outline[i].second * r);
  if (shape.hollow || hollow) dl->AddPolyline(pts, n, c, ImDrawFlags_Closed, 1.5f);
  else  // a fan from the centre: every shape is star-shaped around it (ImGui 1.86 fills convex polygons only)
    for (int i = 0; i < n; ++i) dl->AddTriangleFilled(p, pts[i], pts[(i + 1) % n], c);
}

}  // namespace

bool BeginChart(const char* id, const sv::chart::Chart& chart, ImVec2 size, bool legend) {
  ImGui::PushID(id);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  if (!ImGui::IsItemVisible()) {
    ImGui::PopID();
    return false;
  }
  const float em = ImGui::GetFontSize();
  g = Current{};
  g.after = ImGui::GetCursorScreenPos();
  g.chart = &chart;
  g.id = ImGui::GetID("state");
  g.legend = legend;
  g.extent = sv::chart::extent(chart);
  // The title wraps to the chart's width (charts side by side would run into each other).
  const float title_h = ImGui::CalcTextSize(chart.title.c_str(), nullptr, false, size.x).y;
  g.plot_min = ImVec2(at.x + 4.5f * em, at.y + title_h + 0.6f * em);
  g.plot_max = ImVec2(at.x + size.x - (legend ? 15 : 1) * em, at.y + size.y - 2.6f * em);
  g.bottom = at.y + size.y;
  g.best_distance = 0.6f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), grid = ImGui::GetColorU32(ImGuiCol_Border, 0.35f);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, text, chart.title.c_str(), nullptr, size.x);
  const auto& e = g.extent;
  // Every tick gets its grid line; labels only where they do not run into the previous one (large
  // fonts, narrow charts).
  const auto x_ticks = sv::chart::ticks(e.x0, e.x1, chart.log2_x);
  std::vector<float> xs_at, xs_w;
  for (const auto& [v, label] : x_ticks) {
    xs_at.push_back(g.plot_min.x + static_cast<float>((v - e.x0) / (e.x1 - e.x0)) * (g.plot_max.x - g.plot_min.x));
    xs_w.push_back(ImGui::CalcTextSize(label.c_str()).x);
  }
  const std::vector<bool> x_keep = sv::chart::thin_labels(xs_at, xs_w, 0.5f * em);
  for (std::size_t i = 0; i < x_ticks.size(); ++i) {
    dl->AddLine(ImVec2(xs_at[i], g.plot_min.y), ImVec2(xs_at[i], g.plot_max.y), grid);
    if (x_keep[i]) dl->AddText(ImVec2(xs_at[i] - xs_w[i] / 2, g.plot_max.y + 0.2f * em), text, x_ticks[i].second.c_str());
  }
  const auto y_ticks = sv::chart::ticks(e.y0, e.y1, chart.log2_y);
  std::vector<float> ys_at, ys_h;  // bottom up, so that positions increase
  for (const auto& [v, label] : y_ticks) {
    ys_at.push_back(-(g.plot_max.y - static_cast<float>((v - e.y0) / (e.y1 - e.y0)) * (g.plot_max.y - g.plot_min.y)));
    ys_h.push_back(ImGui::CalcTextSize(label.c_str()).y);
  }
  const std::vector<bool> y_keep = sv::chart::thin_labels(ys_at, ys_h, 0.1f * em);
  for (std::size_t i = 0; i < y_ticks.size(); ++i) {
    const float y = -ys_at[i];
    dl->AddLine(ImVec2(g.plot_min.x, y), ImVec2(g.plot_max.x, y), grid);
    if (!y_keep[i]) continue;
    const ImVec2 ts = ImGui::CalcTextSize(y_ticks[i].second.c_str());
    dl->AddText(ImVec2(g.plot_min.x - ts.x - 0.4f * em, y - ts.y / 2), text, y_ticks[i].second.c_str());
  }
  dl->AddRect(g.plot_min, g.plot_max, ImGui::GetColorU32(ImGuiCol_Border));
  const ImVec2 xs = ImGui::CalcTextSize(chart.x_label.c_str());
  dl->AddText(ImVec2((g.plot_min.x + g.plot_max.x - xs.x) / 2, g.plot_max.y + 1.3f * em), text, chart.x_label.c_str());
  dl->PushClipRect(g.plot_min, g.plot_max, true);
  return true;
}

void PlotSeries(const sv::chart::Series& s, int index) {
  if (ImGui::GetStateStorage()->GetBool(hidden_key(index), false)) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool inside = mouse.x >= g.plot_min.x && mouse.x <= g.plot_max.x && mouse.y >= g.plot_min.y && mouse.y <= g.plot_max.y;
  const float em = ImGui::GetFontSize();
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const ImVec2 p = to_screen(s.x[i], s.y[i]);
    if (s.line && i + 1 < s.x.size()) {
      // Dashed: 6 px on, 4 px off along the segment.
      const ImVec2 q = to_screen(s.x[i + 1], s.y[i + 1]);
      const float len = std::hypot(q.x - p.x, q.y - p.y);
      for (float t = 0; t < len; t += 10) {
        const float t1 = std::min(len, t + 6);
        dl->AddLine(ImVec2(p.x + (q.x - p.x) * t / len, p.y + (q.y - p.y) * t / len),
                    ImVec2(p.x + (q.x - p.x) * t1 / len, p.y + (q.y - p.y) * t1 / len), color(s.color, 0.8f), 1.5f);
      }
    } else if (!s.line) {
      draw_marker(dl, p, 0.3f * em, s.marker, color(s.color), s.hollow);
    }
    const float d = std::hypot(mouse.x - p.x, mouse.y - p.y);
    if (inside && d < g.best_distance) {
      g.best_distance = d;
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s%s%s%s\n%s = %g\n%s = %g", s.name.c_str(), s.note.empty() ? "" : " (",
                    s.note.c_str(), s.note.empty() ? "" : ")", g.chart->x_label.c_str(), s.x[i],
                    g.chart->y_label.c_str(), s.y[i]);
      g.hover = buf;
    }
  }
}

void EndChart() {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PopClipRect();
  // Legend: a colour box and the name; a click hides or shows the series.
  const float em = ImGui::GetFontSize();
  ImVec2 at(g.plot_max.x + 0.8f * em, g.plot_min.y);
  const int rows = legend_rows(*g.chart);
  int drawn = 0;
  for (int i = 0; i < static_cast<int>(g.chart->series.size()) && g.legend; ++i) {
    const sv::chart::Series& s = g.chart->series[i];
    if (!s.legend) continue;
    // A chart shorter than its legend (LegendHeightEm) says how many rows it leaves out, not runs
    // over what is under it.
    if (drawn + 1 < rows && at.y + 2.6f * em > g.bottom) {
      dl->AddText(ImVec2(at.x, at.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), ("+" + std::to_string(rows - drawn) + " more").c_str());
      break;
    }
    ++drawn;
    const bool off = ImGui::GetStateStorage()->GetBool(hidden_key(i), false);
    ImGui::SetCursorScreenPos(at);
    ImGui::PushID(i);
    if (ImGui::InvisibleButton("legend", ImVec2(14 * em, 1.2f * em)))
      ImGui::GetStateStorage()->SetBool(hidden_key(i), !off);
    ImGui::PopID();
    const ImVec2 mid(at.x + 0.35f * em, at.y + 0.6f * em);
    if (s.line)
      dl->AddLine(ImVec2(at.x, mid.y), ImVec2(at.x + 0.7f * em, mid.y), color(s.color, off ? 0.25f : 1), 1.5f);
    else
      draw_marker(dl, mid, 0.3f * em, s.marker, color(s.color, off ? 0.25f : 1), s.hollow);
    const std::string label = s.note.empty() ? s.name : s.name + " (" + s.note + ")";
    dl->AddText(ImVec2(at.x + em, at.y), ImGui::GetColorU32(off ? ImGuiCol_TextDisabled : ImGuiCol_Text), label.c_str());
    at.y += 1.3f * em;
  }
  if (!g.hover.empty()) ImGui::SetTooltip("%s", g.hover.c_str());
  ImGui::SetCursorScreenPos(g.after);
  ImGui::PopID();
  g.chart = nullptr;
}

float LegendHeightEm(const sv::chart::Chart& chart) { return 2.0f + 1.3f * static_cast<float>(legend_rows(chart)); }

void MarkerGlyph(sv::chart::Marker marker, std::uint32_t rgba) {
  const float em = ImGui::GetFontSize();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(0.8f * em, ImGui::GetFrameHeight()));
  draw_marker(ImGui::GetWindowDrawList(), ImVec2(at.x + 0.4f * em, at.y + ImGui::GetFrameHeight() / 2), 0.3f * em, marker,
              color(rgba));
}

void Chart(const char* id, const sv::chart::Chart& chart, ImVec2 size, bool legend) {
  if (!BeginChart(id, chart, size, legend)) return;
  for (int i = 0; i < static_cast<int>(chart.series.size()); ++i) PlotSeries(chart.series[i], i);
  EndChart();
}

}  // namespace svplot
