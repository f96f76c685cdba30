// The two helpers every SVG writer here needs: a colour as #rrggbb and XML-escaped text.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace sv::svg {

inline std::string color(std::uint32_t rgba) {  // 0xRRGGBBAA -> "#rrggbb"
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%06x", rgba >> 8);
  return buf;
}

inline std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

}  // namespace sv::svg
