// The look-back view: the model (runs, descriptor states, scenes), the presets, and the window.
//
// [SECTION] the model
// [SECTION] the scene
// [SECTION] presets and recording
// [SECTION] the window
#include "gui/lookback_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <set>
#include <tuple>

#include "analysis/analysis.hpp"
#include "core/values.hpp"
#include "gui/canvas.hpp"
#include "svg.hpp"

namespace sv::gui {

// ============================================================================================
// [SECTION] the model
// ============================================================================================

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

LookbackRun make_lookback_run(Trace trace) {
  LookbackRun r;
  r.trace = std::move(trace);
  r.folded = rebase_and_fold(r.trace.tile_events);
  const Trace& t = r.trace;
  r.outcome = check_result(t).outcome;
  r.summary = summarize_lookback(t);
  r.tiles = std::max<std::int64_t>(t.meta.grid, 0);
  if (t.tile_events.empty()) return r;

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
    if (e.kind == TileEventKind::Record) recorded.insert({e.pass, e.tile, e.flag});
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
      case TileEventKind::Record:
      case TileEventKind::Publish: {
        published = true;
        using F = DescriptorChange::Field;
        const std::uint64_t seen_at = e.time + r.visible_after;
        if (e.kind == TileEventKind::Publish) r.changes.push_back({seen_at, e.tile, F::Flag, e.flag, e.value});
        if (e.kind == TileEventKind::Publish && recorded.count({e.pass, e.tile, e.flag})) break;
        r.changes.push_back({seen_at, e.tile, e.flag == TileFlag::A ? F::Aggregate : F::Inclusive, e.flag, e.value});
        // Tile 0 has no predecessor: its aggregate is its inclusive prefix (the paper's processor 0
        // "copied it to the inclusive_prefix field").
        if (e.tile == 0 && e.flag == TileFlag::P) r.changes.push_back({seen_at, e.tile, F::Aggregate, e.flag, e.value});
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

const LookbackPalette& lookback_palette(const std::string& theme) {
  //                                    background  text        text_dim    grid        X           A           P           cell        lifetime    waiting     arrow       stale       cursor      selected
  static const LookbackPalette light = {0xFFFFFFFF, 0x1A1A1AFF, 0x6B6B6BFF, 0xB4B4B4FF, 0xD9D9D9FF, 0xF2A900FF, 0x2E9E44FF, 0xF4F4F4FF, 0x7FA7D9FF, 0xE0453AFF, 0x2A5DB0FF, 0xC2185BFF, 0x111111FF, 0x7B2FBEFF};
  static const LookbackPalette dark = {0x1E1E22FF, 0xEAEAEAFF, 0x9A9A9AFF, 0x55555CFF, 0x4A4A52FF, 0xE3A21AFF, 0x3DBB5AFF, 0x2B2B31FF, 0x4F79B8FF, 0xFF5A4EFF, 0x8AB4FFFF, 0xFF5FA2FF, 0xF0F0F0FF, 0xC38BFFFF};
  static const LookbackPalette contrast = {0x000000FF, 0xFFFFFFFF, 0xDDDDDDFF, 0xFFFFFFFF, 0x5A5A5AFF, 0xFFD000FF, 0x00E05AFF, 0x000000FF, 0x3C8CFFFF, 0xFF3030FF, 0x00E0FFFF, 0xFF40FFFF, 0xFFFFFFFF, 0xFF8C00FF};
  if (theme == "dark") return dark;
  if (theme == "high-contrast") return contrast;
  return light;
}

// ============================================================================================
// [SECTION] the scene
// ============================================================================================

namespace {

std::uint32_t flag_fill(const LookbackPalette& p, TileFlag f) {
  return f == TileFlag::P ? p.flag_p : f == TileFlag::A ? p.flag_a : p.flag_x;
}

std::uint32_t with_alpha(std::uint32_t rgba, std::uint32_t alpha) { return (rgba & 0xFFFFFF00u) | (alpha & 0xFF); }

// Appends a row of equal cells, folding runs of equal fill into one rect where cells are under 2 px.
void add_row(LookbackScene& s, std::vector<SceneRect>& cells) {
  if (cells.empty()) return;
  if (cells.front().w >= 2) {
    s.rects.insert(s.rects.end(), cells.begin(), cells.end());
    return;
  }
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i + 1;
    while (j < cells.size() && cells[j].fill == cells[i].fill) ++j;
    SceneRect r = cells[i];
    r.w = cells[j - 1].x + cells[j - 1].w - r.x;
    r.label.clear();
    r.border = 0;
    r.tile = j - i == 1 ? cells[i].tile : -1;
    s.merged_cells += static_cast<int>(j - i - 1);
    s.rects.push_back(std::move(r));
    i = j;
  }
}

// Appends one lane's marks (in time order, none overlapping the next), merging neighbours that
// would show as one: same fill, no border or label, and pixel columns that touch. A mark covers the
// columns whose centres it spans (as the rasterizer fills it), so the merged mark covers the same
// pixels. Thousands of tiles on a lane a thousand pixels wide become a few marks.
void add_lane_marks(LookbackScene& s, std::vector<SceneRect>& marks, bool fold) {
  auto first_column = [](float x) { return std::ceil(x - 0.5f); };
  for (std::size_t i = 0; i < marks.size();) {
    SceneRect r = std::move(marks[i]);
    std::size_t j = i + 1;
    if (fold && !r.border && r.label.empty()) {
      float end = first_column(r.x + r.w);
      while (j < marks.size() && !marks[j].border && marks[j].label.empty() && marks[j].fill == r.fill &&
             first_column(marks[j].x) <= end) {
        end = std::max(end, first_column(marks[j].x + marks[j].w));
        ++j;
      }
      if (j - i > 1) {
        r.x = first_column(r.x);
        r.w = end - r.x;
        r.tile = -1;
        s.merged_lane_marks += static_cast<int>(j - i - 1);
      }
    }
    s.rects.push_back(std::move(r));
    i = j;
  }
  marks.clear();
}

}  // namespace

LookbackScene build_lookback_scene(const LookbackRun& run, std::uint64_t time, const LookbackPalette& pal,
                                   const SceneOptions& o) {
  LookbackScene s;
  const float em = o.em, m = 0.5f * em;
  s.width = o.width;
  float y = m;
  if (!o.title.empty()) {
    s.texts.push_back({m, y, pal.text, o.title});
    y += 1.4f * em;
  }
  // The legend: flags, then the lifetimes' colours.
  if (o.legend) {
    float x = m;
    const std::pair<std::uint32_t, const char*> keys[] = {
        {pal.flag_x, "X: nothing published"}, {pal.flag_a, "A: aggregate"}, {pal.flag_p, "P: inclusive prefix"},
        {pal.lifetime, "running"}, {pal.waiting, "waiting"}, {with_alpha(pal.text_dim, 0x90), "done"}};
    for (const auto& [fill, text] : keys) {
      s.rects.push_back({x, y + 0.2f * em, 0.9f * em, 0.9f * em, fill, pal.grid, "", -1, SceneRect::Kind::Legend});
      s.texts.push_back({x + 1.2f * em, y, pal.text_dim, text});
      x += 1.6f * em + 0.55f * em * static_cast<float>(std::string_view(text).size());
    }
    y += 1.4f * em;
  }
  const float label_w = 7.5f * em;
  s.table_x = m + label_w;
  const float avail = std::max(o.width - s.table_x - m, 10.0f);
  const std::int64_t tiles = std::max<std::int64_t>(run.tiles, 1);
  s.cell_w = std::min(avail / static_cast<float>(tiles), 4.5f * em);
  s.row_h = 1.45f * em;
  const ValueType type = run.trace.meta.type;
  const auto states = descriptors_at(run, time);

  // Tile numbers, every k-th where they would crowd.
  const float digits_w = 0.62f * em * static_cast<float>(std::to_string(tiles - 1).size()) + 0.4f * em;
  const std::int64_t every = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(digits_w / std::max(s.cell_w, 1e-3f))));
  for (std::int64_t t = 0; t < run.tiles; t += every)
    s.texts.push_back({s.table_x + (static_cast<float>(t) + 0.5f) * s.cell_w, y, pal.text_dim, std::to_string(t), true});
  s.texts.push_back({m, y, pal.text_dim, "tile"});
  y += 1.2f * em;

