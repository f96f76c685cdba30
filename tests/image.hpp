// A PNG's pixels for the GUI tests: what a rendered frame shows, read back as 0xRRGGBBAA.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <stb_image.h>

namespace sv_test {

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
  std::uint32_t at(int x, int y) const {
    const unsigned char* p = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | 0xFF;
  }
};

inline Image load_png(const std::filesystem::path& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 4);
  REQUIRE(data != nullptr);
  img.rgba.assign(data, data + static_cast<std::size_t>(img.w) * img.h * 4);
  stbi_image_free(data);
  return img;
}

// Each of red, green and blue within `tolerance` of the other colour's.
inline bool near(std::uint32_t a, std::uint32_t b, int tolerance = 6) {
  for (int shift = 8; shift < 32; shift += 8) {
    const int da = static_cast<int>((a >> shift) & 0xFF) - static_cast<int>((b >> shift) & 0xFF);
    if (std::abs(da) > tolerance) return false;
  }
  return true;
}

}  // namespace sv_test
