// Charts as data and as SVG.
#include "chart.hpp"

#include "algorithms.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sv::chart {

double to_axis(double v, bool log2) { return log2 ? std::log2(std::max(v, 1e-9)) : v; }

Extent extent(const Chart& c) {
  Extent e{1e300, -1e300, 1e300, -1e300};
  for (const Series& s : c.series)
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      e.x0 = std::min(e.x0, to_axis(s.x[i], c.log2_x));
      e.x1 = std::max(e.x1, to_axis(s.x[i], c.log2_x));
      e.y0 = std::min(e.y0, to_axis(s.y[i], c.log2_y));
      e.y1 = std::max(e.y1, to_axis(s.y[i], c.log2_y));
    }
  if (e.x0 > e.x1) return {};
  if (!c.log2_y) e.y0 = std::min(e.y0, 0.0);
  const double px = std::max(1e-9, (e.x1 - e.x0) * 0.05), py = std::max(1e-9, (e.y1 - e.y0) * 0.08);
  return {e.x0 - px, e.x1 + px, e.y0 - (c.log2_y ? py : 0), e.y1 + py};
}

std::vector<std::pair<double, std::string>> ticks(double lo, double hi, bool log2) {
  std::vector<std::pair<double, std::string>> out;
  if (log2) {
    const int step = hi - lo > 12 ? 2 : 1;
    for (int k = static_cast<int>(std::ceil(lo)); k <= static_cast<int>(std::floor(hi)); ++k)
      if (k % step == 0) out.push_back({k, "2^" + std::to_string(k)});
    return out;
  }
  const double raw = (hi - lo) / 6, mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
  const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
  for (double v = std::ceil(lo / step) * step; v <= hi; v += step) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    out.push_back({v, buf});
  }
  return out;
}

std::vector<bool> thin_labels(const std::vector<float>& centers, const std::vector<float>& sizes, float gap) {
  std::vector<bool> keep(centers.size(), false);
  float end = -1e30f;
  for (std::size_t i = 0; i < centers.size(); ++i) {
    const float start = centers[i] - sizes[i] / 2;
    if (start < end + gap) continue;
    keep[i] = true;
    end = centers[i] + sizes[i] / 2;
  }
  return keep;
}

namespace {
// An algorithm's look is a column of the algorithm table; the bench's two baselines are not
// algorithms and look as this says.
AlgorithmLook algorithm_look(const std::string& algorithm) {
  // A block-level kernel timed on its own ("block brent-kung") looks as its algorithm does.
  constexpr std::string_view kBlock = "block ";
  const std::string_view name = std::string_view(algorithm).substr(algorithm.rfind(kBlock, 0) == 0 ? kBlock.size() : 0);
  if (const AlgorithmInfo* block = find_algorithm(name)) return block->look;
  if (const DeviceAlgorithmInfo* device = find_device_algorithm(name)) return device->look;
  if (name == "copy") return {0x999999FF, Marker::Square};
  if (name == "cub") return {0x228833FF, Marker::Diamond};
  if (name == "sequential") return {0x000000FF, Marker::Cross};  // the float chart's loop
  return {};
}
}  // namespace

std::uint32_t algorithm_color(const std::string& algorithm) { return algorithm_look(algorithm).colour; }
Marker algorithm_marker(const std::string& algorithm) { return algorithm_look(algorithm).marker; }

MarkerShape marker_shape(Marker m) {
  MarkerShape s;
  const float pi = 3.14159265f;
  auto ring = [&](int n, float r0, float r1, float phase) {  // n points alternating radii r0, r1
    for (int i = 0; i < n; ++i) {
      const float a = phase + 2 * pi * static_cast<float>(i) / static_cast<float>(n), r = i % 2 ? r1 : r0;
      s.outline.push_back({r * std::sin(a), -r * std::cos(a)});
    }
  };
  switch (m) {
    case Marker::Circle: ring(16, 1, 1, 0); break;
    case Marker::Ring: ring(16, 1.35f, 1.35f, 0), s.hollow = true; break;  // larger: a circle under it shows
    case Marker::Square: ring(4, 1.2f, 1.2f, pi / 4); break;
    case Marker::Triangle: ring(3, 1.3f, 1.3f, 0); break;
    case Marker::TriangleDown: ring(3, 1.3f, 1.3f, pi); break;
    case Marker::TriangleLeft: ring(3, 1.3f, 1.3f, -pi / 2); break;
    case Marker::TriangleRight: ring(3, 1.3f, 1.3f, pi / 2); break;
    case Marker::Diamond: ring(4, 1.3f, 1.3f, 0); break;
    case Marker::Star: ring(10, 1.4f, 0.6f, 0); break;
    case Marker::Cross:
    case Marker::Plus: {
      const float w = 0.35f, l = 1.25f;  // a plus of two bars, turned 45 degrees for the cross
      const std::pair<float, float> plus[] = {{-w, -l}, {w, -l}, {w, -w}, {l, -w}, {l, w}, {w, w},
                                              {w, l},   {-w, l}, {-w, w}, {-l, w}, {-l, -w}, {-w, -w}};
      const float c = m == Marker::Cross ? std::cos(pi / 4) : 1, sn = m == Marker::Cross ? std::sin(pi / 4) : 0;
      for (const auto& [x, y] : plus) s.outline.push_back({x * c - y * sn, x * sn + y * c});
      break;
    }
  }
  return s;
}