  // Life strip: running, waiting, done.
  const float strip_h = 0.45f * em;
  std::vector<SceneRect> strip;
  for (std::int64_t t = 0; t < run.tiles; ++t) {
    const DescriptorState& d = states[static_cast<std::size_t>(t)];
    const std::uint32_t fill = d.life == TileLife::Waiting ? pal.waiting
                               : d.life == TileLife::Running ? pal.lifetime
                               : d.life == TileLife::Done ? with_alpha(pal.text_dim, 0x90)
                                                          : pal.background;
    strip.push_back({s.table_x + static_cast<float>(t) * s.cell_w, y, s.cell_w, strip_h, fill, 0, "", t, SceneRect::Kind::Lifetime});
  }
  add_row(s, strip);
  y += strip_h + 0.25f * em;

  // The descriptors: flag, aggregate, inclusive prefix.
  s.flag_y = y;
  const char* row_names[3] = {"flag", "aggregate", "inclusive prefix"};
  for (int row = 0; row < 3; ++row) {
    std::vector<SceneRect> cells;
    cells.reserve(static_cast<std::size_t>(run.tiles));
    for (std::int64_t t = 0; t < run.tiles; ++t) {
      const DescriptorState& d = states[static_cast<std::size_t>(t)];
      SceneRect r{s.table_x + static_cast<float>(t) * s.cell_w, y, s.cell_w, s.row_h, 0, pal.grid, "", t, SceneRect::Kind::Flag};
      if (row == 0) {
        r.fill = flag_fill(pal, d.flag);
        r.label = std::string(tile_flag_name(d.flag));
      } else {
        const auto& v = row == 1 ? d.aggregate : d.inclusive;
        r.kind = row == 1 ? SceneRect::Kind::Aggregate : SceneRect::Kind::Inclusive;
        r.fill = v ? pal.cell : pal.background;
        r.label = v ? format_value(type, *v) : "-";
      }
      // Flag colours are light enough for dark text in every theme; value cells take the theme's text.
      r.label_color = row == 0 ? 0x141414FF : pal.text;
      if (s.cell_w < 4) r.border = 0;
      if (t == o.selected) r.border = pal.selected, r.border_w = 3;
      cells.push_back(std::move(r));
    }
    add_row(s, cells);
    s.texts.push_back({m, y + (s.row_h - em) / 2, pal.text, row_names[row]});
    y += s.row_h;
  }

