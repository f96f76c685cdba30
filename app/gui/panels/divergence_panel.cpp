// The warp divergence window, drawn from analysis/divergence each frame (a step's events, no cache).
#include "gui/panels/divergence_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>

#include "analysis/divergence.hpp"
#include "gui/draw/canvas.hpp"

namespace sv::gui {

const WarpPalette& warp_palette(const std::string& theme) {
  static const WarpPalette light{0x2F9E44FF, 0xF76707FF, 0xCED4DAFF, 0x495057FF, 0xD9480FFF};
  static const WarpPalette dark{0x51CF66FF, 0xFF922BFF, 0x4A4E57FF, 0xC1C2C5FF, 0xFF922BFF};
  static const WarpPalette high_contrast{0x00E000FF, 0xFF6000FF, 0x707070FF, 0xFFFFFFFF, 0xFF6000FF};
  if (theme == "dark") return dark;
  if (theme == "high-contrast") return high_contrast;
  return light;
}

namespace {

// Warps laid out in columns, each warp a row of square lanes: the column count that gives the
// largest lanes in the space.
struct GridLayout {
  int columns = 1;
  float lane = 0;  // pixels per lane square, gap included
};

GridLayout grid_layout(int warps, int width, ImVec2 avail, float label_w) {
  GridLayout best;
  for (int columns = 1; columns <= 8; ++columns) {
    const int rows = (warps + columns - 1) / columns;
    const float by_width = (avail.x - columns * (label_w + 8)) / static_cast<float>(columns * width);
    const float by_height = avail.y / static_cast<float>(std::max(1, rows)) - 2;
    const float lane = std::floor(std::min(by_width, by_height));
    if (lane > best.lane) best = {columns, lane};
  }
  best.lane = std::min(best.lane, 24.0f);
  return best;
}

void legend_swatch(std::uint32_t color, const char* text) {
  const float s = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + s - 4, p.y + s - 2), im_color(color));
  ImGui::Dummy(ImVec2(s - 2, s));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
  ImGui::SameLine(0, 2 * s);
}

void draw_warps(const StepDivergence& s, int width, const WarpPalette& pal, ImVec2 avail) {
  const float label_w = ImGui::CalcTextSize("w00").x + 4;
  const int warps = static_cast<int>(s.warps.size());
  const GridLayout g = grid_layout(warps, width, avail, label_w);
  if (g.lane < 2) {
    ImGui::TextDisabled("(too small to draw the lanes: enlarge the window)");
    return;
  }
  const int rows = (warps + g.columns - 1) / g.columns;
  const float row_h = g.lane + 2, column_w = label_w + 8 + g.lane * static_cast<float>(width);
  const float gap = g.lane >= 5 ? 1 : 0;  // one pixel between lanes, where there is room for it
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float text_dy = (g.lane - ImGui::GetFontSize()) / 2;
  // Labels on every row where they fit, else on every 2nd, 4th, ... row.
  int label_every = 1;
  while (label_every < warps && row_h * static_cast<float>(label_every) < ImGui::GetFontSize()) label_every *= 2;
  for (int w = 0; w < warps; ++w) {
    const WarpActivity& a = s.warps[static_cast<std::size_t>(w)];
    const float x0 = origin.x + static_cast<float>(w / rows) * column_w, y0 = origin.y + static_cast<float>(w % rows) * row_h;
    const bool divergent = a.state() == WarpState::Divergent;
    if (a.warp % label_every == 0) {
      std::string label = "w";  // appended: GCC 12 warns falsely (-Wrestrict) on "w" + string
      label += std::to_string(a.warp);
      dl->AddText(ImVec2(x0, y0 + text_dy), im_color(divergent ? pal.label_divergent : pal.label), label.c_str());
    }
    for (int lane = 0; lane < a.live_lanes; ++lane) {
      const std::uint32_t fill = ((a.active_lanes >> lane) & 1u) ? pal.active : divergent ? pal.divergent_idle : pal.idle;
      const float x = x0 + label_w + static_cast<float>(lane) * g.lane;
      dl->AddRectFilled(ImVec2(x, y0), ImVec2(x + g.lane - gap, y0 + g.lane - gap), im_color(fill));
    }
  }
  ImGui::Dummy(ImVec2(column_w * static_cast<float>(g.columns), row_h * static_cast<float>(rows)));
}

