// The float lesson's window as a person sees it: each output's error written in a cell coloured by
// it, the picked output's addition tree and narration drawn, and a cell picked by a click and by the
// keys. The numbers the narration must say are worked out here, in floats and integers.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "gui/model/diagram_model.hpp"
#include "gui/panels/float_panel.hpp"
#include "gui_test.hpp"

using namespace gui_test;

namespace {

constexpr std::uint32_t kInk = 0x212529FF;  // the cells' and the boxes' text

struct Box {
  int x0, y0, x1, y1;
};
Box box(const nlohmann::json& layout, const std::string& name) {
  const auto& r = layout["chrome"].at(name);
  return {static_cast<int>(r["x"].get<double>()), static_cast<int>(r["y"].get<double>()),
          static_cast<int>(r["x"].get<double>() + r["w"].get<double>()), static_cast<int>(r["y"].get<double>() + r["h"].get<double>())};
}
int count_in(const Image& img, std::uint32_t colour, const Box& b, int tolerance = 6) {
  return count_near(img, colour, b.x0, b.x1, tolerance, b.y0, b.y1);
}
nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}
std::string click_at(const Box& b) { return "click:" + std::to_string((b.x0 + b.x1) / 2) + "," + std::to_string((b.y0 + b.y1) / 2); }

const std::string kLesson = "--algo brent-kung --input mixed --n 16 --floats --theme light";

}  // namespace

TEST_CASE("float lesson: 1e8 and fifteen 1s, each output's error written in its coloured cell, the last one's tree and words") {
  Dir dir;
  const fs::path png = dir.path / "floats.png", report = dir.path / "layout.json";
  const Image img = screenshot(kLesson + " --report-layout '" + report.string() + "'", png, config_env(), "1400x900");
  const nlohmann::json layout = read_json(report);
  const std::string said = layout["texts"].at("floats_narration");
  // The loop adds each 1 to 1e8 and loses it (1e8's ULP in float is 8): 15 lost, 15/8 ULP.
  float loop = 1e8f;
  for (int i = 1; i < 16; ++i) loop += 1.0f;
  CHECK(loop == 1e8f);
  char loop_ulps[16];
  std::snprintf(loop_ulps, sizeof loop_ulps, "%.3g", (1e8 + 15 - static_cast<double>(loop)) / 8);
  CHECK(std::string(loop_ulps) == "1.88");
  CHECK(said.find("The sequential loop rounds 15 times before output 15, 15 deep: error " + std::string(loop_ulps) + " ULP.") !=
        std::string::npos);
  // Brent-Kung's last output: the reduction tree's root, its two halves, log2 16 = 4 additions deep.
  CHECK(said.find("y15 = (x0..x7)+(x8..x15): rounded 15 times") == 0);
  CHECK(said.find("4 additions deep") != std::string::npos);
  // Seen: the cells in their error colours with their numbers written in ink, the tree's rounded
  // additions (yellow) with their text, the narration's text.
  const Box cells = box(layout, "floats_cells"), tree = box(layout, "floats_tree"), words = box(layout, "floats_narration");
  CHECK(count_in(img, sv::gui::float_error_colour(1), cells, 2) > 2000);    // 1 ULP or more: y8..y14
  CHECK(count_in(img, sv::gui::float_error_colour(0.25), cells, 2) > 2000); // the nearest float: y1..y4
  CHECK(count_in(img, kInk, cells, 40) > 300);
  CHECK(count_in(img, sv::gui::float_error_colour(0.9), tree, 2) > 500);   // additions that rounded
  CHECK(count_in(img, kInk, tree, 40) > 150);
  CHECK(count_in(img, sv::gui::palette_light().text, words, 40) > 300);
  // Each of the 16 outputs has its cell, and the last is outlined as picked.
  for (int i = 0; i < 16; ++i) CHECK(layout["chrome"].contains("floats_cell_" + std::to_string(i)));
  const Box last = box(layout, "floats_cell_15");
  CHECK(count_in(img, sv::gui::palette_light().edge_left, {last.x0, last.y0, last.x1, last.y0 + 3}, 4) > 40);
}

TEST_CASE("float lesson: an output picked by a click, by the keys, and by --float-cell") {
  Dir dir;
  const fs::path report = dir.path / "layout.json";
  const auto layout_with = [&](const std::string& more) {
    fs::remove(report);
    REQUIRE(run_under_xvfb("gui --frames 12 --size 1400x900 --report-layout '" + report.string() + "' " + kLesson + " " + more) == 0);
    return read_json(report);
  };
  const nlohmann::json first = layout_with("");
  const Box y3 = box(first, "floats_cell_3");
  nlohmann::json l = layout_with("--keys '" + click_at(y3) + "'");
  std::string said = l["texts"].at("floats_narration");
  CHECK(said.find("y3 = (x0+x1)+(x2+x3): rounded 3 times") == 0);  // Brent-Kung at 4: hand-worked
  CHECK(said.find("The sequential loop rounds 3 times before output 3") != std::string::npos);
  l = layout_with("--keys '" + click_at(y3) + " left left'");
  said = l["texts"].at("floats_narration");
  CHECK(said.find("y1 = x0+x1: rounded once") == 0);
  l = layout_with("--keys '" + click_at(y3) + " home'");
  said = l["texts"].at("floats_narration");
  CHECK(said.find("y0 = x0: rounded 0 times") == 0);
  l = layout_with("--float-cell 2");
  said = l["texts"].at("floats_narration");
  CHECK(said.find("y2 = x0+x1 then +x2: rounded twice") == 0);
}