  // Arrows from the selected tile to the predecessors it inspected, below the table.
  const float arc_h = 3.2f * em;
  if (o.selected >= 0 && o.selected < run.tiles) {
    const float from_x = s.table_x + (static_cast<float>(o.selected) + 0.5f) * s.cell_w;
    auto arrow = [&](std::int64_t target, std::uint32_t color, std::string label, bool stale) {
      const float to_x = s.table_x + (static_cast<float>(target) + 0.5f) * s.cell_w;
      const float depth = std::min(arc_h - 1.2f * em, 0.6f * em + 0.35f * std::abs(from_x - to_x));
      s.arrows.push_back({from_x, y + 2, to_x, y + 2, -depth, color, std::move(label), target, stale});
    };
    // The last 32 inspections (one warp's window); labelled where the cells are wide enough to tell.
    const auto seen = inspections_until(run, o.selected, time);
    const bool labels = s.cell_w >= 2.2f * em;
    for (std::size_t k = seen.size() > 32 ? seen.size() - 32 : 0; k < seen.size(); ++k) {
      const TileInspection& i = seen[k];
      arrow(i.target, i.stale ? pal.stale : pal.arrow,
            labels ? std::string(tile_flag_name(i.flag)) + " " + format_value(type, i.value) : "", i.stale);
    }
    const DescriptorState& d = states[static_cast<std::size_t>(o.selected)];
    if (d.life == TileLife::Waiting && d.waiting_for >= 0) arrow(d.waiting_for, pal.waiting, "waits", false);
  }
  y += s.arrows.empty() ? 0.8f * em : arc_h;

  // Lanes: each tile's lifetime on the slot it ran in, waiting in the waiting colour; what lies
  // after the cursor is drawn faded.
  const std::uint64_t t_end = std::max<std::uint64_t>(o.t_end ? o.t_end : run.t1 - run.t0, 1);
  auto x_of = [&](std::uint64_t t) {
    const double f = static_cast<double>(t > run.t0 ? t - run.t0 : 0) / static_cast<double>(t_end);
    return s.table_x + static_cast<float>(std::min(f, 1.0)) * avail;
  };
  const bool gpu = run.trace.meta.executor.kind == "gpu";
  s.texts.push_back({m, y, pal.text_dim, gpu ? "SM lanes (ns)" : "SM lanes (cycles)"});
  y += 1.3f * em;
  s.lanes_y = y;
  s.lane_h = run.lanes > 16 ? std::max(3.0f, 1.15f * em * 16 / static_cast<float>(run.lanes)) : 1.15f * em;
  std::vector<std::vector<const TileSpan*>> per_lane(static_cast<std::size_t>(run.lanes));
  for (const TileSpan& sp : run.spans) per_lane[static_cast<std::size_t>(sp.lane)].push_back(&sp);
  int last_sm = -1;
  std::vector<SceneRect> bars, waits;
  for (int lane = 0; lane < run.lanes; ++lane) {
    const float ly = y + static_cast<float>(lane) * s.lane_h;
    const int sm = run.lane_sm[static_cast<std::size_t>(lane)];
    if (sm != last_sm && s.lane_h >= 0.8f * em) s.texts.push_back({m, ly, pal.text_dim, "SM " + std::to_string(sm)});
    last_sm = sm;
    auto& spans = per_lane[static_cast<std::size_t>(lane)];
    std::sort(spans.begin(), spans.end(), [](const TileSpan* a, const TileSpan* b) { return a->start < b->start; });
    for (std::size_t i = 0; i < spans.size();) {
      // Spans under 2 px that follow each other closely fold into one bar.
      const TileSpan& first = *spans[i];
      std::size_t j = i + 1;
      float x1 = x_of(first.ended ? first.end : run.t1);
      while (j < spans.size() && x1 - x_of(first.start) < 2 && x_of(spans[j]->start) - x1 < 1) {
        x1 = x_of(spans[j]->ended ? spans[j]->end : run.t1);
        ++j;
      }
      const float x0 = x_of(first.start), w = std::max(x1 - x0, 1.0f);
      const bool past = first.start <= time;
      const std::uint32_t fill = with_alpha(first.pass % 2 ? pal.flag_x : pal.lifetime, past ? 0xFF : 0x60);
      const std::string label = j - i == 1 && w > 2.5f * em ? std::to_string(first.tile) : "";
      bars.push_back({x0, ly + 1, w, s.lane_h - 2, fill, w >= 4 && s.lane_h >= 6 ? pal.grid : 0u, label,
                      j - i == 1 ? first.tile : -1, SceneRect::Kind::Lifetime, 0x141414FF});
      for (std::size_t k = i; k < j; ++k)
        for (const auto& [began, ended] : spans[k]->waits) {
          const float wx0 = x_of(began), wx1 = std::max(x_of(std::min(ended, run.t1)), wx0 + 1);
          waits.push_back({wx0, ly + 1 + (s.lane_h - 2) * 0.68f, wx1 - wx0, (s.lane_h - 2) * 0.32f,
                           with_alpha(pal.waiting, began <= time ? 0xFF : 0x60), 0, "", spans[k]->tile, SceneRect::Kind::Wait});
        }
      i = j;
    }
    add_lane_marks(s, bars, o.fold_lanes);
    add_lane_marks(s, waits, o.fold_lanes);
  }
  y += static_cast<float>(run.lanes) * s.lane_h;
  // The cursor over the lanes.
  s.rects.push_back({x_of(time) - 1, s.lanes_y - 0.3f * em, 2, y - s.lanes_y + 0.3f * em, pal.cursor, 0, "", -1, SceneRect::Kind::Cursor});
  s.height = y + m;
  return s;
}

