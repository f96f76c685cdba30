// The shaders are written in GLSL 3.30 core. WebGL 2 compiles GLSL ES 3.00: the same language but
// for the first line and the default precisions, which glsl_for_this_gl() puts in their place.
#pragma once

#include <string>
#include <string_view>

namespace sv::gui {

#ifdef __EMSCRIPTEN__
inline constexpr char kGlslVersion[] = "#version 300 es";
#else
inline constexpr char kGlslVersion[] = "#version 330 core";
#endif

// A shader's text as the context compiles it (its first line is `#version 330 core`).
inline std::string glsl_for_this_gl(std::string_view source) {
#ifdef __EMSCRIPTEN__
  const std::size_t first_line = source.find('\n');
  std::string text = std::string(kGlslVersion) + "\nprecision highp float;\nprecision highp int;\n";
  text += first_line == std::string_view::npos ? std::string_view() : source.substr(first_line + 1);
  return text;
#else
  return std::string(source);
#endif
}

}  // namespace sv::gui
