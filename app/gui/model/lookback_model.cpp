// The look-back view's model: lanes, the time axis, the descriptor changes, and the descriptors at a time.
#include "gui/model/lookback_model.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "analysis/analysis.hpp"
#include "core/values.hpp"

namespace sv::gui {

namespace {

// Lanes: each SM gets as many lanes as it had tiles running at once (its resident slots in use),
// and a tile takes the first lane of its SM that is free when it starts.
void assign_lanes(LookbackRun& r) {
  std::vector<std::size_t> order(r.spans.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r.spans[a].start < r.spans[b].start; });
  std::map<int, std::vector<std::uint64_t>> busy_until;  // per SM, per local lane
  std::vector<int> local(r.spans.size());
  for (std::size_t k : order) {
    TileSpan& s = r.spans[k];
    auto& lanes = busy_until[s.sm];
    const std::uint64_t until = s.ended ? s.end : UINT64_MAX;
    std::size_t l = 0;
    while (l < lanes.size() && lanes[l] > s.start) ++l;
    if (l == lanes.size()) lanes.push_back(until);
    else lanes[l] = until;
    local[k] = static_cast<int>(l);
  }
  std::map<int, int> first;
  r.lanes = 0;
  r.lane_sm.clear();
  for (const auto& [sm, lanes] : busy_until) {
    first[sm] = r.lanes;
    r.lanes += static_cast<int>(lanes.size());
    r.lane_sm.insert(r.lane_sm.end(), lanes.size(), sm);
  }
  for (std::size_t k = 0; k < r.spans.size(); ++k) r.spans[k].lane = first[r.spans[k].sm] + local[k];
}

}  // namespace

namespace {

// Times from 0, and the gaps between launches folded to a sliver: on the GPU a traced multi-launch
// run spends milliseconds between launches copying snapshots to the host, while its kernels take
// microseconds. Returns the time removed.
std::uint64_t rebase_and_fold(std::vector<TileEvent>& events) {
  if (events.empty()) return 0;
  std::map<int, std::pair<std::uint64_t, std::uint64_t>> range;  // pass -> [first, last]
  std::uint64_t t0 = UINT64_MAX;
  for (const TileEvent& e : events) {
    auto [it, fresh] = range.try_emplace(e.pass, e.time, e.time);
    it->second.first = std::min(it->second.first, e.time);
    it->second.second = std::max(it->second.second, e.time);
    t0 = std::min(t0, e.time);
  }
  std::uint64_t busy = 0;
  for (const auto& [pass, r] : range) busy += r.second - r.first;
  const std::uint64_t allowed = busy / 50 + 1;
  std::map<int, std::uint64_t> shift;  // pass -> time removed before it
  std::uint64_t removed = 0, last_end = t0;
  for (const auto& [pass, r] : range) {
    if (r.first > last_end && r.first - last_end > allowed) removed += r.first - last_end - allowed;
    shift[pass] = removed;
    last_end = std::max(last_end, r.second);
  }
  for (TileEvent& e : events) e.time = e.time - t0 - shift[e.pass];
  return removed;
}

}  // namespace

bool descriptor_value_wrong(const LookbackRun& run, std::int64_t tile, bool inclusive, const Payload& value) {
  const auto& expected = inclusive ? run.expected_inclusive : run.expected_aggregate;
  if (tile < 0 || tile >= static_cast<std::int64_t>(expected.size())) return false;
  const auto terms = static_cast<std::size_t>(std::min((tile + 1) * run.trace.meta.capacity, run.trace.meta.n));
  return !values_match(run.trace.meta.type, expected[static_cast<std::size_t>(tile)], value, terms);
}