// ============================================================================================
// [SECTION] presets and recording
// ============================================================================================

const std::vector<std::string>& lookback_preset_names() {
  static const std::vector<std::string> names = {"default", "fig6", "deadlock", "stale", "stall", "10000-tiles"};
  return names;
}

bool lookback_preset(const std::string& name, LookbackLesson& l) {
  const auto& names = lookback_preset_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) return false;
  l = LookbackLesson{};
  if (name == "fig6") {
    // Merrill and Garland, Fig. 6: eight processors over eight partitions whose sums are 2. The
    // descriptor keeps flag, aggregate and inclusive prefix apart (64-bit values), so processor 1 can
    // have recorded its inclusive prefix while its flag still says A. The stalls make the schedule
    // the figure describes: 1 looks back late; 2 and 4 have not started looking back; 3 looks back
    // over three predecessors; 5 over two, after 3's P; 6 has not published anything; 7 waits on 6.
    l.show[0] = l.show[2] = false;
    l.tiles = 8;
    l.wide = true;
    l.sms = 8;
    l.resident = 1;
    l.extra_stalls = "1:3000:look-back,2:10000:look-back,4:10000:look-back,5:2000:look-back,6:10000";
    l.input.assign(static_cast<std::size_t>(l.tiles * l.tile_threads * l.items), Payload::of(std::int64_t{0}));
    for (int t = 0; t < l.tiles; ++t)
      for (int k = 0; k < 2; ++k) l.input[static_cast<std::size_t>(t * l.tile_threads * l.items + k)] = Payload::of(std::int64_t{1});
  } else if (name == "deadlock") {
    l.static_ids = true;
    l.launch = 1;  // reverse: the last tiles fill every slot and wait for tiles never launched
  } else if (name == "stale") {
    l.fence_off = true;
  } else if (name == "stall") {
    l.stall = true;
  } else if (name == "10000-tiles") {
    l.tiles = 10000;
    l.sms = 32;
    l.resident = 2;
  }
  return true;
}

BlockRunConfig lookback_config(const LookbackLesson& l, const std::string& algorithm) {
  BlockRunConfig c;
  c.algorithm = algorithm;
  c.block = l.tile_threads;
  c.n = static_cast<std::int64_t>(l.tiles) * l.tile_threads * l.items;
  c.op = OpKind::Sum;
  c.type = l.wide ? ValueType::I64 : ValueType::I32;
  c.input_seed = static_cast<std::uint64_t>(std::max(l.input_seed, 0));
  if (static_cast<std::int64_t>(l.input.size()) == c.n) c.input = l.input;
  const bool single_pass = algorithm != "reduce-then-scan";
  c.options["items"] = std::to_string(l.items);
  c.options["sms"] = std::to_string(l.sms);
  c.options["resident"] = std::to_string(l.resident);
  c.options["latency"] = std::to_string(l.latency);
  const char* launches[] = {"in-order", "reverse", "random:1"};
  c.options["launch"] = launches[std::clamp(l.launch, 0, 2)];
  if (single_pass) {
    c.options["tile-ids"] = l.static_ids ? "static" : "dynamic";
    c.options["fence"] = l.fence_off ? "off" : "on";
    std::string stalls = l.stall ? std::to_string(l.stall_tile) + ":" + std::to_string(l.stall_cycles) : "";
    if (!l.extra_stalls.empty()) stalls += (stalls.empty() ? "" : ",") + l.extra_stalls;
    if (!stalls.empty()) c.options["stall"] = stalls;
  }
  if (algorithm == "decoupled-lookback") c.options["window"] = std::to_string(l.window);
  return c;
}

std::uint64_t fig6_snapshot_time(const LookbackRun& run) {
  std::int64_t recorded = -1, flagged = -1;
  for (const DescriptorChange& c : run.changes) {
    if (c.tile != 1 || c.flag != TileFlag::P) continue;
    if (c.field == DescriptorChange::Field::Inclusive) recorded = static_cast<std::int64_t>(c.time);
    if (c.field == DescriptorChange::Field::Flag) flagged = static_cast<std::int64_t>(c.time);
  }
  if (recorded < 0 || flagged <= recorded) return 0;
  return static_cast<std::uint64_t>((recorded + flagged) / 2);
}

namespace {
// Every tile event's time, of every run, sorted and unique: the previous/next buttons' stops.
void collect_moments(LookbackUi& ui) {
  ui.moments.clear();
  for (const LookbackRun& r : ui.runs)
    for (const TileEvent& e : r.trace.tile_events) ui.moments.push_back(e.time);
  std::sort(ui.moments.begin(), ui.moments.end());
  ui.moments.erase(std::unique(ui.moments.begin(), ui.moments.end()), ui.moments.end());
}
}  // namespace

