// The look-back view's two runs of one float input (the run-to-run and deterministic presets): where
// each tile's look-back stopped, read again from the traces' own inspection events; the bits
// compared here float by float; and the marks as drawn, in the scene and in the window's pixels.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/float_inputs.hpp"
#include "gui/lesson/lookback_lesson.hpp"
#include "gui_test.hpp"
#include "lookback_helpers.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;

namespace {

LookbackUi recorded(const std::string& preset) {
  LookbackUi ui = recorded_lookback(preset);
  REQUIRE(ui.runs.size() == 2);
  REQUIRE(ui.run_to_run.has_value());
  return ui;
}

// From the trace itself: the target of the tile's first Inspect event that saw a P, in the last
// launch with tile events (the single-pass one).
std::int64_t stop_in_trace(const Trace& t, std::int64_t tile) {
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Inspect && e.tile == tile && e.flag == TileFlag::P) return e.target;
  return -1;
}

std::int64_t differing_floats(const std::vector<Payload>& a, const std::vector<Payload>& b, std::int64_t& first) {
  std::int64_t n = 0;
  first = -1;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::bit_cast<std::uint32_t>(a[i].as<float>()) != std::bit_cast<std::uint32_t>(b[i].as<float>())) {
      if (first < 0) first = static_cast<std::int64_t>(i);
      ++n;
    }
  return n;
}

}  // namespace

TEST_CASE("run to run: two runs of one float input stop their look-backs at other tiles, and the first output whose bits differ is in such a tile") {
  const LookbackUi ui = recorded("run-to-run");
  const RunToRun& r = *ui.run_to_run;
  const Trace& a = ui.runs[0].trace;
  const Trace& b = ui.runs[1].trace;
  REQUIRE(a.meta.type == ValueType::F32);
  // One input, as the float lesson's uniform input: both runs scanned the same values.
  REQUIRE(a.meta.input == b.meta.input);
  REQUIRE(a.meta.input == *float_input("uniform", ValueType::F32, a.meta.input.size(), 1));

  // Every tile's stop, as the traces' events say, and the moved tiles exactly those that differ.
  std::vector<std::int64_t> moved;
  for (std::int64_t t = 0; t < ui.runs[0].tiles; ++t) {
    CHECK(r.stopped[0][static_cast<std::size_t>(t)] == stop_in_trace(a, t));
    CHECK(r.stopped[1][static_cast<std::size_t>(t)] == stop_in_trace(b, t));
    if (stop_in_trace(a, t) != stop_in_trace(b, t)) moved.push_back(t);
  }
  CHECK(r.moved == moved);
  REQUIRE_FALSE(moved.empty());
  CHECK(stop_in_trace(a, 0) == -1);  // the first tile has no predecessor to stop at

  // The bits, float by float.
  std::int64_t first = -1;
  const std::int64_t differ = differing_floats(a.result.output, b.result.output, first);
  CHECK(r.outputs.outputs == differ);
  CHECK(r.outputs.first == first);
  REQUIRE(differ > 0);
  const std::int64_t per_tile = static_cast<std::int64_t>(a.result.output.size()) / ui.runs[0].tiles;
  CHECK(r.first_tile == first / per_tile);
  // Tiles before it gave the same bits, so their prefixes agree: the first tile to differ can only
  // have started from another predecessor's prefix.
  CHECK(std::find(moved.begin(), moved.end(), r.first_tile) != moved.end());
  // Both runs are right as float sums go: within 1e-3 relative of each other everywhere.
  for (std::size_t i = 0; i < a.result.output.size(); ++i) {
    const double x = a.result.output[i].as<float>(), y = b.result.output[i].as<float>();
    if (std::abs(x - y) > 1e-3 * std::max(1.0, std::abs(x))) FAIL("output " << i << ": " << x << " and " << y);
  }
  // The view opens on the first moved tile, selected.
  CHECK(ui.selected == moved.front());
}

TEST_CASE("run to run: with deterministic=on the look-backs still stop at other tiles, and the bits are the same") {
  const LookbackUi ui = recorded("deterministic");
  const RunToRun& r = *ui.run_to_run;
  CHECK_FALSE(r.moved.empty());
  std::int64_t first = -1;
  CHECK(differing_floats(ui.runs[0].trace.result.output, ui.runs[1].trace.result.output, first) == 0);
  CHECK(r.outputs.outputs == 0);
  CHECK(describe_run_to_run(r, true).find("the same bits in all") != std::string::npos);
}

TEST_CASE("run to run: the scene marks exactly the moved tiles under their columns, and the window draws the marks") {
  const LookbackUi ui = recorded("run-to-run");
  const LookbackPalette& pal = lookback_palette("light");
  SceneOptions o;
  o.marked = ui.run_to_run->moved;
  o.marked_label = "look-back stopped elsewhere";
  const LookbackScene s = build_lookback_scene(ui.runs[0], ui.time, pal, o);
  std::vector<std::int64_t> drawn;
  for (const SceneRect& rect : s.rects)
    if (rect.kind == SceneRect::Kind::Moved) {
      drawn.push_back(rect.tile);
      CHECK(rect.fill == pal.moved);
      CHECK(rect.x == doctest::Approx(s.table_x + static_cast<float>(rect.tile) * s.cell_w));
      CHECK(rect.y > s.flag_y + 3 * s.row_h - 1);  // under the descriptors
    }
  CHECK(drawn == ui.run_to_run->moved);
  SceneOptions plain;
  const LookbackScene none = build_lookback_scene(ui.runs[0], ui.time, pal, plain);
  CHECK(std::none_of(none.rects.begin(), none.rects.end(), [](const SceneRect& r) { return r.kind == SceneRect::Kind::Moved; }));

  Dir dir;
  const Image img = screenshot("--lookback run-to-run --theme light", dir.path / "r.png", config_env(), "1400x900");
  // Two scenes, each with a row of marks: at least as many mark pixels as two rows of the moved
  // tiles' cells a few pixels tall.
  const int mark_px = count_near(img, pal.moved, 0, img.w, 3);
  CHECK(mark_px > static_cast<int>(ui.run_to_run->moved.size()) * 2 * 4);
  const Image plain_img = screenshot("--lookback default --theme light", dir.path / "d.png", config_env(), "1400x900");
  CHECK(count_near(plain_img, pal.moved, 0, plain_img.w, 3) < mark_px / 10);
}

TEST_CASE("run to run: the sentence names the first moved tile with its two stops and the first differing output") {
  const LookbackUi ui = recorded("run-to-run");
  const RunToRun& r = *ui.run_to_run;
  const std::size_t t = static_cast<std::size_t>(r.moved.front());
  const std::string text = describe_run_to_run(r, false);
  CHECK(text.find("the first tile " + std::to_string(t) + " (at tile " + std::to_string(r.stopped[0][t]) + " in run 1, tile " +
                  std::to_string(r.stopped[1][t]) + " in run 2)") != std::string::npos);
  CHECK(text.find(std::to_string(r.outputs.outputs) + " of " + std::to_string(r.total) + " outputs differ") != std::string::npos);
  CHECK(text.find("the first output " + std::to_string(r.outputs.first) + ", in tile " + std::to_string(r.first_tile)) != std::string::npos);
}
