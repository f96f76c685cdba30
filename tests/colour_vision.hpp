// Colour-vision deficiency simulation for palette tests: Machado, Oliveira and Fernandes (2009),
// "A Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0 (dichromacy),
// applied in linear sRGB; distances are CIE76 Delta E in CIELAB (D65).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace sv_test {

enum class Vision { Normal, Deuteranopia, Protanopia, Tritanopia };

inline const char* vision_name(Vision v) {
  switch (v) {
    case Vision::Normal: return "normal vision";
    case Vision::Deuteranopia: return "deuteranopia";
    case Vision::Protanopia: return "protanopia";
    case Vision::Tritanopia: return "tritanopia";
  }
  return "";
}

struct Lab {
  double l = 0, a = 0, b = 0;
};

// 0xRRGGBBAA as seen with `v`, in CIELAB.
inline Lab simulate_lab(std::uint32_t rgba, Vision v) {
  using M = std::array<std::array<double, 3>, 3>;
  static const M normal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  static const M deut{{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
  static const M prot{{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};
  static const M trit{{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}};
  const M& m = v == Vision::Deuteranopia ? deut : v == Vision::Protanopia ? prot : v == Vision::Tritanopia ? trit : normal;
  double rgb[3];
  for (int i = 0; i < 3; ++i) {
    const double c = static_cast<double>((rgba >> (24 - 8 * i)) & 0xFF) / 255.0;
    rgb[i] = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  }
  double s[3];
  for (int i = 0; i < 3; ++i) s[i] = std::clamp(m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2], 0.0, 1.0);
  const double x = (0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2]) / 0.95047;
  const double y = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  const double z = (0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2]) / 1.08883;
  const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

// CIE76: the Euclidean distance in CIELAB; 2.3 is about the smallest difference one sees side by side.
inline double delta_e(std::uint32_t a, std::uint32_t b, Vision v) {
  const Lab p = simulate_lab(a, v), q = simulate_lab(b, v);
  return std::sqrt((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b));
}

}  // namespace sv_test