void record_lookback(LookbackUi& ui) {
  const auto start = std::chrono::steady_clock::now();
  ui.runs.clear();
  ui.error.clear();
  for (int a = 0; a < 3; ++a) {
    if (!ui.lesson.show[a]) continue;
    try {
      ui.runs.push_back(make_lookback_run(record_device_scan(lookback_config(ui.lesson, kLookbackAlgorithms[a]))));
    } catch (const std::exception& e) {
      ui.error += std::string(kLookbackAlgorithms[a]) + ": " + e.what() + "\n";
    }
  }
  collect_moments(ui);
  ui.record_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ui.dirty = false;
  ++ui.generation;
  // Start where there is something to see: the paper's instant, or the middle of decoupled look-back.
  ui.time = 0;
  for (const LookbackRun& r : ui.runs) {
    if (ui.preset == "fig6" && r.trace.meta.algorithm == "decoupled-lookback" && fig6_snapshot_time(r)) {
      ui.time = fig6_snapshot_time(r);
      ui.selected = 3;  // the paper's processor 3: a look-back window of three predecessors
      return;
    }
  }
  for (const LookbackRun& r : ui.runs) {
    if (r.trace.meta.algorithm != "decoupled-lookback" && ui.time != 0) continue;
    ui.time = default_lookback_time(r);
    // Select the tile that looked back furthest before that moment: its arrows say the most.
    std::size_t most = 0;
    for (const TileSummary& t : r.summary.tiles) {
      const std::size_t seen = inspections_until(r, t.tile, ui.time).size();
      if (seen > most) most = seen, ui.selected = t.tile;
    }
  }
  if (ui.preset == "deadlock" && !ui.runs.empty()) ui.time = ui.runs.front().t1;
  if (ui.preset == "stale")  // the first tile that read a stale value, at the moment it read it
    for (const LookbackRun& r : ui.runs) {
      if (r.trace.meta.algorithm != "decoupled-lookback") continue;
      std::uint64_t first = UINT64_MAX;
      for (const TileSummary& t : r.summary.tiles)
        for (const TileInspection& i : t.inspections)
          if (i.stale && i.time < first) first = i.time, ui.selected = t.tile, ui.time = i.time;
    }
}

bool show_in_lookback(LookbackUi& ui, const Trace& trace, const std::string& path) {
  if (trace.tile_events.empty()) return false;
  ui.runs.clear();
  ui.runs.push_back(make_lookback_run(trace));
  ui.error.clear();
  ui.dirty = false;
  ui.preset = "file " + path;
  collect_moments(ui);
  ++ui.generation;
  ui.time = default_lookback_time(ui.runs.front());
  ui.selected = -1;
  return true;
}

namespace {
std::uint64_t runs_end(const LookbackUi& ui) {
  std::uint64_t end = 0;
  for (const LookbackRun& r : ui.runs) end = std::max(end, r.t1);
  return end;
}
}  // namespace

void lookback_key(LookbackUi& ui, LookbackKey key) {
  const auto& m = ui.moments;
  switch (key) {
    case LookbackKey::PlayPause:
      if (!ui.playing && ui.time >= runs_end(ui)) ui.time = 0;
      ui.playing = !ui.playing;
      break;
    case LookbackKey::Previous: {
      auto it = std::lower_bound(m.begin(), m.end(), ui.time);
      if (it != m.begin()) ui.time = *std::prev(it);
      break;
    }
    case LookbackKey::Next: {
      auto it = std::upper_bound(m.begin(), m.end(), ui.time);
      if (it != m.end()) ui.time = *it;
      break;
    }
    case LookbackKey::Start: ui.time = 0; break;
    case LookbackKey::End: ui.time = runs_end(ui); break;
  }
}

// ============================================================================================
// [SECTION] the window
// ============================================================================================

