// The float lesson's window (float_panel.hpp): the outputs' errors, the picked output's addition tree
// and its narration, from analysis/float_error each time the trace shown changes.
#include "gui/panels/float_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "core/values.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/model/float_tree_layout.hpp"

namespace sv::gui {

namespace {

constexpr std::uint32_t kInk = 0x212529FF;  // text on the light fills, in every theme

// The shortest text that reads back as the value (1e+08): the tree's leaves, where room is short.
std::string short_text(ValueType type, double v) {
  return format_value(type, type == ValueType::F32 ? Payload::of(static_cast<float>(v)) : Payload::of(v));
}

// Whole numbers written out (100000008, not 1.00000008e+08, beside 1e+08), others as the trace writes them.
std::string number_text(ValueType type, double v) {
  if (v == std::floor(v) && std::abs(v) < 1e12) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return short_text(type, v);
}

LaidRect rect_of(ImVec2 a, ImVec2 b) { return {a.x, a.y, b.x - a.x, b.y - a.y}; }
LaidRect last_item() { return rect_of(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()); }

void refresh(FloatUi& ui, const Trace& t) {
  if (t.meta.input == ui.seen_input && t.result.output == ui.seen_output && t.meta.algorithm == ui.seen_algorithm) return;
  ui.seen_input = t.meta.input;
  ui.seen_output = t.result.output;
  ui.seen_algorithm = t.meta.algorithm;
  ui.errors = float_errors(t);
  ui.tree_cell = -1;
}

void swatch(std::uint32_t colour, const char* text) {
  const float s = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + s - 4, p.y + s - 2), im_color(colour));
  ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + s - 4, p.y + s - 2), im_color(kInk));
  ImGui::Dummy(ImVec2(s - 2, s));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
  ImGui::SameLine(0, 1.5f * s);
}

// The outputs' cells, wrapped into rows of the width there is.
struct CellGrid {
  float w = 0, h = 0, gap = 0;
  int per_row = 1, rows = 1;
};

CellGrid cell_grid(const FloatErrors& e, float avail) {
  const float em = ImGui::GetFontSize();
  CellGrid g;
  g.w = ImGui::CalcTextSize("9.99e+99 ULP").x;
  for (const FloatOutput& o : e.outputs) g.w = std::max(g.w, ImGui::CalcTextSize(number_text(e.type, o.value).c_str()).x);
  g.w += 0.8f * em;
  g.h = 3 * ImGui::GetTextLineHeight() + 0.5f * em;
  g.gap = 0.25f * em;
  g.per_row = std::max(1, static_cast<int>((avail + g.gap) / (g.w + g.gap)));
  g.rows = (static_cast<int>(e.outputs.size()) + g.per_row - 1) / g.per_row;
  return g;
}

// The outputs as cells: index, value, error, each named in `chrome` ("floats_cell_3"). Returns the
// cell clicked, or -1.
std::int64_t draw_cells(const FloatErrors& e, std::int64_t picked, const Palette& pal, std::vector<std::pair<std::string, LaidRect>>& chrome) {
  const float em = ImGui::GetFontSize(), line = ImGui::GetTextLineHeight();
  const CellGrid g = cell_grid(e, ImGui::GetContentRegionAvail().x);
  const float w = g.w, h = g.h, gap = g.gap;
  const int per_row = g.per_row, n = static_cast<int>(e.outputs.size()), rows = g.rows;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float height = static_cast<float>(rows) * (h + gap);
  ImGui::InvisibleButton("##float_cells", ImVec2(std::max(1.0f, static_cast<float>(std::min(n, per_row)) * (w + gap)), std::max(1.0f, height)));
  std::int64_t clicked = -1;
  if (ImGui::IsItemClicked()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const int c = static_cast<int>((m.x - origin.x) / (w + gap)), r = static_cast<int>((m.y - origin.y) / (h + gap));
    if (c >= 0 && c < per_row && r * per_row + c < n) clicked = r * per_row + c;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int i = 0; i < n; ++i) {
    const FloatOutput& o = e.outputs[static_cast<std::size_t>(i)];
    const ImVec2 a(origin.x + static_cast<float>(i % per_row) * (w + gap), origin.y + static_cast<float>(i / per_row) * (h + gap));
    const ImVec2 b(a.x + w, a.y + h);
    if (!ImGui::IsRectVisible(a, b)) continue;
    chrome.push_back({"floats_cell_" + std::to_string(i), rect_of(a, b)});
    dl->AddRectFilled(a, b, im_color(float_error_colour(o.ulps)));
    dl->AddRect(a, b, im_color(i == picked ? pal.edge_left : pal.border), 0, 0, i == picked ? 3.0f : 1.0f);
    const std::string texts[] = {indexed_name('y', i), number_text(e.type, o.value), ulps_text(o.ulps) + " ULP"};
    for (int k = 0; k < 3; ++k)
      dl->AddText(ImVec2(a.x + 0.4f * em, a.y + 0.25f * em + static_cast<float>(k) * line), im_color(kInk), texts[k].c_str());
  }
  return clicked;
}

