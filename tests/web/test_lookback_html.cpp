// The look-back view in the page's text mirror (gui/model/lookback_mirror.*, app/web/lookback_html.*):
// the paper's Fig. 6 tile by tile as the paper draws it, the selected tile's three inspections, a
// run twice with its moved look-backs named, and 10,000 tiles listed no further than the cap.
#include <doctest/doctest.h>

#include <string>

#include "../gui/lookback_helpers.hpp"
#include "gui/model/lookback_mirror.hpp"
#include "web/lookback_html.hpp"

using namespace sv;
using namespace sv::gui;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("look-back mirror: Fig. 6 tile by tile as the paper draws it, and what tile 3 inspected") {
  const LookbackUi ui = gui_test::recorded_lookback("fig6");
  const LookbackMirror m = mirror_lookback(ui);
  REQUIRE(m.runs.size() == 1);
  const LookbackMirrorRun& run = m.runs.front();
  REQUIRE(run.tiles.size() == 8);
  std::string flags;
  for (const LookbackMirrorTile& t : run.tiles) flags += t.flag;
  CHECK(flags == "PAAPAPXA");  // the paper's snapshot (Merrill and Garland, Fig. 6)
  // Every partition sums to 2: each published aggregate is 2, and P of tile t is 2 (t + 1).
  for (const LookbackMirrorTile& t : run.tiles) {
    if (t.flag != "X") CHECK(t.aggregate == "2");
    if (t.flag == "P") CHECK(t.inclusive == std::to_string(2 * (t.tile + 1)));
  }
  CHECK(run.tiles[6].state == "running");  // 6 has published nothing yet
  CHECK(run.tiles[7].state.find("waiting for tile 6") == 0);
  REQUIRE(ui.selected == 3);
  REQUIRE(run.selected.size() == 3);  // tile 3 looked back over three predecessors
  for (int k = 0; k < 3; ++k) CHECK(run.selected[static_cast<std::size_t>(k)].find("tile " + std::to_string(2 - k)) != std::string::npos);
  CHECK(m.summary.empty());

  const std::string html = web::lookback_html(m);
  CHECK(count(html, "<th scope=\"row\">") == 8);
  CHECK(count(html, "<li>") == 3);
  CHECK(html.find("look-back stop") == std::string::npos);  // one run: nothing to compare
}

TEST_CASE("look-back mirror: a run twice names the tiles whose look-back stopped elsewhere, in both runs' tables") {
  const LookbackUi ui = gui_test::recorded_lookback("run-to-run");
  const LookbackMirror m = mirror_lookback(ui);
  REQUIRE(m.runs.size() == 2);
  REQUIRE(ui.run_to_run.has_value());
  CHECK(m.summary == describe_run_to_run(*ui.run_to_run, false));
  for (const LookbackMirrorRun& run : m.runs) {
    std::vector<std::int64_t> moved;
    for (const LookbackMirrorTile& t : run.tiles)
      if (t.moved) moved.push_back(t.tile);
    CHECK(moved == ui.run_to_run->moved);
  }
  const std::string html = web::lookback_html(m);
  CHECK(count(html, "class=\"moved\"") == 2 * ui.run_to_run->moved.size());
  CHECK(html.find(", run 2:") != std::string::npos);
}

TEST_CASE("look-back mirror: 10,000 tiles list the first 256 and count the rest") {
  const LookbackUi ui = gui_test::recorded_lookback("10000-tiles");
  const LookbackMirror m = mirror_lookback(ui);
  REQUIRE_FALSE(m.runs.empty());
  for (const LookbackMirrorRun& run : m.runs) {
    CHECK(run.tiles.size() == static_cast<std::size_t>(kLookbackMirrorTiles));
    CHECK(run.more_tiles == 10000 - kLookbackMirrorTiles);
  }
  CHECK(web::lookback_html(m).find("and 9744 more tiles, not listed") != std::string::npos);
}
