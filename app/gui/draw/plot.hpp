// svplot: a small chart widget in the shape of an ImGui extension (as ImPlot is): its own namespace,
// BeginChart/EndChart around the series, per-chart state (hidden series) kept in ImGui's storage
// under the chart's ID. Draws a chart::Chart; hovering a point shows its values, clicking a legend
// entry hides or shows its series.
#pragma once

#include <imgui.h>

#include "chart.hpp"

namespace svplot {

// Draws the frame, grid and axes of `chart` in a `size` rectangle at the cursor, with its legend on
// the right unless `legend` is false (charts that share one legend). Returns false when it is
// clipped away (then call nothing else, EndChart included).
bool BeginChart(const char* id, const sv::chart::Chart& chart, ImVec2 size, bool legend = true);
void PlotSeries(const sv::chart::Series& series, int index);
void EndChart();

// BeginChart, every series, EndChart.
void Chart(const char* id, const sv::chart::Chart& chart, ImVec2 size, bool legend = true);

// The height, in ems, a chart needs for its title and its whole legend beside the plot.
float LegendHeightEm(const sv::chart::Chart& chart);

// A series' marker as an item one line tall at the cursor (a shared legend's entry).
void MarkerGlyph(sv::chart::Marker marker, std::uint32_t color);

}  // namespace svplot