std::vector<Chart> work_steps_charts(const std::vector<WorkStepsPoint>& points, std::int64_t depth_n,
                                     const std::vector<std::string>& only, bool log_steps) {
  Chart steps{"Steps (depth) against n: points measured, dashed lines the closed forms", "n", "steps", true, log_steps, {}};
  Chart work{"Operator applications (work) against n: points measured, dashed lines the closed forms", "n", "operations",
             true, true, {}};
  Chart depth{"Work against depth at n = " + std::to_string(depth_n) + " (dashed: Snir's bound, depth + work >= 2n - 2)",
              "steps (depth)", "operations (work)", false, true, {}};
  std::vector<std::string> order;
  for (const WorkStepsPoint& p : points)
    if (std::find(order.begin(), order.end(), p.algorithm) == order.end() &&
        (only.empty() || std::find(only.begin(), only.end(), p.algorithm) != only.end()))
      order.push_back(p.algorithm);
  std::int64_t max_depth = 1;
  for (const std::string& a : order) {
    Series s_steps{a, algorithm_color(a), {}, {}, false, true, algorithm_marker(a), ""}, s_work = s_steps;
    Series c_steps{a + " (closed form)", algorithm_color(a), {}, {}, true, false, Marker::Circle, ""}, c_work = c_steps;
    for (const WorkStepsPoint& p : points) {
      if (p.algorithm != a) continue;
      s_steps.x.push_back(p.n);
      s_steps.y.push_back(p.steps);
      s_work.x.push_back(p.n);
      s_work.y.push_back(p.operations);
      if (p.closed) {
        c_steps.x.push_back(p.n);
        c_steps.y.push_back(p.closed->steps);
        c_work.x.push_back(p.n);
        c_work.y.push_back(p.closed->operations);
      }
      if (p.n == depth_n) {
        depth.series.push_back({a, algorithm_color(a), {static_cast<double>(p.steps)}, {static_cast<double>(p.operations)},
                                false, true, algorithm_marker(a), ""});
        max_depth = std::max(max_depth, p.steps);
      }
    }
    steps.series.push_back(c_steps);
    steps.series.push_back(s_steps);
    work.series.push_back(c_work);
    work.series.push_back(s_work);
  }
  // Snir: depth + size >= 2n - 2, from the least possible depth (log2 n) to past the deepest network.
  Series snir{"Snir: depth + work >= 2n - 2", 0x868E96FF, {}, {}, true, true, Marker::Circle, ""};
  const auto lo = static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(std::max<std::int64_t>(depth_n, 2)))));
  for (std::int64_t d = lo; d <= max_depth + 2; ++d) {
    snir.x.push_back(static_cast<double>(d));
    snir.y.push_back(static_cast<double>(snir_min_operations(depth_n, d)));
  }
  depth.series.insert(depth.series.begin(), snir);
  for (Chart* c : {&steps, &work, &depth}) mark_repeated_series(*c);
  return {steps, work, depth};
}

