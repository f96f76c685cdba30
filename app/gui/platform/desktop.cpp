// The desktop's Platform, on GLFW.
#include "gui/platform/desktop.hpp"

#include <GLFW/glfw3.h>

#include <filesystem>

#include "gui/platform/gl_window.hpp"

namespace sv::gui {

bool DesktopPlatform::display_available() const { return display_set(); }

void DesktopPlatform::follow_fullscreen(GLFWwindow* window, bool& on) {
  GLFWmonitor* monitor = glfwGetWindowMonitor(window);
  if (on && !monitor) {
    glfwGetWindowPos(window, &windowed_[0], &windowed_[1]);
    glfwGetWindowSize(window, &windowed_[2], &windowed_[3]);
    if (GLFWmonitor* primary = glfwGetPrimaryMonitor()) {
      const GLFWvidmode* mode = glfwGetVideoMode(primary);
      glfwSetWindowMonitor(window, primary, 0, 0, mode->width, mode->height, mode->refreshRate);
    }
  } else if (!on && monitor) {
    glfwSetWindowMonitor(window, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
  }
}

std::optional<FileStamp> DesktopPlatform::file_stamp(const std::string& path) const {
  std::error_code e1, e2;
  const auto modified = std::filesystem::last_write_time(path, e1);
  const std::uintmax_t size = std::filesystem::file_size(path, e2);
  if (e1 || e2) return std::nullopt;
  return FileStamp{static_cast<std::int64_t>(modified.time_since_epoch().count()), size};
}

std::string DesktopPlatform::hand_over(const std::string& path) { return "wrote " + std::filesystem::absolute(path).string(); }

}  // namespace sv::gui
