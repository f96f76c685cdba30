// The pipelined kernel's scene: the phase bar, the legend, and the warp roles' lanes of a few blocks.
#include "gui/model/pipeline_scene.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "gui/model/ink.hpp"

namespace sv::gui {

const char* pipe_lane_name(int row) {
  static const char* names[kPipeLaneRows] = {"load",    "reduce",  "look-back 0", "look-back 1", "store 0",
                                             "store 1", "store 2", "store 3",     "stages"};
  return names[row];
}

LookbackScene build_pipeline_scene(const PipelineRun& run, std::uint64_t time, const LookbackPalette& pal,
                                   const PipelineSceneOptions& o) {
  LookbackScene s;
  const float em = o.em, m = 0.5f * em;
  s.width = o.width;
  float y = m;
  const int blocks = static_cast<int>(run.blocks.size());
  const int first = std::clamp(o.first_block, 0, std::max(blocks - 1, 0));
  const int shown = std::clamp(o.blocks, 0, blocks - first);
  char title[256];
  std::snprintf(title, sizeof title, "The pipelined kernel: %zu tiles on %d blocks (one a multiprocessor), %d stages of 24 KB each",
                run.tiles.size(), blocks, run.stages);
  s.texts.push_back({m, y, pal.text, title});
  y += 1.4f * em;

  // Where a tile's time goes: the four phases' medians, one bar, each part as wide as its share.
  const float label_w = 7.5f * em;
  s.table_x = m + label_w;
  const float avail = std::max(o.width - s.table_x - m, 10.0f);
  const std::uint32_t phase_fill[kPipePhases] = {pal.flag_x, pal.flag_a, pal.flag_p, pal.lifetime};
  s.texts.push_back({m, y, pal.text_dim, "a tile's time"});
  double total = 0;
  for (double v : run.median_ns) total += v;
  float x = s.table_x;
  for (int p = 0; p < kPipePhases && total > 0; ++p) {
    const float w = static_cast<float>(run.median_ns[static_cast<std::size_t>(p)] / total) * avail;
    char label[96];
    std::snprintf(label, sizeof label, "%s %.0f%%", pipe_phase_name(static_cast<PipePhase>(p)),
                  100 * run.median_ns[static_cast<std::size_t>(p)] / total);
    s.rects.push_back({x, y, w, 1.2f * em, phase_fill[p], pal.grid, label, -1, SceneRect::Kind::Legend});
    x += w;
  }
  y += 1.5f * em;
  s.texts.push_back({s.table_x, y, pal.text_dim, pipeline_summary(run)});
  y += 1.4f * em;

  // The legend of the lanes.
  const LegendKey keys[] = {
      {pal.flag_x, "copy in flight"}, {pal.flag_a, "reduce, then A"}, {pal.flag_p, "look-back, then P"},
      {pal.waiting, "poll blocked"}, {with_alpha(pal.lifetime, 0x28), "held, waiting for the prefix"},
      {pal.lifetime, "scan and store"}, {pal.text_dim, "stages in use"}};
  add_legend_row(s, m, y, em, keys, pal);
  y += 1.5f * em;

  const auto now = static_cast<std::int64_t>(time);
  const std::int64_t t_end = std::max<std::int64_t>(o.t_end ? static_cast<std::int64_t>(o.t_end) : run.t1 - run.t0, 1);
  auto x_of = [&](std::int64_t t) {
    const double f = static_cast<double>(std::max<std::int64_t>(t - run.t0, 0)) / static_cast<double>(t_end);
    return s.table_x + static_cast<float>(std::min(f, 1.0)) * avail;
  };
  s.lane_h = 1.15f * em;
  s.lanes_y = y;
  // A mark of tile t from t0 to t1 on the lane at ly, `frac` of the lane tall; faded after the cursor.
  // `held` marks (a tile in registers, waiting for its prefix) are an outline, unlabelled.
  auto mark = [&](float ly, std::int64_t t0, std::int64_t t1, std::uint32_t fill, const PipelineTile& t, float frac,
                  SceneRect::Kind kind, bool held = false) {
    if (t0 < 0 || t1 < t0) return;
    const float x0 = x_of(t0), w = std::max(x_of(t1) - x0, 1.0f);
    const bool selected = t.tile == o.selected;
    const std::string label =
        !held && frac == 1 && w > 0.62f * em * static_cast<float>(std::to_string(t.tile).size()) + 0.4f * em
            ? std::to_string(t.tile) : "";
    const float h = (s.lane_h - 2) * frac;
    const std::uint32_t border = selected ? pal.selected : held ? fill : (w >= 4 ? pal.grid : 0u);
    const std::uint32_t shown = held ? with_alpha(fill, 0x28) : with_alpha(fill, t0 <= now ? 0xFF : 0x60);
    s.rects.push_back({x0, ly + 1 + (s.lane_h - 2) - h, w, h, shown, border, label, t.tile, kind, ink_on(shown, pal.background),
                       selected ? 2.0f : 1.0f});
  };
  for (int b = first; b < first + shown; ++b) {
    const std::uint32_t block = run.blocks[static_cast<std::size_t>(b)];
    int sm = -1;
    for (const PipelineTile& t : run.tiles)
      if (t.block == block && t.taken >= 0) sm = t.sm;
    s.texts.push_back({m, y, pal.text, "SM " + std::to_string(sm) + " (block " + std::to_string(block) + ")"});
    y += 1.2f * em;
    for (int row = 0; row < kPipeLaneRows; ++row)
      s.texts.push_back({m + em, y + static_cast<float>(row) * s.lane_h, pal.text_dim, pipe_lane_name(row)});
    for (const PipelineTile& t : run.tiles) {
      if (t.block != block || t.taken < 0) continue;
      auto row_y = [&](int row) { return y + static_cast<float>(row) * s.lane_h; };
      mark(row_y(0), t.taken, t.landed, pal.flag_x, t, 1, SceneRect::Kind::Lifetime);
      mark(row_y(1), t.landed, t.aggregate, pal.flag_a, t, 1, SceneRect::Kind::Lifetime);
      const int lb = 2 + t.index % 2, group = 4 + t.index % 4;
      mark(row_y(lb), t.look, t.inclusive, pal.flag_p, t, 1, SceneRect::Kind::Lifetime);
      for (const auto& [w0, w1] : t.waits) mark(row_y(lb), w0, w1, pal.waiting, t, 0.35f, SceneRect::Kind::Wait);
      mark(row_y(group), t.held, t.store, pal.lifetime, t, 1, SceneRect::Kind::Lifetime, true);
      mark(row_y(group), t.store, t.end, pal.lifetime, t, 1, SceneRect::Kind::Lifetime);
    }
    // Stages in use: a column of the lane per pixel, as tall as the share of stages holding a tile.
    const float sy = y + static_cast<float>(kPipeLaneRows - 1) * s.lane_h;
    const int columns = static_cast<int>(avail / 2);
    std::vector<std::int64_t> at(static_cast<std::size_t>(std::max(columns, 0)));
    for (int c = 0; c < columns; ++c)
      at[static_cast<std::size_t>(c)] =
          run.t0 + static_cast<std::int64_t>((static_cast<double>(c) + 0.5) / columns * static_cast<double>(t_end));
    const std::vector<int> in_use = stages_in_use(run, block, at);
    for (int c = 0; c < columns && run.stages > 0; ++c) {
      const std::int64_t t = at[static_cast<std::size_t>(c)];
      const int used = in_use[static_cast<std::size_t>(c)];
      if (!used) continue;
      const float h = (s.lane_h - 2) * static_cast<float>(std::min(used, run.stages)) / static_cast<float>(run.stages);
      s.rects.push_back({s.table_x + 2.0f * static_cast<float>(c), sy + s.lane_h - 1 - h, 2, h,
                         with_alpha(pal.text_dim, t <= now ? 0xFF : 0x60), 0, "", -1, SceneRect::Kind::Lifetime});
    }
    y += static_cast<float>(kPipeLaneRows) * s.lane_h + 0.4f * em;
  }
  if (shown < blocks) {
    s.texts.push_back({m, y, pal.text_dim,
                       "blocks " + std::to_string(first) + ".." + std::to_string(first + shown - 1) + " of " +
                           std::to_string(blocks) + " shown"});
    y += 1.3f * em;
  }
  s.rects.push_back({x_of(time) - 1, s.lanes_y - 0.3f * em, 2, y - s.lanes_y, pal.cursor, 0, "", -1, SceneRect::Kind::Cursor});
  s.height = y + m;
  return s;
}

}  // namespace sv::gui
