// The diagram's legend and the marks that do not rest on colour, as a person sees them: frames of the
// window under Xvfb read back with the layout report (`gui --screenshot --report-layout`), and the
// PNG and SVG that `scanviz render` writes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>

#include "../tests/image.hpp"
#include "gui/draw/render.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/legend.hpp"
#include "trace/trace_json.hpp"

using json = nlohmann::json;
using namespace sv::gui;
using sv_test::Image;
using sv_test::near;
namespace fs = std::filesystem;

namespace {

struct Frame {
  Image image;
  json report;
};

fs::path scratch() {
  const fs::path dir = fs::temp_directory_path() / ("scanviz-legend-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

// Runs scanviz with `args` under Xvfb, its settings in a folder of its own; the exit code.
int scanviz(const std::string& args) {
  const std::string cmd = "XDG_CONFIG_HOME='" + scratch().string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE "' " +
                          args + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The window after a few frames: its pixels and its layout report.
Frame window(const std::string& args) {
  const fs::path png = scratch() / "w.png", report = scratch() / "w.json";
  REQUIRE(scanviz("gui --frames 4 --size 1280x720 " + args + " --screenshot '" + png.string() + "' --report-layout '" +
                  report.string() + "'") == 0);
  Frame f;
  f.image = sv_test::load_png(png);
  std::ifstream in(report);
  f.report = json::parse(in);
  return f;
}

struct Box {
  int x0, y0, x1, y1;  // pixels [x0, x1) x [y0, y1)
};
Box box(const json& r) {
  const double x = r["x"], y = r["y"], w = r["w"], h = r["h"];
  return {static_cast<int>(std::ceil(x)), static_cast<int>(std::ceil(y)), static_cast<int>(std::floor(x + w)),
          static_cast<int>(std::floor(y + h))};
}

int count_near(const Image& img, std::uint32_t colour, const Box& b, int tolerance = 10) {
  int n = 0;
  for (int y = std::max(0, b.y0); y < std::min(img.h, b.y1); ++y)
    for (int x = std::max(0, b.x0); x < std::min(img.w, b.x1); ++x) n += near(img.at(x, y), colour, tolerance);
  return n;
}

// The lesson's racy kernel at the slides' n = 8 in lecture mode, at `step`, in `theme`.
Frame racy_lecture(const std::string& theme, int step) {
  return window("--lecture --algo kogge-stone-racy --n 8 --step " + std::to_string(step) + " --theme " + theme);
}

std::uint32_t parse_colour(const json& e) { return (std::stoul(e["color"].get<std::string>().substr(1), nullptr, 16) << 8) | 0xFF; }

// The colour each mark's legend entry must show, from the theme's palette.
std::uint32_t expected_colour(const std::string& mark, const Palette& p) {
  const std::map<std::string, std::uint32_t> m = {{"left", p.edge_left},         {"right", p.edge_right},  {"copy", p.edge_copy},
                                                  {"active", p.cell_active},     {"race", p.cell_hazard},  {"wrong", p.wrong},
                                                  {"invalid", p.cell_invalid},   {"undefined", p.cell_undefined}};
  return m.at(mark);
}

// Pixels of a row classified as the race fill (F), the hatch (H) or anything else (.).
std::string classify_row(const Image& img, int y, int x0, int x1, const Palette& p) {
  std::string s;
  for (int x = x0; x < x1; ++x) s += near(img.at(x, y), p.cell_hazard, 12) ? 'F' : near(img.at(x, y), hatch_color(p), 12) ? 'H' : '.';
  return s;
}

// A row above the cell's text and inside its outlines: (h - text)/2 leaves the top free.
int free_row(const json& c) {
  const double top_gap = (double(c["h"]) - double(c["text_px"])) / 2;
  return static_cast<int>(std::ceil(double(c["y"]) + std::clamp(top_gap / 2 + 3, 6.0, top_gap - 1)));
}

}  // namespace

TEST_CASE("legend: the window names every mark the racy kernel shows, each swatch drawn in its colour, in a strip under the cells") {
  for (const std::string theme : {"light", "dark", "high-contrast"}) {
    CAPTURE(theme);
    const Palette& pal = palette_named(theme);
    const Frame f = racy_lecture(theme, 1);
    const json& canvas = f.report["canvases"][0];
    std::set<std::string> marks;
    const Box strip = box(canvas["legend_area"]);
    double lowest_cell = 0;
    for (const json& c : canvas["cells"]) lowest_cell = std::max(lowest_cell, double(c["y"]) + double(c["h"]));
    CHECK(strip.y0 >= lowest_cell - 0.5);
    for (const json& e : canvas["legend"]) {
      const std::string mark = e["mark"];
      CAPTURE(mark);
      marks.insert(mark);
      CHECK(!e["range"].get<std::string>().empty());
      CHECK(parse_colour(e) == expected_colour(mark, pal));
      const Box b = box(e);
      CHECK(b.x0 >= strip.x0);
      CHECK(b.y0 >= strip.y0);
      CHECK(b.y1 <= strip.y1);
      const int area = (b.x1 - b.x0) * (b.y1 - b.y0), shown = count_near(f.image, parse_colour(e), b);
      if (mark == "left" || mark == "right" || mark == "copy") {
        CHECK(shown >= b.x1 - b.x0);  // a 2 px line and its head along the swatch
        CHECK(shown < area / 2);      // an arrow, not a block of colour
      } else if (mark == "race") {
        CHECK(shown > area / 3);
        CHECK(count_near(f.image, hatch_color(pal), b) > area / 6);  // its stripes
      } else if (mark == "wrong") {
        CHECK(shown > area / 5);  // the outline and the corner
        CHECK(count_near(f.image, pal.cell, b) > area / 10);
      } else {
        CHECK(shown > area / 2);
      }
    }
    for (const char* m : {"left", "right", "copy", "active", "race", "wrong"}) CHECK(marks.count(m) == 1);
  }
}

TEST_CASE("legend: a correct run's legend names no race and no wrong value") {
  const Frame f = window("--lecture --algo kogge-stone-double-buffer --n 8 --step 1 --theme light");
  std::set<std::string> marks;
  for (const json& e : f.report["canvases"][0]["legend"]) marks.insert(e["mark"].get<std::string>());
  CHECK(marks.count("left") == 1);
  CHECK(marks.count("active") == 1);
  CHECK(marks.count("race") == 0);
  CHECK(marks.count("wrong") == 0);
}

TEST_CASE("legend: a race cell is hatched in diagonal stripes, other cells are not, in every theme") {
  for (const std::string theme : {"light", "dark", "high-contrast"}) {
    CAPTURE(theme);
    const Palette& pal = palette_named(theme);
    const Frame f = racy_lecture(theme, 1);
    int races = 0, plain = 0;
    for (const json& c : f.report["canvases"][0]["cells"]) {
      const Box b = box(c);
      const int y = free_row(c);
      const std::string row = classify_row(f.image, y, b.x0 + 6, b.x1 - 6, pal);
      if (c["race"] == false) {
        CHECK(row.find('H') == std::string::npos);
        ++plain;
        continue;
      }
      ++races;
      CAPTURE(row);
      // Along the row: the fill and the hatch alternate, 3 px of stripe every 8 px, and nothing else.
      CHECK(row.find('.') == std::string::npos);
      const std::regex stripe("H{2,4}");
      const auto stripes = std::distance(std::sregex_iterator(row.begin(), row.end(), stripe), std::sregex_iterator());
      CHECK(stripes >= static_cast<long>(row.size()) / 8 - 1);
      CHECK(std::count(row.begin(), row.end(), 'H') <= static_cast<long>(row.size()) * 5 / 8);
      for (std::size_t k = 1; k + 6 <= row.size(); ++k)
        if (row[k] == 'F' && row[k - 1] == 'H') CHECK(row.compare(k, 6, "FFFFFH") == 0);  // the gap is 5 px
      // Down and to the right the stripe goes on: the stripes are diagonal, not vertical.
      int same = 0, along = 0;
      for (int t = 0; t < 8 && y + t < b.y1 - 6; ++t, ++along) {
        const int x = b.x0 + 10;
        same += near(f.image.at(x + t, y + t), f.image.at(x, y), 12);
      }
      CHECK(same == along);
    }
    CHECK(races == 6);  // threads 1..6 read a cell its left neighbour overwrote in the step
    CHECK(plain > 0);
  }
}

TEST_CASE("legend: a wrong output carries the corner mark in its top-right corner, a right one does not") {
  for (const std::string theme : {"light", "dark"}) {
    int wrong = 0, right = 0;
    CAPTURE(theme);
    const Frame f = racy_lecture(theme, 99);
    const Palette& pal = palette_named(theme);
    for (const json& c : f.report["canvases"][0]["cells"]) {
      const Box b = box(c);
      // The pixels inside the triangle and past the outline (which ends 4 px in), as distances from the
      // top-right corner, and the same spots from the top-left corner.
      const int corner = static_cast<int>(wrong_corner_px(double(c["w"]), double(c["h"])));
      int spots = 0, at_right = 0, at_left = 0;
      for (int dy = 5; dy < corner; ++dy)
        for (int dx = 5; dx + dy <= corner - 3; ++dx) {  // a pixel of slack for edges between pixels
          ++spots;
          at_right += near(f.image.at(b.x1 - 1 - dx, b.y0 + dy), pal.wrong, 10);
          at_left += near(f.image.at(b.x0 + dx, b.y0 + dy), pal.wrong, 10);
        }
      REQUIRE(spots >= 6);
      if (c["wrong"] == true) {
        ++wrong;
        CHECK(at_right == spots);
        CHECK(at_left == 0);
      } else {
        ++right;
        CHECK(at_right == 0);
      }
    }
    CHECK(wrong == 6);  // the 6 of 8 outputs the banner names
    CHECK(right > 0);
  }
}

TEST_CASE("legend: render writes the legend under the cells, in the SVG as <g class=\"legend\"> and in the PNG") {
  const fs::path dir = scratch(), trace = dir / "racy.json", svg = dir / "racy.svg", png = dir / "racy.png";
  REQUIRE(scanviz("trace --algo kogge-stone-racy --n 8 --executor emulator --warp 1 --out '" + trace.string() + "'") == 0);
  REQUIRE(scanviz("render '" + trace.string() + "' --step 1 --out '" + svg.string() + "'") == 0);
  std::ifstream in(svg);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string s = ss.str();
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  REQUIRE(count("<g class=\"legend\"") == 1);
  for (const char* entry : {"entry left", "entry right", "entry copy", "entry active", "entry race", "entry wrong"}) CHECK(count(entry) == 1);
  CHECK(count("<pattern id=\"race-hatch\"") == 1);
  // Every race cell hatched, and the legend's race swatch; every wrong mark with its corner.
  CHECK(count("class=\"hatch\"") == count(" hazard\"") + 1);
  CHECK(count("class=\"wrong-corner\"") == count("class=\"wrong\""));
  // The legend lies under the cells, inside the picture.
  const std::smatch legend = [&] {
    std::smatch m;
    std::regex_search(s, m, std::regex("<g class=\"legend\" transform=\"translate\\(([0-9.]+),([0-9.]+)\\)"));
    return m;
  }();
  std::smatch height;
  REQUIRE(std::regex_search(s, height, std::regex("<svg[^>]* height=\"([0-9.]+)\"")));
  REQUIRE(legend.size() == 3);
  CHECK(std::stod(legend[2]) < std::stod(height[1]));

  REQUIRE(scanviz("render '" + trace.string() + "' --step 1 --theme dark --out '" + png.string() + "'") == 0);
  const Image img = sv_test::load_png(png);
  const Palette& pal = palette_dark();
  // Under the diagram (title and rows as build_diagram lays them out), a strip holds the swatches: the
  // left arrow's orange, the race cell and its hatch, the wrong mark.
  const Diagram d = build_diagram(make_trace_view(sv::load_trace(trace)), 1, pal);
  const int below = static_cast<int>(std::ceil(kRenderTitleHeight + d.height));
  REQUIRE(img.h > below + 10);
  const Box strip{0, below, img.w, img.h};
  CHECK(count_near(img, pal.edge_left, strip) > 20);
  CHECK(count_near(img, pal.cell_hazard, strip) > 60);
  CHECK(count_near(img, hatch_color(pal), strip) > 20);
  CHECK(count_near(img, pal.wrong, strip) > 20);
}

TEST_CASE("legend: where cells fold into the heat map, a bin with a race is hatched too, and the legend says so") {
  const Palette& pal = palette_light();
  const Frame racy = window("--algo kogge-stone-racy --n 1024 --step 1 --theme light");
  const json& canvas = racy.report["canvases"][0];
  REQUIRE(canvas["heat"] == true);
  int race_cells = 0;
  for (const json& c : canvas["cells"])
    if (c["race"] == true) ++race_cells;
  REQUIRE(race_cells > 100);
  CHECK(count_near(racy.image, hatch_color(pal), box(canvas["cells_area"]), 8) > 200);
  std::multiset<std::string> marks;
  for (const json& e : canvas["legend"]) marks.insert(e["mark"].get<std::string>());
  CHECK(marks.count("heat") == 5);
  CHECK(marks.count("race") == 1);
  // The double-buffered kernel has no race: no stripe anywhere in its cells.
  const Frame right = window("--algo kogge-stone-double-buffer --n 1024 --step 1 --theme light");
  CHECK(right.report["canvases"][0]["heat"] == true);
  CHECK(count_near(right.image, hatch_color(pal), box(right.report["canvases"][0]["cells_area"]), 8) == 0);
}
