// Look-back analysis of the tile-level trace.
#include "analysis/lookback.hpp"

#include <algorithm>
#include <cstddef>

#include "core/values.hpp"

namespace sv {

LookbackSummary summarize_lookback(const Trace& trace, int pass) {
  LookbackSummary s;
  if (pass < 0)
    for (const TileEvent& e : trace.tile_events) pass = std::max<int>(pass, e.pass);
  if (pass < 0) return s;
  std::int64_t tiles = 0;
  for (const TileEvent& e : trace.tile_events)
    if (e.pass == pass) tiles = std::max(tiles, e.tile + 1);
  s.tiles.resize(static_cast<std::size_t>(tiles));
  for (std::int64_t t = 0; t < tiles; ++t) s.tiles[t].tile = t;
  for (const TileEvent& e : trace.tile_events) {
    if (e.pass != pass) continue;
    TileSummary& t = s.tiles[static_cast<std::size_t>(e.tile)];
    switch (e.kind) {
      case TileEventKind::Start:
        t.block = e.block;
        t.sm = e.sm;
        t.start = e.time;
        break;
      case TileEventKind::Publish: {  // in the target's descriptor (a shared P: an earlier tile's); the first counts
        TileSummary& d = s.tiles[static_cast<std::size_t>(e.target)];
        std::int64_t& at = e.flag == TileFlag::A ? d.a_at : d.p_at;
        if (at < 0 || static_cast<std::int64_t>(e.time) < at) {
          at = static_cast<std::int64_t>(e.time);
          (e.flag == TileFlag::A ? d.aggregate : d.inclusive) = e.value;
        }
        break;
      }
      case TileEventKind::Inspect:
        t.inspections.push_back({e.target, e.flag, e.value, e.spins, e.time, false});
        t.spins += e.spins;
        break;
      case TileEventKind::Wait:
        if (!t.waited) t.wait_began = e.time;
        t.waited = true;
        t.waiting_for = e.target;
        break;
      case TileEventKind::End:
        t.end = e.time;
        t.ended = true;
        break;
      case TileEventKind::Record:  // the value ahead of its flag: the Publish that follows is what readers act on
      case TileEventKind::Landed:  // the pipelined kernel's warp roles: gui/pipeline_model.hpp reads them
      case TileEventKind::LookBack:
      case TileEventKind::Held:
      case TileEventKind::Store:
        break;
    }
  }
  for (TileSummary& t : s.tiles) {
    for (TileInspection& i : t.inspections) {
      const TileSummary& target = s.tiles.at(static_cast<std::size_t>(i.target));
      const bool published = i.flag == TileFlag::A ? target.a_at >= 0 : target.p_at >= 0;
      const Payload& expected = i.flag == TileFlag::A ? target.aggregate : target.inclusive;
      i.stale = !published || i.value != expected;  // a descriptor's value is copied, never recomputed
      s.stale_reads += i.stale;
    }
    s.inspections += static_cast<std::int64_t>(t.inspections.size());
    s.max_spins = std::max(s.max_spins, t.spins);
    s.waited_tiles += t.waited;
  }
  return s;
}

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

std::string describe_inspection(const Trace& trace, std::int64_t tile, const TileInspection& i) {
  const ValueType type = trace.meta.type;
  std::string out = "tile " + std::to_string(tile) + " inspected tile " + std::to_string(i.target) + ": saw " +
                    std::string(tile_flag_name(i.flag)) + " with " + format_value(type, i.value);
  if (i.spins) out += " after " + std::to_string(i.spins) + " polls";
  if (i.stale) {
    const auto switch_on = trace.meta.options.find("torn");
    const bool torn = switch_on != trace.meta.options.end() && switch_on->second == "on";
    for (const TileEvent& e : trace.tile_events)
      if (e.kind == TileEventKind::Publish && e.target == i.target && e.flag == i.flag) {
        out += ", but tile " + std::to_string(i.target) + " published " + std::string(tile_flag_name(i.flag)) +
               " with " + format_value(type, e.value) +
               (torn ? " (torn: the 16-byte descriptor's flag half arrived before its value half)"
                     : " (stale: the flag arrived before its value)");
        break;
      }
  }
  return out;
}

}  // namespace sv