LookbackRun make_lookback_run(Trace trace) {
  LookbackRun r;
  r.trace = std::move(trace);
  r.folded = rebase_and_fold(r.trace.tile_events);
  const Trace& t = r.trace;
  r.outcome = check_result(t).outcome;
  r.summary = summarize_lookback(t);
  r.tiles = std::max<std::int64_t>(t.meta.grid, 0);
  if (t.tile_events.empty()) return r;
  r.pipeline = make_pipeline_run(t);
  if (t.meta.flags.empty() && t.meta.capacity > 0 && static_cast<std::int64_t>(t.meta.input.size()) == t.meta.n) {
    const std::vector<Payload> ref = reference_scan(t.meta.op, t.meta.type, t.meta.input, false);
    for (std::int64_t tile = 0; tile * t.meta.capacity < t.meta.n; ++tile) {
      const std::int64_t first = tile * t.meta.capacity, last = std::min(first + t.meta.capacity, t.meta.n) - 1;
      Payload sum = t.meta.input[static_cast<std::size_t>(first)];
      for (std::int64_t i = first + 1; i <= last; ++i)
        sum = apply_op(t.meta.op, t.meta.type, sum, t.meta.input[static_cast<std::size_t>(i)]);
      r.expected_aggregate.push_back(sum);
      r.expected_inclusive.push_back(ref[static_cast<std::size_t>(last)]);
    }
  }

  std::vector<std::size_t> order(t.tile_events.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return t.tile_events[a].time < t.tile_events[b].time; });
  r.t0 = t.tile_events[order.front()].time;
  r.t1 = t.tile_events[order.back()].time;

  // The emulator's events are when a store issues; other tiles see it a round trip later, so the
  // table shows it then: what any reader at that moment would read. (A GPU trace's times are its
  // stores' own; when they land is not known.)
  if (t.meta.executor.kind != "gpu" && t.meta.options.count("latency"))
    r.visible_after = std::strtoull(t.meta.options.at("latency").c_str(), nullptr, 10);
  // Where a value has its own store (a Record event), the Publish stores only the flag.
  std::set<std::tuple<int, std::int64_t, TileFlag>> recorded;
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Record) recorded.insert({e.pass, e.target, e.flag});
  std::map<std::pair<int, std::int64_t>, std::size_t> span_of;  // (pass, tile) -> index in spans
  std::map<int, std::int64_t> pass_tiles;                        // pass -> tiles in it
  bool published = false;
  for (std::size_t k : order) {
    const TileEvent& e = t.tile_events[k];
    pass_tiles[e.pass] = std::max(pass_tiles[e.pass], e.tile + 1);
    auto [it, fresh] = span_of.try_emplace({e.pass, e.tile}, r.spans.size());
    if (fresh) {
      TileSpan s;
      s.tile = e.tile;
      s.pass = e.pass;
      s.sm = e.sm;
      s.start = e.time;
      r.spans.push_back(s);
    }
    TileSpan& s = r.spans[it->second];
    switch (e.kind) {
      case TileEventKind::Start:
        s.start = e.time;
        s.sm = e.sm;
        break;
      case TileEventKind::End:
        s.end = e.time;
        s.ended = true;
        if (!s.waits.empty() && s.waits.back().second == UINT64_MAX) s.waits.back().second = e.time;
        break;
      case TileEventKind::Wait:
        if (s.waits.empty() || s.waits.back().second != UINT64_MAX) s.waits.push_back({e.time, UINT64_MAX});
        break;
      case TileEventKind::Inspect:  // the read that found the window usable ends the wait
        if (!s.waits.empty() && s.waits.back().second == UINT64_MAX) s.waits.back().second = e.time;
        break;
      case TileEventKind::Landed:  // the pipelined kernel's warp roles (pipeline_model.hpp)
      case TileEventKind::LookBack:
      case TileEventKind::Held:
      case TileEventKind::Store:
        break;
      case TileEventKind::Record:
      case TileEventKind::Publish: {
        published = true;
        using F = DescriptorChange::Field;
        const std::uint64_t seen_at = e.time + r.visible_after;
        // The descriptor is the target's: the tile's own, or a later tile's shared P (share=on).
        const std::int64_t d = e.target;
        if (e.kind == TileEventKind::Publish) r.changes.push_back({seen_at, d, F::Flag, e.flag, e.value});
        if (e.kind == TileEventKind::Publish && recorded.count({e.pass, d, e.flag})) break;
        r.changes.push_back({seen_at, d, e.flag == TileFlag::A ? F::Aggregate : F::Inclusive, e.flag, e.value});
        // Tile 0 has no predecessor: its aggregate is its inclusive prefix (the paper's processor 0
        // "copied it to the inclusive_prefix field").
        if (d == 0 && e.flag == TileFlag::P) r.changes.push_back({seen_at, d, F::Aggregate, e.flag, e.value});
        break;
      }
    }
  }
  // A deadlocked run is drawn on past the moment the emulator found it, so the waits that never
  // end show as such; they stay open (UINT64_MAX) in the model.
  if (r.outcome == Outcome::Deadlock) r.t1 += (r.t1 - r.t0) / 2 + 1;

  const int sums = t.find_buffer("tile sums"), scanned = t.find_buffer("scanned sums");
  if (!published && sums >= 0 && scanned >= 0 && !t.snapshots.empty()) {
    r.derived_descriptors = true;
    const auto& reduced = t.snapshots.front()[static_cast<std::size_t>(sums)];
    const auto& prefixes = t.snapshots.back()[static_cast<std::size_t>(scanned)];
    std::uint64_t last_start = UINT64_MAX;
    const int last_pass = pass_tiles.rbegin()->first;
    for (const TileSpan& s : r.spans)
      if (s.pass == last_pass) last_start = std::min(last_start, s.start);
    for (const TileSpan& s : r.spans) {
      if (s.pass != 0 || !s.ended || s.tile >= static_cast<std::int64_t>(reduced.values.size())) continue;
      const Payload v = reduced.values[static_cast<std::size_t>(s.tile)];
      r.changes.push_back({s.end, s.tile, DescriptorChange::Field::Aggregate, TileFlag::A, v});
      r.changes.push_back({s.end, s.tile, DescriptorChange::Field::Flag, TileFlag::A, v});
      if (last_pass > 0 && s.tile < static_cast<std::int64_t>(prefixes.values.size())) {
        const Payload p = prefixes.values[static_cast<std::size_t>(s.tile)];
        r.changes.push_back({last_start, s.tile, DescriptorChange::Field::Inclusive, TileFlag::P, p});
        r.changes.push_back({last_start, s.tile, DescriptorChange::Field::Flag, TileFlag::P, p});
      }
    }
  }
  std::stable_sort(r.changes.begin(), r.changes.end(), [](const DescriptorChange& a, const DescriptorChange& b) { return a.time < b.time; });
  if (!r.changes.empty()) r.t1 = std::max(r.t1, r.changes.back().time);

  // Every launch's tiles get lanes, the recursion's on the tile sums too; the descriptors' life is
  // the first level's launches only.
  for (TileSpan& s : r.spans) s.first_level = pass_tiles[s.pass] == r.tiles;
  assign_lanes(r);
  return r;
}

