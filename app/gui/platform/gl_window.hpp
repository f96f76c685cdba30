// An OpenGL 3.3 core context in a GLFW window, its GL functions loaded: the window's, or a hidden one
// the offscreen pictures draw with. In the page, Emscripten's GLFW makes it a WebGL 2 canvas.
#pragma once

#include <string>

struct GLFWwindow;

namespace sv::gui {

// True when an X11 or Wayland display is set (the desktop's display check).
bool display_set();

// What stopped open_gl_window; each caller says it in its own words.
enum class GlWindowError { None, Init, Create, Load };

// Initializes GLFW (errors go to standard error, one line each) and opens a window of that size
// with a current OpenGL 3.3 core context; nullptr and `error` set when it cannot (GLFW is then
// terminated).
GLFWwindow* open_gl_window(int width, int height, const char* title, bool visible, GlWindowError& error);

// Destroys the window and terminates GLFW.
void close_gl_window(GLFWwindow* window);

}  // namespace sv::gui
