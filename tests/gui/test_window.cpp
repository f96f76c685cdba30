// The window run under Xvfb: the headless message, 300 frames with every panel open and playing,
// frames that rebuild nothing, lecture mode and fullscreen, side by side, the WRONG banner, dropped
// files and the hazard tooltip.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sys/wait.h>

#include "gui_test.hpp"
#include "bench_result.hpp"
#include "chart.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/panels/divergence_panel.hpp"
#include "emulator/record.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

TEST_CASE("headless: scanviz without a display says how to render instead, and exits 2") {
  Dir dir;
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" SCANVIZ_EXE "' >/dev/null 2>'" +
                          (dir.path / "headless.txt").string() + "'";
  const int status = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(status) == 2);
  std::ifstream f(dir.path / "headless.txt");
  std::string line, extra;
  std::getline(f, line);
  CHECK(line.find("scanviz render") != std::string::npos);
  CHECK_FALSE(std::getline(f, extra));
}

TEST_CASE("window: 300 frames with every panel, side by side, playing: no GL error, GL objects flat") {
  std::string out;
  const int code = run_under_xvfb("gui --frames 300 --play --side-by-side --n 64 --algo kogge-stone-double-buffer --size 1600x900 --report-frames "
                                 "--charts --timing --divergence --lookback default", &out);
  CHECK(code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("GL objects at frame 10 (\\d+), at the end (\\d+)")));
  CHECK(std::stoi(m[1]) > 0);
  CHECK(m[1] == m[2]);
  CHECK(out.find("OpenGL error") == std::string::npos);
}

TEST_CASE("window: frames where nothing changes rebuild nothing, a 1024-wide diagram folds to a few hundred instances, and what the look-back view hides is clipped") {
  struct Report {
    int instances = -1, diagram_builds = -1, scene_builds = -1, hidden_clipped = -1;
  };
  auto run = [](int frames) {
    std::string out;
    CHECK(run_under_xvfb("gui --frames " + std::to_string(frames) +
                             " --size 1600x900 --report-frames --algo kogge-stone-double-buffer --n 1024 --lookback 10000-tiles",
                         &out) == 0);
    std::smatch m;
    Report r;
    if (std::regex_search(out, m, std::regex("diagram instances (\\d+), diagram builds (\\d+), look-back scene builds (\\d+), "
                                             "hidden draws clipped (\\d+)")))
      r = {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
    CHECK(out.find("CPU median") != std::string::npos);
    return r;
  };
  const Report early = run(12), late = run(120);
  // The first frames settle the layout (fit, the scroll bar); after that the same picture is not rebuilt.
  CHECK(late.diagram_builds == 1);
  CHECK(late.scene_builds == early.scene_builds);
  CHECK(late.scene_builds >= 3);  // chained, decoupled look-back, reduce-then-scan
  CHECK(late.scene_builds <= 6);
  // 11 rows of 1024 cells under a pixel wide each: one quad a row, the store step's arrows one band.
  CHECK(late.instances > 0);
  CHECK(late.instances < 400);
  // The panels under the look-back view are drawn only where they show around it.
  CHECK(late.hidden_clipped > 0);
}

TEST_CASE("window: n changed with the slider is recorded off the frame, and a headless run's last frame shows the new trace") {
  // A click at the right end of the n slider (1600x900, font scale 1) asks for n = 1024 in the
  // next-to-last frame; the recording takes longer than a frame, so the last frame waits for it.
  std::string out;
  REQUIRE(run_under_xvfb("gui --frames 7 --size 1600x900 --report-frames --algo kogge-stone-double-buffer --n 8 "
                         "--keys 'wait:2 click:232,175'",
                         &out) == 0);
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("diagram instances (\\d+)")));
  CAPTURE(out);
  CHECK(std::stoi(m[1]) == 1);  // n = 1024's load row, folded to one quad; n = 8 draws 8 cells
}

TEST_CASE("window: a WRONG banner above a wrong run, in lecture mode and side by side, over no cell") {
  Dir dir;
  const std::uint32_t banner = palette_light().wrong;
  // Lecture mode, the racy kernel at n = 8 (every thread on its own): the banner in the title strip
  // (the top 100 px of the 1200 x 700 window, above the first row of cells), at step 1 where no
  // output is outlined yet. The double-buffered kernel: none.
  // Below the banner, only the legend's own swatch for a wrong value has its colour.
  const fs::path report = dir.path / "r.json";
  const Image racy = screenshot("--lecture --algo kogge-stone-racy --step 1 --theme light --report-layout '" + report.string() + "'",
                                dir.path / "r.png");
  const nlohmann::json legend = nlohmann::json::parse(std::ifstream(report))["canvases"][0]["legend_area"];
  CHECK(count_near(racy, banner, 0, racy.w, 6, 0, 100) > 3000);
  CHECK(count_near(racy, banner, 0, racy.w, 6, 100, static_cast<int>(double(legend["y"]))) == 0);
  const Image right = screenshot("--lecture --algo kogge-stone-double-buffer --step 1 --theme light", dir.path / "d.png");
  CHECK(count_near(right, banner, 0, right.w, 6) == 0);
  // Side by side: only the single-buffer kernel's caption (the lower one, a little above the window's
  // middle: the timeline takes the bottom) has it; the lesson's, at the top, none.
  const Image pair = screenshot("--algo kogge-stone-double-buffer --side-by-side --step 1 --theme light", dir.path / "p.png");
  CHECK(count_near(pair, banner, 0, pair.w, 6, 0, pair.h / 3) == 0);
  CHECK(count_near(pair, banner, 0, pair.w, 6, pair.h / 3, pair.h) > 2000);
}

