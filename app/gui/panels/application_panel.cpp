// The applications window, drawn each frame from analysis/application (no state of its own).
#include "gui/panels/application_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/application.hpp"
#include "core/values.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/draw/canvas.hpp"

namespace sv::gui {

namespace {

constexpr std::size_t kMaxColumns = 128;  // cells drawn a row; the rest is counted

// A request's colour: hues spread by the golden angle, so neighbours differ.
ImU32 owner_color(std::int64_t owner, bool dark) {
  const float h = std::fmod(static_cast<float>(owner) * 0.618034f, 1.0f);
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(h, dark ? 0.55f : 0.35f, dark ? 0.55f : 0.97f, r, g, b);
  return IM_COL32(static_cast<int>(r * 255), static_cast<int>(g * 255), static_cast<int>(b * 255), 255);
}

std::string request_name(std::int64_t owner) {
  std::string s = "r";  // appended: GCC 12 warns falsely (-Wrestrict) on "r" + string
  s += std::to_string(owner);
  return s;
}

struct Row {
  const char* label;
  std::vector<std::string> cells;
  std::vector<ImU32> fills;
};

}  // namespace

void application_window(bool* open, const Trace* trace, const std::string& theme) {
  if (!*open || !trace || trace->meta.application.kind.empty()) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Over the lower part of the diagram, clear of the lesson's controls and the kernel source.
  ImGui::SetNextWindowSize(ImVec2(vp->Size.x * 0.46f, vp->Size.y * 0.4f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(vp->Size.x * 0.236f, vp->Size.y * 0.5f), ImGuiCond_FirstUseEver);
  const bool shown = ImGui::Begin(kApplicationWindowTitle, open);
  keep_in_display();
  if (!shown) {
    ImGui::End();
    return;
  }
  ApplicationView v;
  try {
    v = application_view(*trace);
  } catch (const std::exception& e) {
    ImGui::TextUnformatted(e.what());
    ImGui::End();
    return;
  }
  const bool compact = v.kind == "compact";
  const bool dark = theme == "dark" || theme == "high-contrast";
  const Palette& pal = palette_named(theme);
  const ValueType type = trace->meta.type;
  const ImU32 kept = dark ? IM_COL32(47, 110, 60, 255) : IM_COL32(178, 242, 187, 255);
  const ImU32 dropped = im_color(pal.cell_undefined), plain = im_color(pal.cell), wrong = im_color(pal.cell_hazard);

  ImGui::PushTextWrapPos(0);
  if (compact)
    ImGui::Text("Stream compaction: keep x where %s. The exclusive sum of the predicate gives each kept element its "
                "slot; %lld of %lld kept.", trace->meta.application.predicate.c_str(), static_cast<long long>(v.total),
                static_cast<long long>(v.input.size()));
  else
    ImGui::Text("Allocation: the exclusive sum of the requests gives each its offset; %lld cells in all.",
                static_cast<long long>(v.total));
  if (!v.correct)
    ImGui::TextColored(bad_text(), "The scan is wrong: %lld cells claimed twice or out of range.",
                       static_cast<long long>(v.collisions));
  ImGui::PopTextWrapPos();

  const std::size_t n = v.input.size();
  std::vector<Row> rows;
  Row input{compact ? "input x" : "requests", {}, {}};
  Row marks{"predicate", {}, {}};
  Row scan{compact ? "slot = excl. scan" : "offset = excl. scan", {}, {}};
  for (std::size_t i = 0; i < n && i < kMaxColumns; ++i) {
    const bool keep = v.marks[i] != 0;
    const ImU32 fill = compact ? (keep ? kept : dropped) : owner_color(static_cast<std::int64_t>(i), dark);
    input.cells.push_back(format_value(type, v.input[i]));
    input.fills.push_back(fill);
    marks.cells.push_back(std::to_string(v.marks[i]));
    marks.fills.push_back(fill);
    scan.cells.push_back(std::to_string(v.scan[i]));
    const bool right = i < trace->result.reference.size() && values_match(type, trace->result.reference[i], trace->result.output[i], 1);
    scan.fills.push_back(!right ? wrong : compact ? (keep ? plain : dropped) : fill);
  }
  Row output{compact ? "output" : "allocated cells", {}, {}};
  for (std::size_t c = 0; c < v.owner.size() && c < kMaxColumns; ++c) {
    const std::int64_t o = v.owner[c];
    output.cells.push_back(o < 0 ? "" : compact ? format_value(type, v.input[static_cast<std::size_t>(o)]) : request_name(o));
    output.fills.push_back(o < 0 ? dropped : compact ? kept : owner_color(o, dark));
  }
  rows.push_back(std::move(input));
  if (compact) rows.push_back(std::move(marks));
  rows.push_back(std::move(scan));
  rows.push_back(std::move(output));

  // Layout: a label column, then cells as wide as the space allows (at most 3 em): the element rows
  // by n, the output row by its own length (an allocation's cells outnumber its requests); a gap
  // under the scan row for the arrows.
  const float em = ImGui::GetFontSize();
  float label_w = 0;
  for (const Row& r : rows) label_w = std::max(label_w, ImGui::CalcTextSize(r.label).x);
  label_w += em;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  auto width_for = [&](std::size_t count, float min_w) {
    const auto c = static_cast<float>(std::max<std::size_t>(1, std::min(count, kMaxColumns)));
    return std::clamp((avail.x - label_w - 4) / c, min_w, 3.0f * em);
  };
  const float in_w = width_for(n, 0.9f * em), out_w = width_for(v.owner.size(), 4.0f);
  const float cell_h = 1.6f * em, gap = 0.5f * em, arrow_gap = 3.0f * em;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 border = im_color(pal.border), text = im_color(pal.text), dim = im_color(pal.text_dim);
  std::vector<float> row_y;
  float y = origin.y;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool last = r + 1 == rows.size();
    const float cell_w = last ? out_w : in_w;
    if (last) y += arrow_gap - gap;
    row_y.push_back(y);
    dl->AddText(ImVec2(origin.x, y + (cell_h - em) / 2), dim, rows[r].label);
    for (std::size_t i = 0; i < rows[r].cells.size(); ++i) {
      const ImVec2 a(origin.x + label_w + static_cast<float>(i) * cell_w, y);
      const ImVec2 b(a.x + cell_w, a.y + cell_h);
      dl->AddRectFilled(a, b, rows[r].fills[i]);
      dl->AddRect(a, b, border);
      const std::string& s = rows[r].cells[i];
      const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
      if (ts.x < cell_w - 2) dl->AddText(ImVec2(a.x + (cell_w - ts.x) / 2, a.y + (cell_h - ts.y) / 2), text, s.c_str());
    }
    y += cell_h + gap;
  }
  // Arrows: from each kept element's slot (or each request's offset) down to its (first) output cell.
  const float y0 = row_y[rows.size() - 2] + cell_h, y1 = row_y.back();
  const ImU32 arrow = im_color(pal.edge_left);
  for (std::size_t i = 0; i < n && i < kMaxColumns; ++i) {
    if (v.marks[i] == 0) continue;
    const std::int64_t to = v.scan[i];
    if (to < 0 || to >= static_cast<std::int64_t>(std::min(v.owner.size(), kMaxColumns))) continue;
    const ImVec2 from(origin.x + label_w + (static_cast<float>(i) + 0.5f) * in_w, y0);
    const ImVec2 tip(origin.x + label_w + (static_cast<float>(to) + (compact ? 0.5f : 0.0f)) * out_w + (compact ? 0 : 1), y1);
    dl->AddLine(from, ImVec2(tip.x, tip.y - 1), arrow, 2.0f);
    const float hx = 0.22f * em, hy = 0.45f * em;
    dl->AddTriangleFilled(tip, ImVec2(tip.x - hx, tip.y - hy), ImVec2(tip.x + hx, tip.y - hy), arrow);
  }
  const float drawn_w = std::max(static_cast<float>(std::min(n, kMaxColumns)) * in_w,
                                 static_cast<float>(std::min(v.owner.size(), kMaxColumns)) * out_w);
  ImGui::Dummy(ImVec2(label_w + drawn_w, y - origin.y));
  if (n > kMaxColumns || v.owner.size() > kMaxColumns)
    ImGui::TextDisabled("The first %zu columns of each row are drawn (scanviz show prints them all).", kMaxColumns);
  ImGui::End();
}

}  // namespace sv::gui
