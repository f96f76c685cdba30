// The float lesson's chart as data (chart.hpp).
#include <algorithm>

#include "chart.hpp"

namespace sv::chart {

std::vector<Chart> float_error_charts(const std::vector<FloatErrorPoint>& points, const std::string& what) {
  Chart largest{"Largest error of any output against n, in ULPs (" + what + ")", "n", "largest error (ULP)", true, false, {}};
  Chart mean{"Mean error of the outputs against n, in ULPs (" + what + ")", "n", "mean error (ULP)", true, false, {}};
  std::vector<std::string> order;
  for (const FloatErrorPoint& p : points)
    if (std::find(order.begin(), order.end(), p.algorithm) == order.end()) order.push_back(p.algorithm);
  for (const std::string& a : order) {
    Series s_largest{a, algorithm_color(a), {}, {}, false, true, algorithm_marker(a), ""}, s_mean = s_largest;
    for (const FloatErrorPoint& p : points) {
      if (p.algorithm != a) continue;
      s_largest.x.push_back(static_cast<double>(p.n));
      s_largest.y.push_back(p.max_ulps);
      s_mean.x.push_back(static_cast<double>(p.n));
      s_mean.y.push_back(p.mean_ulps);
    }
    largest.series.push_back(s_largest);
    mean.series.push_back(s_mean);
  }
  mark_repeated_series(largest);
  mark_repeated_series(mean);
  return {largest, mean};
}

}  // namespace sv::chart
