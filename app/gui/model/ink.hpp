// The colour of text over a fill: black or white, whichever contrasts more with it by WCAG's relative
// luminance (black from 0.179, where the two ratios meet), so that a label keeps 4.5:1 on any fill a
// theme gives it.
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>

namespace sv::gui {

// The relative luminance of 0xRRGGBBAA drawn over `below` (opaque), as WCAG 2.1 defines it.
inline float relative_luminance(std::uint32_t rgba, std::uint32_t below = 0xFFFFFFFF) {
  const float alpha = static_cast<float>(rgba & 0xFF) / 255;
  float l = 0;
  for (const auto [shift, weight] : {std::pair{24, 0.2126f}, std::pair{16, 0.7152f}, std::pair{8, 0.0722f}}) {
    const float c = (static_cast<float>((rgba >> shift) & 0xFF) * alpha + static_cast<float>((below >> shift) & 0xFF) * (1 - alpha)) / 255;
    l += weight * (c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f));
  }
  return l;
}

inline std::uint32_t ink_on(std::uint32_t fill, std::uint32_t below = 0xFFFFFFFF) {
  return relative_luminance(fill, below) > 0.179f ? 0x000000FFu : 0xFFFFFFFFu;
}

}  // namespace sv::gui