LanePicture lane_picture(const LookbackScene& s, std::uint32_t background) {
  LanePicture p;
  auto lane = [](const SceneRect& r) { return r.kind == SceneRect::Kind::Lifetime || r.kind == SceneRect::Kind::Wait; };
  float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
  for (const SceneRect& r : s.rects)
    if (lane(r)) x0 = std::min(x0, r.x), y0 = std::min(y0, r.y), x1 = std::max(x1, r.x + r.w), y1 = std::max(y1, r.y + r.h);
  if (x1 <= x0 || y1 <= y0) return p;
  p.x = static_cast<int>(std::floor(x0));
  p.y = static_cast<int>(std::floor(y0));
  p.w = static_cast<int>(std::ceil(x1)) - p.x;
  p.h = static_cast<int>(std::ceil(y1)) - p.y;
  auto texel = [](std::uint32_t rgba) {  // 0xRRGGBBAA -> R, G, B, A bytes in memory
    return ((rgba >> 24) & 0xFF) | ((rgba >> 16) & 0xFF) << 8 | ((rgba >> 8) & 0xFF) << 16 | 0xFFu << 24;
  };
  p.rgba.assign(static_cast<std::size_t>(p.w) * static_cast<std::size_t>(p.h), texel(background));
  auto blend = [](std::uint32_t& dst, std::uint32_t rgba) {
    const std::uint32_t a = rgba & 0xFF;
    std::uint32_t out = 0xFFu << 24;
    for (int c = 0; c < 3; ++c) {
      const std::uint32_t src = (rgba >> (24 - 8 * c)) & 0xFF, below = (dst >> (8 * c)) & 0xFF;
      out |= ((src * a + below * (255 - a) + 127) / 255) << (8 * c);
    }
    dst = out;
  };
  // The pixels whose centres lie in [v0, v1), relative to the picture.
  auto span = [](float v0, float v1, int origin, int size) {
    return std::pair(std::clamp(static_cast<int>(std::ceil(v0 - 0.5f)) - origin, 0, size),
                     std::clamp(static_cast<int>(std::ceil(v1 - 0.5f)) - origin, 0, size));
  };
  for (const SceneRect& r : s.rects) {
    if (!lane(r)) continue;
    const auto [cx0, cx1] = span(r.x, r.x + r.w, p.x, p.w);
    const auto [cy0, cy1] = span(r.y, r.y + r.h, p.y, p.h);
    for (int y = cy0; y < cy1; ++y)
      for (int x = cx0; x < cx1; ++x) {
        std::uint32_t& t = p.rgba[static_cast<std::size_t>(y) * static_cast<std::size_t>(p.w) + static_cast<std::size_t>(x)];
        blend(t, r.fill);
        if (r.border && (x == cx0 || x == cx1 - 1 || y == cy0 || y == cy1 - 1)) blend(t, r.border);
      }
  }
  return p;
}

void draw_lookback_scene(const LookbackScene& s, float origin_x, float origin_y, bool lanes_drawn) {
  const ImVec2 origin(origin_x, origin_y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 clip_min = dl->GetClipRectMin(), clip_max = dl->GetClipRectMax();
  for (const SceneRect& r : s.rects) {
    const ImVec2 a(origin.x + r.x, origin.y + r.y), b(a.x + r.w, a.y + r.h);
    if (b.x < clip_min.x || a.x > clip_max.x || b.y < clip_min.y || a.y > clip_max.y) continue;
    if (!lanes_drawn || (r.kind != SceneRect::Kind::Lifetime && r.kind != SceneRect::Kind::Wait)) {
      dl->AddRectFilled(a, b, im_color(r.fill));
      if (r.border) dl->AddRect(a, b, im_color(r.border), 0, 0, r.border_w);
    }
    if (!r.label.empty()) {
      const ImVec2 ts = ImGui::CalcTextSize(r.label.c_str());
      if (ts.x <= r.w - 2 && ts.y <= r.h + 2)
        dl->AddText(ImVec2(a.x + (r.w - ts.x) / 2, a.y + (r.h - ts.y) / 2), im_color(r.label_color), r.label.c_str());
    }
  }
  for (const SceneText& t : s.texts) {
    const ImVec2 ts = ImGui::CalcTextSize(t.text.c_str());
    dl->AddText(ImVec2(origin.x + t.x - (t.centred ? ts.x / 2 : 0), origin.y + t.y), im_color(t.color), t.text.c_str());
  }
  for (const SceneArrow& a : s.arrows) {
    const ImVec2 p0(origin.x + a.x0, origin.y + a.y0), p3(origin.x + a.x1, origin.y + a.y1);
    const ImVec2 p1(p0.x, p0.y - a.bend), p2(p3.x, p3.y - a.bend);
    const ImU32 c = im_color(a.color);
    dl->AddBezierCubic(p0, p1, p2, p3, c, 2.0f);
    const float h = 0.45f * ImGui::GetFontSize();
    dl->AddTriangleFilled(p3, ImVec2(p3.x - h * 0.6f, p3.y + h), ImVec2(p3.x + h * 0.6f, p3.y + h), c);
    const ImVec2 ts = ImGui::CalcTextSize(a.label.c_str());
    dl->AddText(ImVec2(p3.x - ts.x / 2, p3.y - a.bend * 0.75f - ts.y / 2), c, a.label.c_str());
  }
}

std::string lookback_scene_svg(const LookbackScene& s, const LookbackPalette& pal, float font_px) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(static_cast<int>(std::ceil(s.width))) +
                    "\" height=\"" + std::to_string(static_cast<int>(std::ceil(s.height))) + "\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"" +
                    std::to_string(static_cast<int>(font_px * 0.8f)) + "\">\n";
  char buf[512];
  std::snprintf(buf, sizeof buf, "<rect width=\"100%%\" height=\"100%%\" fill=\"%s\"/>\n", svg::color(pal.background).c_str());
  out += buf;
  for (const SceneRect& r : s.rects) {
    std::snprintf(buf, sizeof buf, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"%.2f\"", r.x, r.y,
                  r.w, r.h, svg::color(r.fill).c_str(), static_cast<double>(r.fill & 0xFF) / 255.0);
    out += buf;
    if (r.border) {
      std::snprintf(buf, sizeof buf, " stroke=\"%s\" stroke-width=\"%.1f\"", svg::color(r.border).c_str(), r.border_w);
      out += buf;
    }
    out += "/>\n";
    // A label where it fits (about 0.6 em per character), as the window draws it.
    if (!r.label.empty() && 0.6f * font_px * static_cast<float>(r.label.size()) <= r.w - 2 && font_px <= r.h + 2) {
      std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"middle\" dominant-baseline=\"central\">", r.x + r.w / 2,
                    r.y + r.h / 2, svg::color(r.label_color).c_str());
      out += buf + svg::escape(r.label) + "</text>\n";
    }
  }
  for (const SceneText& t : s.texts) {
    std::snprintf(buf, sizeof buf, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" dominant-baseline=\"hanging\"%s>", t.x, t.y,
                  svg::color(t.color).c_str(), t.centred ? " text-anchor=\"middle\"" : "");
    out += buf + svg::escape(t.text) + "</text>\n";
  }
  for (const SceneArrow& a : s.arrows) {
    std::snprintf(buf, sizeof buf,
                  "<path d=\"M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n"
                  "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" text-anchor=\"middle\" dominant-baseline=\"central\">",
                  a.x0, a.y0, a.x0, a.y0 - a.bend, a.x1, a.y1 - a.bend, a.x1, a.y1, svg::color(a.color).c_str(), a.x1,
                  a.y1 - a.bend * 0.75f, svg::color(a.color).c_str());
    out += buf + svg::escape(a.label) + "</text>\n";
  }
  return out + "</svg>\n";
}

