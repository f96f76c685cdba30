// What the page's and the README's audits found in the window: a lesson warp wider than a small
// block, the look-back view's preset on opening, look-back values too wide for their cells, and the
// screenshot a machine without a display makes (no tooltip where the pointer happens to rest).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "emulator/record.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/lesson/lookback_lesson.hpp"
#include "image.hpp"
#include "run_command.hpp"

using namespace sv;
using namespace sv_test;

TEST_CASE("audit: the lesson's warp of 4 narrows to a block of 2 (?algo=warp-raking&n=2 stopped the page)") {
  for (const char* algo : {"warp-raking", "warp-brent-kung", "warp-sklansky"}) {
    CAPTURE(algo);
    gui::LessonControls l;
    l.request.n = 2;
    REQUIRE(l.other_warp == 4);  // the default lesson is not warp-level: a warp-level kernel takes this warp
    Trace t;
    REQUIRE_NOTHROW(t = record_block_scan(gui::lesson_config(l, algo)));
    CHECK(t.meta.warp_width() == 2);
    CHECK(t.result.outcome == Outcome::Correct);
    l.request.n = 16;  // where the block holds the warp, the lesson's warp stays
    CHECK(record_block_scan(gui::lesson_config(l, algo)).meta.warp_width() == 4);
  }
}

TEST_CASE("audit: the look-back view opens on the default preset, not '(changed)'") {
  gui::LookbackUi ui;
  CHECK(ui.preset == "default");
  gui::LookbackLesson preset;
  REQUIRE(gui::lookback_preset("default", preset));
  CHECK(preset.tiles == ui.lesson.tiles);  // the default preset is what the view starts with
  CHECK(preset.window == ui.lesson.window);
  CHECK(preset.input.size() == ui.lesson.input.size());
}

TEST_CASE("audit: a look-back value too wide for its cell is abbreviated, not left blank") {
  TempDir d;
  // Three tiles of int64 values near 10^13: aggregates of 17 digits, wider than a cell.
  {
    std::ofstream in(d.path / "big.txt");
    for (int i = 0; i < 3 * 256 * 12; ++i) in << 9876543210123LL + i << "\n";
  }
  REQUIRE(scanviz("trace --algo decoupled-lookback --type int64 --input @big.txt --out t.json", d.path).code == 0);
  REQUIRE(scanviz("render t.json --lookback --out t.svg", d.path).code == 0);
  const std::string svg = slurp(d.path / "t.svg");
  // The first tile's aggregate, 3072 values from 9876543210123 on: 30340740746214912, shown as 3e16
  // (the cells were blank).
  CHECK(svg.find(">3e16<") != std::string::npos);
}

TEST_CASE("audit: a screenshot under Xvfb shows no tooltip where the pointer rests (the screen's centre)") {
  TempDir d;
  // scripts/run.sh's window.png: under xvfb-run the pointer rests at the screen's centre, here over
  // the kernel source pane of a 1280x720 window.
  const std::string cmd = "XDG_CONFIG_HOME='" + d.path.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' " + scanviz_exe() +
                          " gui --frames 3 --step 2 --size 1280x720 --report-layout layout.json";
  const Run r = run_shell(cmd, d.path);
  REQUIRE(r.code == 0);
  const auto report = nlohmann::json::parse(slurp(d.path / "layout.json"));
  CHECK(report["tooltip"] == "");
}

namespace {

// The window under Xvfb with its layout report and screenshot in `d`.
nlohmann::json window_report(const TempDir& d, const std::string& args) {
  const std::string cmd = "XDG_CONFIG_HOME='" + d.path.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' " + scanviz_exe() +
                          " gui --frames 3 " + args + " --report-layout layout.json --screenshot shot.png";
  REQUIRE(run_shell(cmd, d.path).code == 0);
  return nlohmann::json::parse(slurp(d.path / "layout.json"));
}

}  // namespace

TEST_CASE("audit: in lecture mode every wrapped band keeps the lower edge of its last row") {
  TempDir d;
  const auto report = window_report(d, "--lecture --size 1280x720 --n 32 --step 99");
  const Image shot = load_png(d.path / "shot.png");
  const auto& canvas = report["canvases"][0];
  REQUIRE(canvas["bands"].get<int>() >= 2);
  for (int band = 0; band < canvas["bands"].get<int>(); ++band) {
    CAPTURE(band);
    int last_row = -1;
    for (const auto& c : canvas["cells"])
      if (c["band"] == band) last_row = std::max(last_row, c["row"].get<int>());
    int edges = 0, cells = 0;
    for (const auto& c : canvas["cells"]) {
      if (c["band"] != band || c["row"] != last_row) continue;
      ++cells;
      const int x = static_cast<int>(c["x"].get<double>() + c["w"].get<double>() / 2);
      const int bottom = static_cast<int>(c["y"].get<double>() + c["h"].get<double>());
      bool edge = false;  // the border's colour on the cell's lower edge, within a pixel of it
      for (int y = bottom - 2; y <= bottom + 1 && y < shot.h; ++y) edge |= near(shot.at(x, y), gui::palette_light().border, 40);
      edges += edge;
    }
    CHECK(cells > 0);
    CHECK(edges == cells);
  }
}

TEST_CASE("audit: at 800x600 the controls keep their labels and the step slider its place") {
  TempDir d;
  const auto report = window_report(d, "--size 800x600 --step 2");
  const auto& chrome = report["chrome"];
  // The algorithm's whole name ("kogge-stone-double-buffer", about 13 em) fits its combo.
  CHECK(chrome["algorithm"]["w"].get<double>() >= 13 * 16);
  REQUIRE(chrome.contains("step_slider"));
  CHECK(chrome["step_slider"]["w"].get<double>() >= 4 * 16);  // room for "step 2"
  CHECK(chrome["step_slider"]["x"].get<double>() + chrome["step_slider"]["w"].get<double>() <= 800);
  // The widgets leave room for their labels ("block (0 = fit n)" was cut to "block (0 ="): the
  // widget and its label end inside the panel, whose width the algorithm's combo takes.
  const double panel_right = chrome["algorithm"]["x"].get<double>() + chrome["algorithm"]["w"].get<double>();
  for (const char* name : {"block", "n", "operator", "schedule"}) {
    CAPTURE(name);
    CHECK(chrome[name]["x"].get<double>() + chrome[name]["w"].get<double>() <= panel_right + 1);
  }
}
