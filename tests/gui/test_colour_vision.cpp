// Every theme's diagram colours as readers with a colour-vision deficiency see them (Machado 2009
// simulation, tests/colour_vision.hpp): the marks a reader must tell apart stay apart.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "colour_vision.hpp"
#include "gui/options.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/legend.hpp"

using namespace sv::gui;
using sv_test::delta_e;
using sv_test::Vision;

TEST_CASE("colour vision: the simulation gives CIELAB's published values and the known confusions") {
  // sRGB red and white in CIELAB (D65), as colour-science references list them.
  const sv_test::Lab red = sv_test::simulate_lab(0xFF0000FF, Vision::Normal), white = sv_test::simulate_lab(0xFFFFFFFF, Vision::Normal);
  CHECK(red.l == doctest::Approx(53.24).epsilon(0.002));
  CHECK(red.a == doctest::Approx(80.09).epsilon(0.002));
  CHECK(red.b == doctest::Approx(67.20).epsilon(0.002));
  CHECK(white.l == doctest::Approx(100).epsilon(0.001));
  // Red and green: far apart for most readers and for tritanopes, close for deuteranopes; grey stays grey.
  const double normal = delta_e(0xFF0000FF, 0x00FF00FF, Vision::Normal);
  CHECK(delta_e(0xFF0000FF, 0x00FF00FF, Vision::Deuteranopia) < 0.2 * normal);
  CHECK(delta_e(0xFF0000FF, 0x00FF00FF, Vision::Tritanopia) > 0.8 * normal);
  for (Vision v : {Vision::Deuteranopia, Vision::Protanopia, Vision::Tritanopia}) CHECK(delta_e(0x808080FF, 0x808080FF, v) == 0);
  CHECK(delta_e(0x808080FF, 0x8080FFFF, Vision::Tritanopia) < 0.5 * delta_e(0x808080FF, 0x8080FFFF, Vision::Normal));
}

// 20 CIE76 units is about nine just-noticeable differences (2.3). A projector in a lit room roughly
// halves the contrast, and the marks are small (2 px arrows, a 3 px outline), so a pair must start at
// 20 to stay an obvious difference (about 10) on the wall.
TEST_CASE("colour vision: in every theme the marks a reader tells apart stay 20 CIE76 units apart, with normal vision, "
          "deuteranopia, protanopia and tritanopia") {
  constexpr double kMinDeltaE = 20;
  for (const char* theme : kThemes) {
    const Palette& p = palette_named(theme);
    const std::vector<std::pair<std::string, std::pair<std::uint32_t, std::uint32_t>>> pairs = {
        {"race cell vs written cell", {p.cell_hazard, p.cell_active}},
        {"race cell vs plain cell", {p.cell_hazard, p.cell}},
        {"written cell vs plain cell", {p.cell_active, p.cell}},
        {"race hatch vs race fill", {hatch_color(p), p.cell_hazard}},
        {"wrong outline vs plain cell", {p.wrong, p.cell}},
        {"wrong outline vs written cell", {p.wrong, p.cell_active}},
        {"wrong outline vs race cell", {p.wrong, p.cell_hazard}},
        {"wrong outline vs invalid interval", {p.wrong, p.cell_invalid}},
        {"invalid interval vs plain cell", {p.cell_invalid, p.cell}},
        {"invalid interval vs written cell", {p.cell_invalid, p.cell_active}},
        {"left arrow vs right arrow", {p.edge_left, p.edge_right}},
        {"left arrow vs copy arrow", {p.edge_left, p.edge_copy}},
        {"right arrow vs copy arrow", {p.edge_right, p.edge_copy}},
        {"left arrow vs background", {p.edge_left, p.background}},
        {"right arrow vs background", {p.edge_right, p.background}},
        {"copy arrow vs background", {p.edge_copy, p.background}},
        {"cell border vs background", {p.border, p.background}},
        {"cell border vs plain cell", {p.border, p.cell}},
    };
    for (Vision v : {Vision::Normal, Vision::Deuteranopia, Vision::Protanopia, Vision::Tritanopia})
      for (const auto& [what, colours] : pairs) {
        const std::string theme_name = theme, vision = sv_test::vision_name(v);
        CAPTURE(theme_name);
        CAPTURE(vision);
        CAPTURE(what);
        CHECK(delta_e(colours.first, colours.second, v) >= kMinDeltaE);
      }
  }
}

// Orange: a CIELAB hue angle between 45 and 90 degrees (from red-orange to amber; red is under 41) with a chroma over
// 30 (not a brownish grey).
bool orange(std::uint32_t rgba) {
  const sv_test::Lab c = sv_test::simulate_lab(rgba, Vision::Normal);
  const double hue = std::atan2(c.b, c.a) * 180 / 3.14159265358979, chroma = std::hypot(c.a, c.b);
  return hue >= 45 && hue <= 90 && chroma > 30;
}

TEST_CASE("colour vision: orange means one thing, the left operand (where it is orange): no cell fill and no other mark is orange") {
  for (const char* theme : kThemes) {
    const Palette& p = palette_named(theme);
    const std::string theme_name = theme;
    CAPTURE(theme_name);
    for (std::uint32_t c : {p.cell, p.cell_undefined, p.cell_active, p.cell_hazard, p.cell_invalid, p.wrong, p.edge_right, p.edge_copy})
      CHECK_FALSE(orange(c));
  }
}
