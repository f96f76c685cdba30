// Charts as data and as SVG.
#include "chart.hpp"

#include "svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
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

std::uint32_t algorithm_color(const std::string& algorithm) {
  static const std::map<std::string, std::uint32_t> colors = {
      {"kogge-stone", 0x1C7ED6FF}, {"kogge-stone-double-buffer", 0x74C0FCFF}, {"brent-kung", 0xF08C00FF},
      {"blelloch", 0x2B8A3EFF},    {"sklansky", 0xAE3EC9FF},                  {"kogge-stone-racy", 0xE03131FF},
      {"warp-brent-kung", 0xE8590CFF}, {"warp-raking", 0x862E9CFF},           {"warp-sklansky", 0xD6336CFF},
      {"copy", 0x5C940DFF},        {"cub", 0x0B7285FF}};
  auto it = colors.find(algorithm);
  return it == colors.end() ? 0x495057FF : it->second;
}

std::vector<Chart> work_steps_charts(const std::vector<WorkStepsPoint>& points, std::int64_t depth_n,
                                     const std::vector<std::string>& only, bool log_steps) {
  Chart steps{"Steps (depth) against n: points measured, dashed lines the closed forms", "n", "steps", true, log_steps, {}};
  Chart work{"Operator applications (work) against n: points measured, dashed lines the closed forms", "n", "operations",
             true, true, {}};
  Chart depth{"Work against depth at n = " + std::to_string(depth_n), "steps (depth)", "operations (work)", false, true, {}};
  std::vector<std::string> order;
  for (const WorkStepsPoint& p : points)
    if (std::find(order.begin(), order.end(), p.algorithm) == order.end() &&
        (only.empty() || std::find(only.begin(), only.end(), p.algorithm) != only.end()))
      order.push_back(p.algorithm);
  std::int64_t max_depth = 1;
  for (const std::string& a : order) {
    Series s_steps{a, algorithm_color(a), {}, {}, false, true}, s_work = s_steps;
    Series c_steps{a + " (closed form)", algorithm_color(a), {}, {}, true, false}, c_work = c_steps;
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
        depth.series.push_back({a, algorithm_color(a), {static_cast<double>(p.steps)}, {static_cast<double>(p.operations)}, false, true});
        max_depth = std::max(max_depth, p.steps);
      }
    }
    steps.series.push_back(c_steps);
    steps.series.push_back(s_steps);
    work.series.push_back(c_work);
    work.series.push_back(s_work);
  }
  // Snir: depth + size >= 2n - 2, from the least possible depth (log2 n) to past the deepest network.
  Series snir{"Snir: depth + work >= 2n - 2", 0x868E96FF, {}, {}, true, true};
  const auto lo = static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(std::max<std::int64_t>(depth_n, 2)))));
  for (std::int64_t d = lo; d <= max_depth + 2; ++d) {
    snir.x.push_back(static_cast<double>(d));
    snir.y.push_back(static_cast<double>(snir_min_operations(depth_n, d)));
  }
  depth.series.insert(depth.series.begin(), snir);
  return {steps, work, depth};
}


Chart throughput_chart(const BenchResult& r) {
  Chart c{"Throughput on " + (r.device.empty() ? std::string("the GPU") : r.device) + " (int32 inclusive sum)", "n",
          "G items/s", true, false, {}};
  for (const BenchRow& row : r.rows) {
    auto it = std::find_if(c.series.begin(), c.series.end(), [&](const Series& s) { return s.name == row.algorithm; });
    if (it == c.series.end()) {
      c.series.push_back({row.algorithm, algorithm_color(row.algorithm), {}, {}, false, true});
      it = c.series.end() - 1;
    }
    it->x.push_back(static_cast<double>(row.n));
    it->y.push_back(row.items_per_s / 1e9);
  }
  return c;
}

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
          s << "<circle class=\"point\" data-series=\"" << svg::escape(ser.name) << "\" data-x=\"" << ser.x[i] << "\" data-y=\""
            << ser.y[i] << "\" cx=\"" << px(ser.x[i]) << "\" cy=\"" << py(ser.y[i]) << "\" r=\"3.5\" fill=\"" << svg::color(ser.color)
            << "\"><title>" << svg::escape(ser.name) << ": " << c.x_label << " = " << ser.x[i] << ", " << c.y_label << " = "
            << ser.y[i] << "</title></circle>\n";
      }
      if (ser.legend) {
        const double ly = top + 8 + 18 * legend++;
        s << "<rect x=\"" << right + 12 << "\" y=\"" << ly - 8 << "\" width=\"10\" height=\"10\" fill=\"" << svg::color(ser.color)
          << "\"/><text x=\"" << right + 28 << "\" y=\"" << ly + 1 << "\">" << svg::escape(ser.name) << "</text>\n";
      }
    }
    s << "</g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace sv::chart
