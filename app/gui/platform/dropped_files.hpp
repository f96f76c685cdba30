// Files dropped on the window: a trace or a bench table dragged from a file manager natively, or
// from the desktop onto the web page, where Emscripten's GLFW first copies them into its in-memory
// files. GLFW calls on_drop outside the frame; the frame loop opens what take_dropped_files returns.
#pragma once

#include <string>
#include <vector>

struct GLFWwindow;

namespace sv::gui {

// GLFW's drop callback (glfwSetDropCallback): queues the paths in the order given.
void on_drop(GLFWwindow* window, int count, const char** paths);

// The paths dropped since the last call, oldest first.
std::vector<std::string> take_dropped_files();

}  // namespace sv::gui
