// The shaders are written in GLSL 3.30 core. WebGL 2 (the page) compiles GLSL ES 3.00: the same
// language but for the first line and the default precisions, which glsl_for_this_gl() puts in their
// place. Which one the current context takes is asked of the context itself, so the drawing code is
// the same wherever it runs.
#pragma once

#include <glad/gl.h>

#include <string>
#include <string_view>

namespace sv::gui {

// True when the current context is OpenGL ES (WebGL 2 reports "OpenGL ES 3.0 (WebGL 2.0 ...)").
inline bool gl_is_es() {
  const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return version && std::string_view(version).starts_with("OpenGL ES");
}

// The #version line of the current context's GLSL, as Dear ImGui's OpenGL backend takes it.
inline const char* glsl_version() { return gl_is_es() ? "#version 300 es" : "#version 330 core"; }

// A shader's text as the context compiles it (its first line is `#version 330 core`).
inline std::string glsl_for_this_gl(std::string_view source) {
  if (!gl_is_es()) return std::string(source);
  const std::size_t first_line = source.find('\n');
  std::string text = std::string(glsl_version()) + "\nprecision highp float;\nprecision highp int;\n";
  text += first_line == std::string_view::npos ? std::string_view() : source.substr(first_line + 1);
  return text;
}

}  // namespace sv::gui