namespace {

// The tile under the mouse in the descriptor table, or -1.
std::int64_t hit_tile(const LookbackScene& s, const LookbackRun& r, ImVec2 origin) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  const float x = m.x - origin.x - s.table_x, y = m.y - origin.y - s.flag_y;
  if (x < 0 || y < 0 || y > 3 * s.row_h || s.cell_w <= 0) return -1;
  const auto t = static_cast<std::int64_t>(x / s.cell_w);
  return t < r.tiles ? t : -1;
}

void tile_tooltip(const LookbackRun& r, std::int64_t tile, std::uint64_t time) {
  const auto states = descriptors_at(r, time);
  const DescriptorState& d = states[static_cast<std::size_t>(tile)];
  const ValueType type = r.trace.meta.type;
  ImGui::BeginTooltip();
  ImGui::Text("tile %lld: flag %s, aggregate %s, inclusive prefix %s", static_cast<long long>(tile),
              std::string(tile_flag_name(d.flag)).c_str(), d.aggregate ? format_value(type, *d.aggregate).c_str() : "-",
              d.inclusive ? format_value(type, *d.inclusive).c_str() : "-");
  const char* life[] = {"not started", "running", "waiting", "done"};
  ImGui::Text("%s", life[static_cast<int>(d.life)]);
  if (d.life == TileLife::Waiting && d.waiting_for >= 0) {
    ImGui::SameLine();
    ImGui::Text("for tile %lld", static_cast<long long>(d.waiting_for));
  }
  for (const TileInspection& i : inspections_until(r, tile, time)) {
    if (i.stale) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.88f, 0.19f, 0.19f, 1));
    ImGui::TextUnformatted(describe_inspection(r.trace, tile, i).c_str());
    if (i.stale) ImGui::PopStyleColor();
  }
  ImGui::TextDisabled("click to select: arrows show what it inspected");
  ImGui::EndTooltip();
}

}  // namespace

