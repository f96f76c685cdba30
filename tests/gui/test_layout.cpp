// The window's layout as a person sees it, through `scanviz gui --report-layout`: at the sizes, font
// scales and n a lecture uses, every value is drawn in its cell, no smaller than the legible minimum,
// no taller or wider than the cell; row labels never cover a cell; the heat map has a legend; the
// timeline and the narration stay on the screen.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "gui/model/canvas_fit.hpp"

using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The smallest cell text a lecture can read: 60% of the font (16 px times the scale), never under 9 px.
double legible_px(double font_scale) { return std::max(9.0, 0.6 * 16 * font_scale); }

struct Run {
  int code = -1;
  std::string output;
  json report;
};

// Runs the window for a few frames under Xvfb with its own settings folder; reads the layout report.
Run run_gui(const std::string& args, const std::string& report_path = "") {
  const fs::path dir = fs::temp_directory_path() / ("scanviz-layout-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path report = report_path.empty() ? dir / "layout.json" : fs::path(report_path), log = dir / "out.txt";
  fs::remove(report);
  const std::string cmd = "XDG_CONFIG_HOME='" + dir.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE
                          "' gui --frames 4 " + args + " --report-layout '" + report.string() + "' >'" + log.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream out(log);
  std::stringstream s;
  s << out.rdbuf();
  r.output = s.str();
  if (std::ifstream in(report); in) r.report = json::parse(in, nullptr, false);
  fs::remove_all(dir);
  return r;
}

bool overlap(const json& a, const json& b) {
  const double ax = a["x"], ay = a["y"], aw = a["w"], ah = a["h"], bx = b["x"], by = b["y"], bw = b["w"], bh = b["h"];
  return ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
}

bool inside(const json& r, const json& area) {
  const double x = r["x"], y = r["y"], w = r["w"], h = r["h"];
  return x >= double(area["x"]) - 0.5 && y >= double(area["y"]) - 0.5 && x + w <= double(area["x"]) + double(area["w"]) + 0.5 &&
         y + h <= double(area["y"]) + double(area["h"]) + 0.5;
}

// Every written cell of every canvas holds legible text that fits it, on screen; no label covers a cell.
void check_every_value_legible(const Run& r, double font_scale) {
  REQUIRE(r.code == 0);
  REQUIRE(r.report.is_object());
  CHECK(double(r.report["font_scale"]) == doctest::Approx(font_scale));
  const double min_px = legible_px(font_scale);
  for (const json& canvas : r.report["canvases"]) {
    int values = 0, blank = 0, small = 0, too_tall = 0, too_wide = 0, off_screen = 0;
    std::string example;
    for (const json& c : canvas["cells"]) {
      if (c["value"].get<std::string>().empty()) continue;
      ++values;
      const std::string text = c["text"];
      const double px = c["text_px"], w = c["text_w"];
      const bool bad_blank = text.empty(), bad_small = !text.empty() && px < min_px - 0.01;
      const bool bad_tall = px > double(c["h"]) + 0.01, bad_wide = w > double(c["w"]) + 0.01;
      const bool bad_off = !inside(c, canvas["area"]);
      blank += bad_blank, small += bad_small, too_tall += bad_tall, too_wide += bad_wide, off_screen += bad_off;
      if ((bad_blank || bad_small || bad_tall || bad_wide || bad_off) && example.empty()) example = c.dump();
    }
    int overlaps = 0;
    for (const json& l : canvas["labels"])
      for (const json& c : canvas["cells"]) overlaps += overlap(l, c);
    CAPTURE(example);
    CHECK(values > 0);
    CHECK(blank == 0);
    CHECK(small == 0);
    CHECK(too_tall == 0);
    CHECK(too_wide == 0);
    CHECK(off_screen == 0);
    CHECK(overlaps == 0);
  }
}

// The step slider and the narration's text end inside the window.
void check_chrome_on_screen(const Run& r) {
  REQUIRE(r.report.is_object());
  const json& chrome = r.report["chrome"];
  const json screen = {{"x", 0}, {"y", 0}, {"w", r.report["window"]["w"]}, {"h", r.report["window"]["h"]}};
  REQUIRE(chrome.contains("step_slider"));
  CHECK(double(chrome["step_slider"]["w"]) > 100);  // room to drag it
  CHECK(inside(chrome["step_slider"], screen));
  if (chrome.contains("narration")) {
    CHECK(inside(chrome["narration"], screen));
    CHECK(inside(chrome["narration_text"], chrome["narration"]));
  }
}

}  // namespace

TEST_CASE("layout: lecture mode at 1280x720, n = 8, 16 and 32: every value legible in its cell, labels beside the cells") {
  for (int n : {8, 16, 32}) {
    CAPTURE(n);
    const Run r = run_gui("--lecture --size 1280x720 --step 99 --n " + std::to_string(n));
    check_every_value_legible(r, 2);
    check_chrome_on_screen(r);
  }
}

TEST_CASE("layout: lecture mode at 1920x1080, n = 8, 16 and 32: every value legible in its cell, labels beside the cells") {
  for (int n : {8, 16, 32}) {
    CAPTURE(n);
    const Run r = run_gui("--lecture --size 1920x1080 --step 99 --n " + std::to_string(n));
    check_every_value_legible(r, 2);
    check_chrome_on_screen(r);
  }
}

TEST_CASE("layout: a sum at n = 40 in lecture mode keeps every output value") {
  const Run r = run_gui("--lecture --size 1280x720 --step 99 --op sum --n 40");
  check_every_value_legible(r, 2);
}

