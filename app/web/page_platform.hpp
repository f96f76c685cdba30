// The web page's Platform (gui/platform/platform.hpp): the browser's fullscreen and size, the
// address bar that follows the window, downloads for what the window writes, no threads, and the
// hidden DOM that mirrors the lesson.
#pragma once

#include "gui/platform/platform.hpp"
#include "web/browser.hpp"
#include "web/clipboard.hpp"
#include "web/kernel_address.hpp"
#include "web/page_mirror.hpp"

namespace sv::web {

class PagePlatform : public gui::Platform {
 public:
  bool display_available() const override { return true; }  // the page's canvas
  bool has_threads() const override { return false; }
  // The window takes the page's size when the browser window was resized.
  void begin_frame(GLFWwindow* window) override {
    follow_page_size(window);
    drew_a_frame_ = true;
  }
  // Whether a window has begun a frame: a lesson refused before that opened no window.
  bool drew_a_frame() const { return drew_a_frame_; }
  // The page's fullscreen is the browser's (Emscripten's GLFW has no monitors); the window then
  // follows the page's size.
  void follow_fullscreen(GLFWwindow*, bool& on) override { fullscreen_.follow(on); }
  // The address opens the lesson shown; then the browser's turn until its next animation frame.
  void end_frame(const std::function<std::optional<gui::GuiOptions>()>& shown) override;
  bool has_own_files() const override { return false; }
  std::string hand_over(const std::string& path) override;
  void dropped_file_read(const std::string& path) override;
  // The page's files are copies dropped in: none is saved again elsewhere.
  std::optional<gui::FileStamp> file_stamp(const std::string&) const override { return std::nullopt; }
  // Copies go to the browser's clipboard; pastes come as the browser's paste events.
  void use_clipboard() override { use_browser_clipboard(); }
  std::string take_pasted_text() override { return take_browser_paste(); }
  bool has_links() const override { return true; }
  std::string copy_link(const std::optional<gui::GuiOptions>& shown) override;
  // The page's hidden DOM mirror of the lesson, for screen readers and the keyboard.
  bool has_mirror() const override { return true; }
  void show_mirror(const gui::MirrorShown& m) override { mirror_.show(m); }
  std::vector<std::string> take_mirror_actions() override { return mirror_.take_actions(); }

 private:
  FullscreenSync fullscreen_;
  KernelAddress address_;  // the kernel shown, in the address's fragment
  PageMirror mirror_;
  bool drew_a_frame_ = false;
};

}  // namespace sv::web