void lookback_window_contents(LookbackUi& ui, const std::string& theme, double now_seconds, GlPictures* pictures) {
  LookbackLesson& l = ui.lesson;
  bool changed = false;
  const auto& presets = lookback_preset_names();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("preset", ui.preset.empty() ? "(changed)" : ui.preset.c_str())) {
    for (const std::string& p : presets)
      if (ImGui::Selectable(p.c_str(), p == ui.preset)) {
        lookback_preset(p, l);
        ui.preset = p;
        ui.dirty = true;
      }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  for (int a = 0; a < 3; ++a) {
    changed |= ImGui::Checkbox(kLookbackAlgorithms[a], &l.show[a]);
    ImGui::SameLine();
  }
  ImGui::NewLine();
  const float w = ImGui::GetFontSize() * 7;
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("tiles", &l.tiles, 1, 10000, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("window", &l.window, 1, 32, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("static tile ids", &l.static_ids);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  const char* launches[] = {"in-order launch", "reverse launch", "random launch"};
  changed |= ImGui::Combo("##launch", &l.launch, launches, 3);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("fence off", &l.fence_off);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("64-bit values", &l.wide);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("flag and value in separate words, stored value, fence, flag (as the paper's descriptor)");
  changed |= ImGui::Checkbox("stall tile", &l.stall);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.6f);
  changed |= ImGui::InputInt("##stall tile", &l.stall_tile, 0);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w);
  changed |= ImGui::SliderInt("cycles", &l.stall_cycles, 100, 200000, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::SliderInt("SMs", &l.sms, 1, 132, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::SliderInt("resident", &l.resident, 1, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.8f);
  changed |= ImGui::InputInt("seed", &l.input_seed, 0);
  l.stall_tile = std::clamp(l.stall_tile, 0, std::max(0, l.tiles - 1));
  if (!l.extra_stalls.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("more stalls: %s", l.extra_stalls.c_str());
  }
  if (changed) {
    ui.preset.clear();
    l.input.clear();  // a preset's input fits its own tile count only
    ui.dirty = true;
  }
  if (ui.dirty) record_lookback(ui);
  if (ui.preset.rfind("file ", 0) == 0)
    ImGui::TextColored(ImVec4(0.1f, 0.45f, 0.85f, 1), "Showing the trace %s; the controls above record on the emulator.",
                       ui.preset.c_str() + 5);

  // Time: the slider runs over the longest run; every run shares the axis.
  std::uint64_t t_min = UINT64_MAX, span = 1;
  for (const LookbackRun& r : ui.runs) {
    t_min = std::min(t_min, r.t0);
    span = std::max(span, r.t1 - r.t0);
  }
  if (ui.runs.empty()) t_min = 0;
  if (ui.playing) {
    ui.time += static_cast<std::uint64_t>(std::max(0.0, now_seconds - ui.last_now) * ui.speed * static_cast<double>(span));
    if (ui.time >= t_min + span) ui.time = t_min + span, ui.playing = false;
  }
  ui.last_now = now_seconds;
  if (ImGui::Button(ui.playing ? "pause##lb" : "play##lb")) lookback_key(ui, LookbackKey::PlayPause);
  ImGui::SameLine();
  // Previous and next: the nearest moment any tile event of any run happened.
  if (ImGui::ArrowButton("##prev event", ImGuiDir_Left)) lookback_key(ui, LookbackKey::Previous);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the previous tile event (left arrow)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next event", ImGuiDir_Right)) lookback_key(ui, LookbackKey::Next);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the next tile event (right arrow)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 16);
  const std::uint64_t lo = t_min, hi = t_min + span;
  ImGui::SliderScalar("##time", ImGuiDataType_U64, &ui.time, &lo, &hi, "time %llu");
  ImGui::SameLine();
  ImGui::Text("recorded in %.1f ms", ui.record_ms);
  if (!ui.error.empty()) ImGui::TextColored(ImVec4(0.88f, 0.19f, 0.19f, 1), "%s", ui.error.c_str());

  const LookbackPalette& pal = lookback_palette(theme);
  ImGui::BeginChild("##lookback scenes", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float width = ImGui::GetContentRegionAvail().x;
  for (std::size_t k = 0; k < ui.runs.size(); ++k) {
    const LookbackRun& r = ui.runs[k];
    std::string outcome(outcome_name(r.outcome));
    if (r.outcome != Outcome::Correct) std::transform(outcome.begin(), outcome.end(), outcome.begin(), ::toupper);
    char title[512];
    std::snprintf(title, sizeof title, "%s: %lld tiles, result %s; %lld inspections, %lld stale reads, %lld tiles waited%s",
                  r.trace.meta.algorithm.c_str(), static_cast<long long>(r.tiles), outcome.c_str(),
                  static_cast<long long>(r.summary.inspections), static_cast<long long>(r.summary.stale_reads),
                  static_cast<long long>(r.summary.waited_tiles),
                  r.derived_descriptors ? " (no descriptors: the tile sums and their scan shown as A and P)" : "");
    if (r.folded) {
      const std::size_t len = std::strlen(title);
      std::snprintf(title + len, sizeof title - len, "; %.3f ms between launches (the tracer's copies) folded", static_cast<double>(r.folded) / 1e6);
    }
    SceneOptions so;
    so.width = width;
    so.em = ImGui::GetFontSize();
    so.t_end = span;
    so.selected = ui.selected;
    so.title = title;
    so.legend = k == 0;
    // The scene is rebuilt only when what it shows changed (time, selection, size, theme, runs).
    if (ui.scenes.size() != ui.runs.size()) ui.scenes.assign(ui.runs.size(), {});
    LookbackUi::CachedScene& cached = ui.scenes[k];
    const LookbackScene& scene = cached.scene;
    const std::string now_key = std::to_string(ui.time) + "|" + std::to_string(ui.selected) + "|" + std::to_string(width) + "|" +
                                std::to_string(so.em) + "|" + theme + "|" + std::to_string(ui.generation) + "|" + title;
    if (cached.key != now_key) {
      cached.scene = build_lookback_scene(r, ui.time, pal, so);
      cached.lanes = pictures ? lane_picture(cached.scene, pal.background) : LanePicture{};
      cached.build = ++ui.scene_builds;
      cached.key = now_key;
    }
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    add_solid_rect(dl, origin, ImVec2(origin.x + scene.width, origin.y + scene.height), pal.background);
    const LanePicture& lanes = cached.lanes;
    const bool picture = pictures && lanes.w > 0;
    if (picture)
      pictures->add(dl, k, cached.build, lanes.w, lanes.h, lanes.rgba.data(),
                    ImVec2(origin.x + static_cast<float>(lanes.x), origin.y + static_cast<float>(lanes.y)));
    draw_lookback_scene(scene, origin.x, origin.y, picture);
    ImGui::InvisibleButton(("##scene" + std::to_string(k)).c_str(), ImVec2(std::max(scene.width, 1.0f), std::max(scene.height, 1.0f)));
    if (ImGui::IsItemHovered()) {
      const std::int64_t t = hit_tile(scene, r, origin);
      if (t >= 0) {
        tile_tooltip(r, t, ui.time);
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.selected = t;
      }
    }
  }
  ImGui::EndChild();
}

}  // namespace sv::gui