void mark_repeated_series(Chart& c) {
  for (std::size_t i = 0; i < c.series.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (!c.series[i].line && !c.series[j].line && c.series[i].x == c.series[j].x && c.series[i].y == c.series[j].y) {
        c.series[i].note = "= " + c.series[j].name;
        c.series[i].hollow = true;
        break;
      }
}


Chart throughput_chart(const BenchResult& r, bool block_level) {
  Chart c{"Throughput on " + (r.device.empty() ? std::string("the GPU") : r.device) + " (" + std::string(type_name(r.type)) +
              " inclusive sum" + (block_level ? ", block-level kernels" : "") + ")",
          "n", "G items/s", true, false, {}};
  for (const BenchRow& row : r.rows) {
    const bool block_row = row.algorithm.rfind("block ", 0) == 0, reference = row.algorithm == "copy" || row.algorithm == "cub";
    if (!reference && block_row != block_level) continue;
    auto it = std::find_if(c.series.begin(), c.series.end(), [&](const Series& s) { return s.name == row.algorithm; });
    if (it == c.series.end()) {
      c.series.push_back({row.algorithm, algorithm_color(row.algorithm), {}, {}, false, true, algorithm_marker(row.algorithm), ""});
      it = c.series.end() - 1;
    }
    it->x.push_back(static_cast<double>(row.n));
    it->y.push_back(row.items_per_s / 1e9);
  }
  return c;
}

ChartGrid chart_grid(float w, float h, int n, float em, float gap) {
  ChartGrid g;
  n = std::max(n, 1);
  g.columns = h / static_cast<float>(n) >= 9 * em ? 1 : std::clamp(static_cast<int>((w + gap) / (16 * em + gap)), 1, n);
  g.rows = (n + g.columns - 1) / g.columns;
  g.w = std::max(16 * em, (w - gap * static_cast<float>(g.columns - 1)) / static_cast<float>(g.columns));
  g.h = std::max(6 * em, (h - gap * static_cast<float>(g.rows - 1)) / static_cast<float>(g.rows));
  return g;
}

namespace {
// A marker's points and paint as SVG attributes, at (x, y), `r` pixels in radius; `hollow` outlines it
// whatever its shape.
std::string marker_svg(Marker m, bool hollow, std::uint32_t color, double x, double y, double r) {
  const MarkerShape shape = marker_shape(m);
  if (hollow && !shape.hollow) r *= kHollowScale;
  std::ostringstream s;
  s << "points=\"";
  for (const auto& [dx, dy] : shape.outline) s << x + dx * r << ',' << y + dy * r << ' ';
  s << "\" ";
  if (shape.hollow || hollow) s << "fill=\"none\" stroke=\"" << svg::color(color) << "\" stroke-width=\"1.5\"";
  else s << "fill=\"" << svg::color(color) << "\"";
  return s.str();
}
}  // namespace

std::string charts_svg(const std::vector<Chart>& charts, int width, int chart_height) {
  std::ostringstream s;
  const int height = chart_height * static_cast<int>(charts.size());
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 "
    << width << ' ' << height << "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (std::size_t k = 0; k < charts.size(); ++k) {
    const Chart& c = charts[k];
    const Extent e = extent(c);
    const double left = 70, right = width - 230.0, top = k * chart_height + 34.0, bottom = (k + 1) * chart_height - 44.0;
    auto px = [&](double x) { return left + (to_axis(x, c.log2_x) - e.x0) / (e.x1 - e.x0) * (right - left); };
    auto py = [&](double y) { return bottom - (to_axis(y, c.log2_y) - e.y0) / (e.y1 - e.y0) * (bottom - top); };
    s << "<g class=\"chart\" data-title=\"" << svg::escape(c.title) << "\">\n";
    s << "<text x=\"" << left << "\" y=\"" << top - 12 << "\" font-size=\"14\">" << svg::escape(c.title) << "</text>\n";
    s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << right - left << "\" height=\"" << bottom - top
      << "\" fill=\"none\" stroke=\"#495057\"/>\n";
    for (const auto& [v, label] : ticks(e.x0, e.x1, c.log2_x)) {
      const double x = left + (v - e.x0) / (e.x1 - e.x0) * (right - left);
      s << "<line x1=\"" << x << "\" y1=\"" << top << "\" x2=\"" << x << "\" y2=\"" << bottom << "\" stroke=\"#e9ecef\"/>"
        << "<text x=\"" << x << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\">" << label << "</text>\n";
    }
    for (const auto& [v, label] : ticks(e.y0, e.y1, c.log2_y)) {
      const double y = bottom - (v - e.y0) / (e.y1 - e.y0) * (bottom - top);
      s << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << right << "\" y2=\"" << y << "\" stroke=\"#e9ecef\"/>"
        << "<text x=\"" << left - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << label << "</text>\n";
    }
    s << "<text x=\"" << (left + right) / 2 << "\" y=\"" << bottom + 34 << "\" text-anchor=\"middle\">" << svg::escape(c.x_label)
      << "</text>\n";
    int legend = 0;
    for (const Series& ser : c.series) {
      if (ser.line) {
        s << "<polyline class=\"line\" data-series=\"" << svg::escape(ser.name) << "\" fill=\"none\" stroke=\"" << svg::color(ser.color)
          << "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" points=\"";
        for (std::size_t i = 0; i < ser.x.size(); ++i) s << px(ser.x[i]) << ',' << py(ser.y[i]) << ' ';
        s << "\"/>\n";
      } else {
        for (std::size_t i = 0; i < ser.x.size(); ++i)
          s << "<polygon class=\"point\" data-series=\"" << svg::escape(ser.name) << "\" data-x=\"" << ser.x[i] << "\" data-y=\""
            << ser.y[i] << "\" " << marker_svg(ser.marker, ser.hollow, ser.color, px(ser.x[i]), py(ser.y[i]), 4) << "><title>"
            << svg::escape(ser.name) << ": " << c.x_label << " = " << ser.x[i] << ", " << c.y_label << " = " << ser.y[i]
            << "</title></polygon>\n";
      }
      if (ser.legend) {
        const double ly = top + 8 + 18 * legend++;
        if (ser.line)
          s << "<line x1=\"" << right + 10 << "\" y1=\"" << ly - 3 << "\" x2=\"" << right + 24 << "\" y2=\"" << ly - 3
            << "\" stroke=\"" << svg::color(ser.color) << "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>";
        else
          s << "<polygon " << marker_svg(ser.marker, ser.hollow, ser.color, right + 17, ly - 3, 5) << "/>";
        s << "<text x=\"" << right + 28 << "\" y=\"" << ly + 1 << "\">" << svg::escape(ser.name)
          << (ser.note.empty() ? "" : " (" + svg::escape(ser.note) + ")") << "</text>\n";
      }
    }
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace sv::chart
