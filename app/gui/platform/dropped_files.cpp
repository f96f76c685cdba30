#include "gui/platform/dropped_files.hpp"

#include <utility>

namespace sv::gui {

namespace {
// One window, one thread: GLFW delivers drops from glfwPollEvents, on the frame loop's thread.
std::vector<std::string>& queue() {
  static std::vector<std::string> paths;
  return paths;
}
}  // namespace

void on_drop(GLFWwindow*, int count, const char** paths) {
  for (int i = 0; i < count; ++i) queue().emplace_back(paths[i]);
}

std::vector<std::string> take_dropped_files() { return std::exchange(queue(), {}); }

}  // namespace sv::gui