// The tree: leaves at the bottom, each addition over its operands, lines to the left operand (a) and
// the right one (b) in the diagram's operand colours. Spread over the width there is, each box as wide
// as its own text.
void draw_tree(const AdditionTree& t, ValueType type, const Palette& pal) {
  const TreeLayout l = layout_tree(t);
  const float em = ImGui::GetFontSize(), line = ImGui::GetTextLineHeight(), pad = 0.4f * em;
  std::vector<std::array<std::string, 2>> texts(t.nodes.size());
  std::vector<float> widths(t.nodes.size());
  float leaf_w = 0, sum_w = 0;
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const AdditionNode& n = t.nodes[i];
    texts[i] = n.leaf() ? std::array<std::string, 2>{indexed_name('x', n.input), short_text(type, n.value)}
                        : std::array<std::string, 2>{"+ " + number_text(type, n.value),
                                                     n.rounding == 0 ? "exact" : "rounded " + number_text(ValueType::F64, -n.rounding)};
    widths[i] = std::max(ImGui::CalcTextSize(texts[i][0].c_str()).x, ImGui::CalcTextSize(texts[i][1].c_str()).x) + 2 * pad;
    (n.leaf() ? leaf_w : sum_w) = std::max(n.leaf() ? leaf_w : sum_w, widths[i]);
  }
  const float avail = ImGui::GetContentRegionAvail().x;
  const float dx = std::clamp(avail / static_cast<float>(std::max(1, l.leaves)), leaf_w + pad, std::max(leaf_w, sum_w) + pad);
  const float h = 2 * line + pad, dy = h + 0.6f * em;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(static_cast<float>(l.leaves) * dx + sum_w / 2, static_cast<float>(l.levels) * dy));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  auto top = [&](int node) {  // the box's top centre
    const TreeSpot& s = l.spots[static_cast<std::size_t>(node)];
    return ImVec2(origin.x + (s.slot + 0.5f) * dx, origin.y + static_cast<float>(s.level) * dy);
  };
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const AdditionNode& n = t.nodes[i];
    if (n.leaf()) continue;
    const ImVec2 p = top(static_cast<int>(i));
    for (const auto& [child, colour] : {std::pair{n.left, pal.edge_left}, std::pair{n.right, pal.edge_right}})
      dl->AddLine(ImVec2(p.x, p.y + h), top(child), im_color(colour), 2.5f);
  }
  for (std::size_t i = 0; i < t.nodes.size(); ++i) {
    const AdditionNode& n = t.nodes[i];
    const ImVec2 c = top(static_cast<int>(i));
    const ImVec2 a(c.x - widths[i] / 2, c.y), b(c.x + widths[i] / 2, c.y + h);
    if (!ImGui::IsRectVisible(a, b)) continue;
    const std::uint32_t fill = n.leaf() ? 0xF1F3F5FF : n.rounding == 0 ? 0xD0EBFFFF : 0xFFE066FF;
    dl->AddRectFilled(a, b, im_color(fill));
    dl->AddRect(a, b, im_color(pal.border));
    for (int k = 0; k < 2; ++k)
      dl->AddText(ImVec2(a.x + pad, a.y + pad / 2 + static_cast<float>(k) * line), im_color(kInk), texts[i][static_cast<std::size_t>(k)].c_str());
  }
}

}  // namespace

std::uint32_t float_error_colour(double ulps) {
  if (ulps == 0) return 0xF1F3F5FF;   // exact: near white
  if (ulps <= 0.5) return 0xD0EBFFFF;  // the nearest float: pale blue
  if (ulps < 1) return 0xFFE066FF;     // within one ULP: yellow
  return 0xFF922BFF;                   // one ULP or more: orange
}

void float_pick_key(FloatUi& ui, int move, std::int64_t outputs) {
  if (outputs <= 0) return;
  const std::int64_t at = ui.cell < 0 || ui.cell >= outputs ? outputs - 1 : ui.cell;
  ui.cell = move == -2 ? 0 : move == 2 ? outputs - 1 : std::clamp<std::int64_t>(at + move, 0, outputs - 1);
}

