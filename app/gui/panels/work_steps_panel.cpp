// The work-against-steps window, drawn with the chart widget (gui/draw/plot.hpp).
#include "gui/panels/work_steps_panel.hpp"

#include <algorithm>

#include "gui/draw/canvas.hpp"
#include "gui/draw/plot.hpp"

namespace sv::gui {

void work_steps_window(bool* open, WorkStepsPanel& w, ImVec2 display, float em) {
  const float W = display.x, H = display.y;
  if (w.points.empty()) {
    w.points = measure_work_steps();
    for (const WorkStepsPoint& p : w.points)
      if (std::none_of(w.series.begin(), w.series.end(), [&](const auto& s) { return s.first == p.algorithm; }))
        w.series.push_back({p.algorithm, true});
  }
  ImGui::SetNextWindowSize(ImVec2(W * 0.7f, H * 0.85f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(W * 0.15f, H * 0.07f), ImGuiCond_FirstUseEver);
  const bool charts_open = ImGui::Begin("Work against steps", open);
  keep_in_display();
  if (charts_open) {
    // The series a lecture compares, and a log2 steps axis so deep networks do not flatten the rest.
    bool rebuild = w.charts.empty();
    // One legend for the three charts: each algorithm's marker beside its box.
    for (auto& [name, shown] : w.series) {
      svplot::MarkerGlyph(sv::chart::algorithm_marker(name), sv::chart::algorithm_color(name));
      ImGui::SameLine(0, 0.2f * em);
      rebuild |= ImGui::Checkbox(name.c_str(), &shown);
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < 12 * em) ImGui::NewLine();
    }
    rebuild |= ImGui::Checkbox("log2 steps axis", &w.log_steps);
    if (rebuild) {
      std::vector<std::string> only;
      for (const auto& [name, shown] : w.series)
        if (shown) only.push_back(name);
      if (only.empty()) only.push_back("");  // none ticked: nothing plotted
      w.charts = chart::work_steps_charts(w.points, 1024, only, w.log_steps);
    }
    // Every chart on screen (chart::chart_grid): side by side where stacking would not fit.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = ImGui::GetStyle().ItemSpacing.y;
    const sv::chart::ChartGrid grid = sv::chart::chart_grid(avail.x, avail.y, static_cast<int>(w.charts.size()), em, gap);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    for (std::size_t k = 0; k < w.charts.size(); ++k) {
      const auto col = static_cast<float>(k % static_cast<std::size_t>(grid.columns));
      const auto row = static_cast<float>(k / static_cast<std::size_t>(grid.columns));
      ImGui::SetCursorScreenPos(ImVec2(origin.x + col * (grid.w + gap), origin.y + row * (grid.h + gap)));
      svplot::Chart(("chart" + std::to_string(k)).c_str(), w.charts[k], ImVec2(grid.w, grid.h), false);
    }
    ImGui::SetCursorScreenPos(origin);
    ImGui::Dummy(ImVec2(static_cast<float>(grid.columns) * (grid.w + gap) - gap,
                        static_cast<float>(grid.rows) * (grid.h + gap) - gap));  // the charts' extent, for scrolling
  }
  ImGui::End();
}

}  // namespace sv::gui
