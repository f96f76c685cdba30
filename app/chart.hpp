// Charts as data (series of points and lines on linear or log2 axes) and as SVG; the GUI draws the
// same Chart with its ImGui widget (gui/draw/plot.hpp). Today: the work-vs-steps charts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "analysis/float_error.hpp"
#include "analysis/work_steps.hpp"
#include "bench_result.hpp"

namespace sv::chart {

// A measured point's mark. Colour is never the only cue: each algorithm has its own shape too, and
// the hollow ones leave a point drawn under them visible (kogge-stone's points and its double-buffered
// variant's are the same).
using sv::Marker;  // the algorithm table's marker column (algorithms.hpp)
struct MarkerShape {
  std::vector<std::pair<float, float>> outline;  // a polygon around (0, 0), radius about 1, y down
  bool hollow = false;                            // drawn as an outline only
};
MarkerShape marker_shape(Marker m);
// A filled shape drawn hollow (Series::hollow) is drawn this much larger, so the point under it shows.
inline constexpr float kHollowScale = 1.35f;

struct Series {
  std::string name;
  std::uint32_t color = 0x000000FF;  // 0xRRGGBBAA
  std::vector<double> x, y;
  bool line = false;    // a line through the points (closed forms, bounds), else markers (measurements)
  bool legend = true;
  Marker marker = Marker::Circle;
  std::string note;  // said after the name in legends and tooltips ("= kogge-stone": drawn over it)
  bool hollow = false;  // markers drawn as outlines whatever their shape: its points are all an earlier series'
};

struct Chart {
  std::string title, x_label, y_label;
  bool log2_x = false, log2_y = false;
  std::vector<Series> series;
};

// The plotted extent in axis units (log2 applied where the axis is log2), padded a little.
struct Extent {
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
};
Extent extent(const Chart& c);
double to_axis(double v, bool log2);
// Tick positions in axis units, with their labels (powers of two on log2 axes).
std::vector<std::pair<double, std::string>> ticks(double lo, double hi, bool log2);

// Which tick labels to draw along an axis so that none runs into the one before: `centers` in
// increasing order and `sizes` (the labels' extents along the axis), in pixels; a label is kept when it
// starts at least `gap` after the last kept one ends ("2^1 2^3 2^5" where "2^12^22^3" would run together).
std::vector<bool> thin_labels(const std::vector<float>& centers, const std::vector<float>& sizes, float gap);

// Each algorithm's colour (from the Okabe-Ito and Tol colour-blind safe sets) and marker, the same
// in every chart.
std::uint32_t algorithm_color(const std::string& algorithm);
Marker algorithm_marker(const std::string& algorithm);

// Steps against n, operations against n (measured points, closed forms as lines), and work against
// depth at n = depth_n with Snir's bound depth + size >= 2n - 2. `only`: the algorithms to plot (empty:
// every one measured); `log_steps`: the steps axis in log2, so that deep networks (warp-raking) do not
// flatten the shallow ones.
std::vector<Chart> work_steps_charts(const std::vector<WorkStepsPoint>& points, std::int64_t depth_n,
                                     const std::vector<std::string>& only = {}, bool log_steps = false);

// A series whose points are all an earlier one's says so ("= kogge-stone") and is drawn hollow:
// filled on top of it, it would hide it.
void mark_repeated_series(Chart& c);

// The float lesson's chart: the largest and the mean error in ULPs against n, a series per algorithm
// and the sequential loop (black crosses). `what` names the type and input in the titles.
std::vector<Chart> float_error_charts(const std::vector<FloatErrorPoint>& points, const std::string& what);

// Items per second against n, a series per algorithm: the device-wide scans', or with `block_level`
// the block-level kernels' (each block scanning its own tile); the copy and CUB in both, to compare.
Chart throughput_chart(const BenchResult& result, bool block_level = false);

std::string charts_svg(const std::vector<Chart>& charts, int width, int chart_height);

// How `n` charts share a `w` x `h` area (pixels, `em` the font size): stacked while each gets 9
// lines of text, else side by side in as many columns of at least 16 em as fit, so a lecture's large
// font keeps every chart on screen; a chart is never under 6 em tall or 16 em wide (then the area
// scrolls). `gap` is between charts.
struct ChartGrid {
  int columns = 1, rows = 1;
  float w = 0, h = 0;  // each chart
};
ChartGrid chart_grid(float w, float h, int n, float em, float gap);

}  // namespace sv::chart