void float_window(FloatUi& ui, const Trace* trace, const std::string& theme,
                  std::vector<std::pair<std::string, LaidRect>>& chrome, std::vector<std::pair<std::string, std::string>>& texts) {
  if (!ui.show) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(display.x * 0.72f, display.y * 0.8f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.14f, display.y * 0.12f), ImGuiCond_FirstUseEver);
  const bool shown = ImGui::Begin(kFloatWindowTitle, &ui.show);
  keep_in_display();
  ui.focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  if (shown) chrome.push_back({"floats_window", rect_of(ImGui::GetWindowPos(), ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowSize().x,
                                                                                       ImGui::GetWindowPos().y + ImGui::GetWindowSize().y))});
  if (shown && (!trace || !float_errors_apply(*trace))) {
    ImGui::TextWrapped("The float lesson reads a sum of floats: set the type to float or double, and the input to "
                       "mixed, cancel, scaled or uniform (scanviz gui --type float --input mixed --floats).");
  } else if (shown) {
    refresh(ui, *trace);
    const FloatErrors& e = ui.errors;
    const Palette& pal = palette_named(theme);
    const std::int64_t n = static_cast<std::int64_t>(e.outputs.size());
    if (ui.cell < 0 || ui.cell >= n) ui.cell = n - 1;
    ImGui::TextWrapped("%s, %s %s sum of %lld values: largest error %s ULP (mean %s); the sequential loop on the same "
                       "input: largest %s ULP (mean %s). Exact sums: Shewchuk's expansions.",
                       trace->meta.algorithm.c_str(), std::string(type_name(e.type)).c_str(), trace->meta.exclusive ? "exclusive" : "inclusive",
                       static_cast<long long>(n), ulps_text(e.max_ulps).c_str(), ulps_text(e.mean_ulps).c_str(),
                       ulps_text(e.sequential_max_ulps).c_str(), ulps_text(e.sequential_mean_ulps).c_str());
    swatch(float_error_colour(0), "exact");
    swatch(float_error_colour(0.5), "within 1/2 ULP (the nearest)");
    swatch(float_error_colour(0.9), "under 1 ULP");
    swatch(float_error_colour(1), "1 ULP or more");
    ImGui::NewLine();
    const CellGrid grid = cell_grid(e, ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize);
    const float cells_h = std::min(ImGui::GetContentRegionAvail().y * 0.4f, static_cast<float>(std::min(grid.rows, 3)) * (grid.h + grid.gap) + 4);
    ImGui::BeginChild("floats_cells", ImVec2(0, cells_h));
    const std::int64_t clicked = draw_cells(e, ui.cell, pal, chrome);
    ImGui::EndChild();
    chrome.push_back({"floats_cells", last_item()});
    if (clicked >= 0) ui.cell = clicked;
    if (ui.tree_cell != ui.cell) {
      ui.tree = addition_tree(*trace, ui.cell);
      ui.tree_cell = ui.cell;
    }
    const FloatOutput& o = e.outputs[static_cast<std::size_t>(ui.cell)];
    ImGui::Text("y%lld = %s, exact %s: error %s ULP. The sequential loop: %s, %s ULP.", static_cast<long long>(o.cell),
                number_text(e.type, o.value).c_str(), number_text(ValueType::F64, o.exact).c_str(), ulps_text(o.ulps).c_str(),
                number_text(e.type, o.sequential).c_str(), ulps_text(o.sequential_ulps).c_str());
    const std::string said = float_narration(o, ui.tree);
    ImGui::PushStyleColor(ImGuiCol_Text, im_color(pal.text));
    ImGui::TextWrapped("%s", said.c_str());
    ImGui::PopStyleColor();
    chrome.push_back({"floats_narration", last_item()});
    texts.push_back({"floats_narration", said});
    swatch(pal.edge_left, "left operand (a)");
    swatch(pal.edge_right, "right operand (b)");
    swatch(0xFFE066FF, "an addition that rounded");
    swatch(0xD0EBFFFF, "an exact addition");
    ImGui::NewLine();
    ImGui::BeginChild("floats_tree", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    draw_tree(ui.tree, e.type, pal);
    ImGui::EndChild();
    chrome.push_back({"floats_tree", last_item()});
  }
  ImGui::End();
}

}  // namespace sv::gui
