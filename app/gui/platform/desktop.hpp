// The desktop's Platform: GLFW's own windows and monitors, the reader's files by path, a worker
// thread for the lesson.
#pragma once

#include "gui/platform/platform.hpp"

namespace sv::gui {

class DesktopPlatform : public Platform {
 public:
  // The window's size when it leaves fullscreen before it was ever windowed.
  DesktopPlatform(int width, int height) : windowed_{100, 100, width, height} {}

  bool display_available() const override;
  bool has_threads() const override { return true; }
  void begin_frame(GLFWwindow*) override {}
  // Fullscreen on the primary monitor at its mode; back to the window's last place and size.
  void follow_fullscreen(GLFWwindow* window, bool& on) override;
  void end_frame(const std::function<std::optional<GuiOptions>()>&) override {}
  bool has_own_files() const override { return true; }
  std::string hand_over(const std::string& path) override;
  void dropped_file_read(const std::string&) override {}
  std::optional<FileStamp> file_stamp(const std::string& path) const override;
  void use_clipboard() override {}  // Dear ImGui's GLFW backend reads and writes GLFW's clipboard
  std::string take_pasted_text() override { return {}; }
  bool has_links() const override { return false; }
  std::string copy_link(const std::optional<GuiOptions>&) override { return {}; }

 private:
  int windowed_[4];  // x, y, width, height
};

}  // namespace sv::gui
