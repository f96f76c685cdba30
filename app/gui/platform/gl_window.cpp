// GLFW's window and context set-up, the same for the window and the offscreen pictures.
#include "gui/platform/gl_window.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on

#include <cstdlib>
#include <iostream>

namespace sv::gui {

namespace {
void glfw_error(int code, const char* what) { std::cerr << "scanviz: GLFW error " << code << ": " << what << "\n"; }
}  // namespace

bool display_set() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 && *x11) || (wayland && *wayland);
}

GLFWwindow* open_gl_window(int width, int height, const char* title, bool visible, GlWindowError& error) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    error = GlWindowError::Init;
    return nullptr;
  }
  if (!visible) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    error = GlWindowError::Create;
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  if (!gladLoadGL(glfwGetProcAddress)) {
    close_gl_window(window);
    error = GlWindowError::Load;
    return nullptr;
  }
  error = GlWindowError::None;
  return window;
}

void close_gl_window(GLFWwindow* window) {
  glfwDestroyWindow(window);
  glfwTerminate();
}

}  // namespace sv::gui
