// The look-back view's scene: the palettes, the layout of one run at one time, and the lanes' picture
// (drawn by gui/draw/lookback_draw.*).
//
// [SECTION] the layout
// [SECTION] the lanes' picture
#include "gui/model/lookback_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/values.hpp"
#include "gui/model/ink.hpp"

namespace sv::gui {

// ============================================================================================
// [SECTION] the layout
// ============================================================================================

const LookbackPalette& lookback_palette(const std::string& theme) {
  //                                    background  text        text_dim    grid        X           A           P           cell        lifetime    waiting     arrow       stale       cursor      selected    moved
  static const LookbackPalette light = {0xFFFFFFFF, 0x1A1A1AFF, 0x6B6B6BFF, 0xB4B4B4FF, 0xD9D9D9FF, 0xF2A900FF, 0x2E9E44FF, 0xF4F4F4FF, 0x7FA7D9FF, 0xC8322AFF, 0x2A5DB0FF, 0xC2185BFF, 0x111111FF, 0x7B2FBEFF, 0x0B6E8AFF};
  static const LookbackPalette dark = {0x1E1E22FF, 0xEAEAEAFF, 0x9A9A9AFF, 0x55555CFF, 0x4A4A52FF, 0xE3A21AFF, 0x3DBB5AFF, 0x2B2B31FF, 0x4F79B8FF, 0xFF5A4EFF, 0x8AB4FFFF, 0xFF5FA2FF, 0xF0F0F0FF, 0xC38BFFFF, 0x4FD1E8FF};
  static const LookbackPalette contrast = {0x000000FF, 0xFFFFFFFF, 0xDDDDDDFF, 0xFFFFFFFF, 0x5A5A5AFF, 0xFFD000FF, 0x00E05AFF, 0x000000FF, 0x3C8CFFFF, 0xFF3030FF, 0x00E0FFFF, 0xFF40FFFF, 0xFFFFFFFF, 0xFF8C00FF, 0xFFFFFFFF};
  if (theme == "dark") return dark;
  if (theme == "high-contrast") return contrast;
  return light;
}

namespace {

std::uint32_t flag_fill(const LookbackPalette& p, TileFlag f) {
  return f == TileFlag::P ? p.flag_p : f == TileFlag::A ? p.flag_a : p.flag_x;
}

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

void add_legend_row(LookbackScene& s, float x, float y, float em, std::span<const LegendKey> keys, const LookbackPalette& pal) {
  for (const LegendKey& k : keys) {
    s.rects.push_back({x, y + 0.2f * em, 0.9f * em, 0.9f * em, k.fill, pal.grid, "", -1, SceneRect::Kind::Legend});
    s.texts.push_back({x + 1.2f * em, y, pal.text_dim, k.text});
    x += 1.6f * em + 0.55f * em * static_cast<float>(std::string_view(k.text).size());
  }
}

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
    const LegendKey keys[] = {
        {pal.flag_x, "X: nothing published"}, {pal.flag_a, "A: aggregate"}, {pal.flag_p, "P: inclusive prefix"},
        {pal.lifetime, "running"}, {pal.waiting, "waiting"}, {with_alpha(pal.text_dim, 0x90), "done"},
        {pal.stale, "stale read, wrong value (!)"}};
    add_legend_row(s, m, y, em, keys, pal);
    y += 1.4f * em;
    if (!o.marked_label.empty()) {
      const LegendKey mark[] = {{pal.moved, o.marked_label.c_str()}};
      add_legend_row(s, m, y, em, mark, pal);
      y += 1.4f * em;
    }
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
        // A wrong value (a stale or torn read passed on): the stale colour around it and a "!", so
        // colour is not the only cue.
        if (v && descriptor_value_wrong(run, t, row == 2, *v)) {
          r.label += "!";
          r.border = pal.stale;
          r.border_w = 3;
        }
      }
      // A flag's letter in black or white by its fill (the dark themes' X is dark); values take the theme's text.
      r.label_color = row == 0 ? ink_on(r.fill, pal.background) : pal.text;
      if (s.cell_w < 4) r.border = 0;
      if (t == o.selected) r.border = pal.selected, r.border_w = 3;
      cells.push_back(std::move(r));
    }
    add_row(s, cells);
    s.texts.push_back({m, y + (s.row_h - em) / 2, pal.text, row_names[row]});
    y += s.row_h;
  }
  if (!o.marked_label.empty()) {  // a row of its own, so the mark is a shape where it stands, not a colour alone
    const float mark_h = 0.6f * em;
    y += 0.15f * em;
    std::vector<SceneRect> marks;
    for (const std::int64_t t : o.marked)
      if (t >= 0 && t < run.tiles)
        marks.push_back({s.table_x + static_cast<float>(t) * s.cell_w, y, s.cell_w, mark_h, pal.moved, 0, "", t, SceneRect::Kind::Moved});
    s.rects.insert(s.rects.end(), marks.begin(), marks.end());  // not add_row: the marks are not contiguous
    s.texts.push_back({m, y + (mark_h - em) / 2, pal.text, "other stop"});
    y += mark_h;
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

  if (!o.lanes) {
    s.height = y + m;
    return s;
  }
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
                      j - i == 1 ? first.tile : -1, SceneRect::Kind::Lifetime, ink_on(fill, pal.background)});
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
// [SECTION] the lanes' picture
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

}  // namespace sv::gui