TEST_CASE("layout: font scale 2 at 1280x720 keeps the slides' n = 8 legible and the timeline and narration on screen") {
  const Run r = run_gui("--font-scale 2 --size 1280x720 --step 99 --n 8");
  check_every_value_legible(r, 2);
  check_chrome_on_screen(r);
  const Run lecture = run_gui("--lecture --font-scale 3 --size 1280x720 --step 99 --n 8");
  check_every_value_legible(lecture, 3);
  check_chrome_on_screen(lecture);
}

TEST_CASE("layout: from n = 64 the row labels keep their own column, and the heat rows at n = 1024 have a legend") {
  for (const std::string args : {"--n 64 --step 99", "--lecture --size 1280x720 --n 64 --step 99", "--n 1024 --step 99"}) {
    CAPTURE(args);
    const Run r = run_gui(args);
    REQUIRE(r.code == 0);
    const json& canvas = r.report["canvases"][0];
    CHECK(canvas["labels"].size() >= 4);
    int overlaps = 0;
    for (const json& l : canvas["labels"]) {
      CHECK(double(l["text_px"]) >= 9);
      for (const json& c : canvas["cells"]) overlaps += overlap(l, c);
    }
    CHECK(overlaps == 0);
  }
  const Run heat = run_gui("--n 1024 --step 99 --op sum");
  REQUIRE(heat.code == 0);
  const json& canvas = heat.report["canvases"][0];
  CHECK(canvas["heat"] == true);
  REQUIRE(canvas["legend"].size() >= 3);
  // Distinct colours, each naming its range, none over a cell.
  std::set<std::string> colours;
  for (const json& e : canvas["legend"]) {
    colours.insert(e["color"].get<std::string>());
    CHECK(!e["range"].get<std::string>().empty());
    for (const json& c : canvas["cells"]) CHECK_FALSE(overlap(e, c));
  }
  CHECK(colours.size() == canvas["legend"].size());
}

TEST_CASE("layout: a lesson fitted narrower than its labels still names every row, in every band, beside its cells") {
  // 16 intervals at 1200x700 with the side panels: too narrow for one band of legible values.
  const Run r = run_gui("--size 1200x700 --algo kogge-stone --n 16 --step 5");
  check_every_value_legible(r, 1);
  const json& canvas = r.report["canvases"][0];
  const int bands = canvas["bands"];
  std::set<std::pair<int, int>> named;  // (band, row)
  for (const json& l : canvas["labels"]) {
    CHECK(double(l["text_px"]) >= 9);
    CHECK(double(l["x"]) + double(l["w"]) <= double(canvas["cells_area"]["x"]));
    named.insert({l["band"].get<int>(), l["row"].get<int>()});
  }
  CHECK(named.size() == static_cast<std::size_t>(6 * bands));  // load, strides 1, 2, 4, 8, store in each band
}

TEST_CASE("layout: --report-layout to a path that cannot be written is one line and a non-zero exit") {
  const Run r = run_gui("--n 8", "/nonexistent-folder/layout.json");
  CHECK(r.code != 0);
  CHECK(r.output.find("--report-layout") != std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

TEST_CASE("layout: values are abbreviated as a lecture writes them, short ones left alone") {
  CHECK(sv::gui::abbreviate_value("x10..x15") == "10..15");
  CHECK(sv::gui::abbreviate_value("!x0..x3,x5..x7") == "!0..3,5..7");
  CHECK(sv::gui::abbreviate_value("12345678") == "1.2e7");
  CHECK(sv::gui::abbreviate_value("-12345678") == "-1.2e7");
  CHECK(sv::gui::abbreviate_value("0.333333") == "0.33");
  CHECK(sv::gui::abbreviate_value("1234") == "1234");
  CHECK(sv::gui::abbreviate_value("ID") == "ID");
  CHECK(sv::gui::min_cell_text_px(32) == doctest::Approx(19.2));
  CHECK(sv::gui::min_cell_text_px(10) == 9);
}

TEST_CASE("layout: every lesson and timeline control names itself, and the pointer resting on one shows what it does") {
  const Run base = run_gui("--size 1600x900 --algo kogge-stone-racy --n 8");
  REQUIRE(base.code == 0);
  const json& chrome = base.report["chrome"];
  CHECK(base.report["tooltip"] == "");  // the pointer is nowhere
  const std::vector<std::string> controls = {"algorithm", "double_buffering", "one_barrier", "two_barriers", "n", "block",
                                             "lockstep", "operator", "exclusive", "scan", "input", "executor", "schedule",
                                             "side_by_side", "first_step", "previous_step", "play", "next_step",
                                             "last_step", "speed", "step_slider"};
  for (const std::string& name : controls) {
    CAPTURE(name);
    REQUIRE(chrome.contains(name));
    CHECK(chrome[name]["w"].get<double>() > 0);
  }
  // Resting on a few of them: the tooltip is theirs.
  const std::vector<std::pair<std::string, std::string>> probes = {
      {"n", "elements to scan"}, {"schedule", "order the emulator runs"}, {"play", "(Space)"}, {"lockstep", "advances together"}};
  for (const auto& [name, says] : probes) {
    CAPTURE(name);
    const json& r = chrome[name];
    const int x = static_cast<int>(r["x"].get<double>() + r["w"].get<double>() / 2);
    const int y = static_cast<int>(r["y"].get<double>() + r["h"].get<double>() / 2);
    const Run hover = run_gui("--size 1600x900 --algo kogge-stone-racy --n 8 --mouse " + std::to_string(x) + "," + std::to_string(y));
    REQUIRE(hover.code == 0);
    const std::string shown = hover.report["tooltip"].get<std::string>();
    CHECK(shown.find(says) != std::string::npos);
  }
}