TEST_CASE("window: side by side, the single-buffer kernel's race shows only on its side") {
  Dir dir;
  // n = 64 on the slides' input, in-order schedule, at stride 1: the racy kernel has RAW cells.
  const Image img = screenshot("--side-by-side --n 64 --step 1", dir.path / "s.png");
  // The lesson is drawn in the upper half, the racy kernel in the lower; red is the hazard colour.
  const std::uint32_t red = palette_light().cell_hazard;
  CHECK(count_near(img, red, 0, img.w, 6, 0, img.h / 2) == 0);
  CHECK(count_near(img, red, 0, img.w, 6, img.h / 2, img.h) > 0);
}

TEST_CASE("window: lecture mode and fullscreen switched on and off while it runs draw with no GL error") {
  // Each changes the font scale, which builds the fonts again; the backend's buffers must survive it.
  for (const char* keys : {"l wait:3 l wait:3", "f wait:3 f wait:3", "l wait:3 f wait:3"}) {
    CAPTURE(keys);
    std::string out;
    CHECK(run_under_xvfb(std::string("gui --frames 20 --size 1280x800 --keys '") + keys + "'", &out) == 0);
    CHECK(out.find("OpenGL error") == std::string::npos);
  }
}

TEST_CASE("window: lecture mode hides the controls and enlarges the text, a theme is kept, and --font-scale lasts one run") {
  Dir dir;
  const std::string env = "XDG_CONFIG_HOME='" + dir.path.string() + "'";
  const Image normal = screenshot("--theme light", dir.path / "n.png", env);
  const Image lecture = screenshot("--lecture", dir.path / "l.png", env);
  // Normally the lesson panel (ImGui's light window grey) fills the left of the window; in lecture
  // mode the diagram's white canvas is there instead.
  const std::uint32_t panel_grey = 0xF0F0F0FF;
  CHECK(count_near(normal, panel_grey, 0, 250, 1, 100, 400) > 20000);
  CHECK(count_near(lecture, panel_grey, 0, 250, 1, 100, 400) < 500);
  CHECK(count_near(lecture, 0xFFFFFFFF, 0, 250, 1, 100, 400) > 20000);
  // A dark theme chosen once is there the next time, without the option; a font scale given on the
  // command line is not saved (the View menu's is).
  screenshot("--theme dark --font-scale 1.5", dir.path / "d.png", env);
  std::ifstream f(dir.path / "scanviz" / "settings.json");
  const std::string settings((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(settings.find("\"dark\"") != std::string::npos);
  CHECK(settings.find("1.5") == std::string::npos);
  const Image again = screenshot("", dir.path / "a.png", env);
  CHECK(near(again.at(again.w / 2, again.h / 2), palette_dark().background, 10));
}

TEST_CASE("window: the timeline plays at most three steps a second, whatever speed was saved") {
  // Eight steps a second would change a cell eight times a second: over WCAG's three flashes.
  Dir dir;
  const std::string env = "XDG_CONFIG_HOME='" + dir.path.string() + "'";
  fs::create_directories(dir.path / "scanviz");
  std::ofstream(dir.path / "scanviz" / "settings.json") << "{\"theme\": \"light\", \"font_scale\": 1, \"speed\": 8}\n";
  screenshot("--play", dir.path / "p.png", env);
  std::ifstream f(dir.path / "scanviz" / "settings.json");
  const nlohmann::json saved = nlohmann::json::parse(f);
  CHECK(saved["speed"].get<double>() == 3.0);
}

TEST_CASE("window: a bench table or a trace dropped on the window opens, and a bad file says why in the status line") {
  Dir dir;
  const sv::BenchResult r = copy_and_cub_table();
  std::ofstream(dir.path / "bench.json") << sv::bench_to_json(r);
  std::ofstream(dir.path / "old.json") << "{\"format\": \"scanviz-bench\", \"version\": 7}";
  std::ofstream(dir.path / "empty.json") << "{}";
  BlockRunConfig c;
  c.algorithm = "brent-kung";
  c.n = 16;
  saved(record_block_scan(c), dir.path / "bk16.json");
  // The window after a few frames with `drops` dropped on it at the third: its layout report.
  auto dropped = [&](const std::string& drops, const fs::path& png) {
    return layout_after("--keys '" + drops + "'" + (png.empty() ? "" : " --screenshot '" + png.string() + "'"), dir.path);
  };
  auto top_row_cells = [](const nlohmann::json& report) {
    return std::count_if(report["canvases"][0]["cells"].begin(), report["canvases"][0]["cells"].end(),
                         [](const auto& cell) { return cell["row"] == 0; });
  };
  // The bench table: the timing window opens on it, its chart in the table's colours.
  const auto bench = dropped("drop:" + (dir.path / "bench.json").string(), dir.path / "bench.png");
  CHECK(bench["status"] == "opened bench.json: 10 rows measured on NVIDIA H200");
  const Image img = load_png(dir.path / "bench.png");
  CHECK(count_near(img, sv::chart::algorithm_color("copy"), 0, img.w, 4) > 30);
  CHECK(count_near(img, sv::chart::algorithm_color("cub"), 0, img.w, 4) > 30);
  CHECK(top_row_cells(bench) == 8);  // the lesson stays the default one
  // A trace: it replaces the lesson (Brent-Kung at n = 16 instead of the default n = 8).
  const auto trace = dropped("drop:" + (dir.path / "bk16.json").string(), {});
  CHECK(trace["status"] == "opened bk16.json");
  CHECK(top_row_cells(trace) == 16);
  // Bad files leave the window as it was and say which file and what is wrong with it.
  const auto old = dropped("drop:" + (dir.path / "old.json").string(), dir.path / "old.png");
  CHECK(old["status"] == "old.json: version: this scanviz reads version 1");
  // Said in the error text's red in the menu bar, where a success is grey.
  const Image refused = load_png(dir.path / "old.png");
  CHECK(count_near(refused, kTextOnLight.bad, 0, refused.w, 30, 0, 24) > 30);
  CHECK(count_near(img, kTextOnLight.bad, 0, img.w, 30, 0, 24) == 0);
  CHECK(top_row_cells(old) == 8);
  const std::string empty = dropped("drop:" + (dir.path / "empty.json").string(), {})["status"];
  CHECK(empty.rfind("empty.json: format", 0) == 0);
  CHECK(dropped("drop:" + (dir.path / "missing.json").string(), {})["status"] == "missing.json: cannot open: No such file or directory");
  // Two at once open in order: the trace, then the table.
  const auto both = dropped("drop:" + (dir.path / "bk16.json").string() + " drop:" + (dir.path / "bench.json").string(), {});
  CHECK(top_row_cells(both) == 16);
  CHECK(both["status"] == "opened bench.json: 10 rows measured on NVIDIA H200");
}

TEST_CASE("window: hovering a hazard cell opens the tooltip that names the hazard") {
  Dir dir;
  const std::string lesson = "--algo kogge-stone-racy --n 64 --warp 32 --step 1 --theme light";  // warps of 32, as on a GPU
  const Image before = screenshot(lesson, dir.path / "a.png");
  // The first hazard-coloured pixel of the diagram, a few pixels into its cell.
  int mx = -1, my = -1;
  for (int y = 0; y < before.h && mx < 0; ++y)
    for (int x = 0; x < before.w && mx < 0; ++x)
      if (near(before.at(x, y), palette_light().cell_hazard, 3)) mx = x + 5, my = y + 5;
  REQUIRE(mx >= 0);
  const Image after = screenshot(lesson + " --mouse " + std::to_string(mx) + "," + std::to_string(my), dir.path / "b.png");
  // Below and right of the pointer the tooltip's lines appear; the hazard's description is in the
  // error text's red (darker than the hazard cells' fill, for its contrast with the tooltip).
  const int x0 = mx + 8, x1 = mx + 700, y0 = my + 12, y1 = my + 200;
  const int red_before = count_near(before, kTextOnLight.bad, x0, x1, 12, y0, y1);
  const int red_after = count_near(after, kTextOnLight.bad, x0, x1, 12, y0, y1);
  CAPTURE(red_before);
  CHECK(red_after > red_before + 40);
  int changed = 0;
  for (int y = y0; y < std::min(y1, after.h); ++y)
    for (int x = x0; x < std::min(x1, after.w); ++x) changed += before.at(x, y) != after.at(x, y);
  CHECK(changed > 2000);
  std::string out;
  CHECK(run_under_xvfb("gui --mouse 10 --frames 2", &out) == 2);
  CHECK(out.find("--mouse must be X,Y") != std::string::npos);
}