// The table's columns 1.. of the current row.
void count_columns(std::initializer_list<std::int64_t> counts) {
  int column = 1;
  for (std::int64_t c : counts) {
    ImGui::TableSetColumnIndex(column++);
    ImGui::Text("%lld", static_cast<long long>(c));
  }
}

// Every step's counts; the current one highlighted. Returns the step clicked, or -1.
int steps_table(const Trace& trace, const Divergence& d, int step, ImVec2 size) {
  int clicked = -1;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("divergence_steps", 4, flags, size)) return -1;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("step");
  ImGui::TableSetupColumn("divergent");
  ImGui::TableSetupColumn("idle warps");
  ImGui::TableSetupColumn("idle lanes");
  ImGui::TableHeadersRow();
  for (std::size_t k = 0; k < d.per_step.size(); ++k) {
    const StepDivergence& s = d.per_step[k];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (ImGui::Selectable((trace.steps[k].label() + "##" + std::to_string(k)).c_str(), static_cast<int>(k) == step,
                          ImGuiSelectableFlags_SpanAllColumns))
      clicked = static_cast<int>(k);
    count_columns({s.divergent_warps, s.idle_warps, s.idle_lanes});
  }
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::TextUnformatted("all steps");
  count_columns({d.divergent_warps, d.idle_warps, d.idle_lanes});
  ImGui::EndTable();
  return clicked;
}

}  // namespace

int divergence_window(bool* open, const Trace* trace, int step, const std::string& theme) {
  if (!*open) return -1;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowSize(ImVec2(display.x * 0.64f, display.y * 0.56f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.18f, display.y * 0.4f), ImGuiCond_FirstUseEver);
  int clicked = -1;
  const bool shown = ImGui::Begin(kDivergenceWindowTitle, open);
  keep_in_display();
  if (shown) {
    if (!trace || !divergence_applies(*trace) || step < 0 || step >= static_cast<int>(trace->steps.size())) {
      ImGui::TextWrapped("Warp divergence is drawn for the steps of a block-level scan; open or record one.");
    } else {
      const Divergence d = compute_divergence(*trace);
      const StepDivergence& s = d.per_step[static_cast<std::size_t>(step)];
      const WarpPalette& pal = warp_palette(theme);
      ImGui::Text("%s: %lld full, %lld divergent, %lld idle warps of %d lanes; %lld of %lld lanes idle",
                  trace->steps[static_cast<std::size_t>(step)].label().c_str(), static_cast<long long>(s.full_warps),
                  static_cast<long long>(s.divergent_warps), static_cast<long long>(s.idle_warps), d.warp_width,
                  static_cast<long long>(s.idle_lanes), static_cast<long long>(s.active_lanes + s.idle_lanes));
      legend_swatch(pal.active, "active: applied the operator (load/store: wrote)");
      legend_swatch(pal.divergent_idle, "idle in a divergent warp");
      legend_swatch(pal.idle, "idle warp");
      ImGui::NewLine();
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      // The table as wide as its longest step label and its three count columns need (Brent-Kung's
      // "post-reduction stride = 32" is wider than a fixed width gave it), at most 55% of the window.
      float label_w = ImGui::CalcTextSize("all steps").x;
      for (const Step& st : trace->steps) label_w = std::max(label_w, ImGui::CalcTextSize(st.label().c_str()).x);
      const ImGuiStyle& style = ImGui::GetStyle();
      const float counts_w = ImGui::CalcTextSize("divergent").x + ImGui::CalcTextSize("idle warps").x +
                             ImGui::CalcTextSize("idle lanes").x;
      const float needed = label_w + counts_w + 4 * (2 * style.CellPadding.x + 1) + style.ScrollbarSize + 2;
      const float table_w = std::min(std::max(needed, 25 * ImGui::GetFontSize()), avail.x * 0.55f),
                  start_x = ImGui::GetCursorPosX();
      ImGui::BeginGroup();
      draw_warps(s, d.warp_width, pal, ImVec2(avail.x - table_w - 12, avail.y));
      ImGui::EndGroup();
      ImGui::SameLine(start_x + avail.x - table_w);
      clicked = steps_table(*trace, d, step, ImVec2(table_w, avail.y));
    }
  }
  ImGui::End();
  return clicked;
}

}  // namespace sv::gui