std::vector<DescriptorState> descriptors_at(const LookbackRun& run, std::uint64_t time) {
  std::vector<DescriptorState> d(static_cast<std::size_t>(run.tiles));
  for (const DescriptorChange& c : run.changes) {
    if (c.time > time) break;
    if (c.tile < 0 || c.tile >= run.tiles) continue;
    DescriptorState& s = d[static_cast<std::size_t>(c.tile)];
    switch (c.field) {
      case DescriptorChange::Field::Flag: s.flag = c.flag; break;
      case DescriptorChange::Field::Aggregate: s.aggregate = c.value; break;
      case DescriptorChange::Field::Inclusive: s.inclusive = c.value; break;
    }
  }
  // Life: of the launches whose tiles are the descriptors' (every launch but the recursion's).
  std::vector<std::uint8_t> started(d.size()), running(d.size());
  for (const TileSpan& s : run.spans) {
    if (!s.first_level || s.tile >= run.tiles || s.start > time) continue;
    const auto i = static_cast<std::size_t>(s.tile);
    started[i] = 1;
    if (!s.ended || s.end > time) {
      running[i] = 1;
      for (const auto& [began, ended] : s.waits)
        if (began <= time && time < ended) d[i].life = TileLife::Waiting;
    }
  }
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i].life == TileLife::Waiting) continue;
    d[i].life = !started[i] ? TileLife::NotStarted : running[i] ? TileLife::Running : TileLife::Done;
  }
  for (const TileSummary& t : run.summary.tiles)
    if (t.tile >= 0 && t.tile < run.tiles && d[static_cast<std::size_t>(t.tile)].life == TileLife::Waiting)
      d[static_cast<std::size_t>(t.tile)].waiting_for = t.waiting_for;
  return d;
}

std::vector<TileInspection> inspections_until(const LookbackRun& run, std::int64_t tile, std::uint64_t time) {
  std::vector<TileInspection> out;
  if (tile < 0 || tile >= static_cast<std::int64_t>(run.summary.tiles.size())) return out;
  for (const TileInspection& i : run.summary.tiles[static_cast<std::size_t>(tile)].inspections)
    if (i.time <= time) out.push_back(i);
  return out;
}

}  // namespace sv::gui
