// The phase statistics of a clocked single-pass run (tile_times.hpp).
#include "tile_times.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace sv {

namespace {

PhaseQuantiles quantiles(std::vector<double> v) {
  PhaseQuantiles q;
  if (v.empty()) return q;
  std::sort(v.begin(), v.end());
  q.median = v[v.size() / 2];
  q.p90 = v[std::min(v.size() - 1, v.size() * 9 / 10)];
  return q;
}

}  // namespace

TilePhaseStats tile_phase_stats(const std::vector<TileTimes>& tiles) {
  TilePhaseStats s;
  const auto complete = [](const TileTimes& t) { return t.taken && t.aggregate && t.inclusive; };
  std::vector<double> load, lookback, late, after, lag;
  std::vector<std::uint64_t> all;
  std::uint64_t first = UINT64_MAX, last = 0, latest_a = 0;  // latest_a: the last A of the tiles before
  double late_sum = 0, lookback_sum = 0;
  constexpr std::size_t kMaxLag = 1 << 16;
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    const TileTimes& t = tiles[i];
    if (complete(t)) {
      ++s.tiles;
      first = std::min(first, t.taken);
      last = std::max(last, t.inclusive);
      all.insert(all.end(), {t.taken, t.aggregate, t.inclusive});
      load.push_back(static_cast<double>(t.aggregate) - static_cast<double>(t.taken));
      if (i > 0 && latest_a) {
        const double lb = static_cast<double>(t.inclusive) - static_cast<double>(t.aggregate);
        const double lt = latest_a > t.aggregate ? static_cast<double>(latest_a - t.aggregate) : 0.0;
        lookback.push_back(lb);
        late.push_back(lt);
        after.push_back(lb - lt);
        lookback_sum += lb;
        late_sum += lt;
        std::size_t j = i;  // the nearest tile before with its P out by this tile's A
        while (j > 0 && i - j < kMaxLag && !(complete(tiles[j - 1]) && tiles[j - 1].inclusive <= t.aggregate)) --j;
        lag.push_back(static_cast<double>(i - j + 1));
      }
    }
    if (t.aggregate) latest_a = std::max(latest_a, t.aggregate);
  }
  if (s.tiles) s.span_ns = static_cast<double>(last - first);
  s.load = quantiles(std::move(load));
  s.lookback = quantiles(std::move(lookback));
  s.late = quantiles(std::move(late));
  s.after = quantiles(std::move(after));
  s.p_lag = quantiles(std::move(lag));
  s.late_share = lookback_sum > 0 ? late_sum / lookback_sum : 0;
  std::sort(all.begin(), all.end());
  for (std::size_t k = 1; k < all.size(); ++k)
    if (all[k] > all[k - 1] && (s.tick_ns == 0 || all[k] - all[k - 1] < s.tick_ns)) s.tick_ns = all[k] - all[k - 1];
  return s;
}

}  // namespace sv
