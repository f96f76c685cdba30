// Where the window runs, as an interface: the desktop (GLFW's own windows, files by path, a worker
// thread) fills it in here (gui/platform/desktop.hpp); the web page fills it in from app/web (the
// browser's fullscreen, the address bar, downloads, no threads). The window asks only this, so no
// part of app/gui knows which of the two it is drawn in.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gui/options.hpp"
#include "gui/platform/mirror_shown.hpp"

struct GLFWwindow;

namespace sv::gui {

// When a file was last written and how long it is: a change of either means it was saved again.
struct FileStamp {
  std::int64_t modified = 0;  // the file system's time, in its own units
  std::uintmax_t size = 0;
  bool operator==(const FileStamp&) const = default;
};

class Platform {
 public:
  virtual ~Platform() = default;

  // True when a window can be opened (natively: an X11 or Wayland display is set).
  virtual bool display_available() const = 0;
  // True when the lesson may record on a worker thread (WebAssembly without shared memory has none).
  virtual bool has_threads() const = 0;

  // Before the frame's events are polled: the page gives the window its size when it changed.
  virtual void begin_frame(GLFWwindow* window) = 0;
  // Keeps the window's fullscreen and the switch `on` in step, once a frame; turns the switch off
  // where the platform refused or left fullscreen.
  virtual void follow_fullscreen(GLFWwindow* window, bool& on) = 0;
  // After the frame was handed to the screen: the page puts the lesson `shown` names (when it names
  // one) in its address, and waits for the browser's next frame.
  virtual void end_frame(const std::function<std::optional<GuiOptions>()>& shown) = 0;

  // True where the reader's files are reached by path (the File menu's path box); the page has none:
  // files come in by dropping them and go out as downloads.
  virtual bool has_own_files() const = 0;
  // A file the window has written at `path` for the reader: returns what the status line says
  // ("wrote /abs/path", or "downloaded NAME" after the browser took it).
  virtual std::string hand_over(const std::string& path) = 0;
  // A dropped file was read: the page frees its in-memory copy.
  virtual void dropped_file_read(const std::string& path) = 0;
  // The stamp of a file the reader may save again in another program (a kernel the window follows);
  // nothing where it cannot be read, or where the platform has no such files (the page: its files
  // are copies dropped in).
  virtual std::optional<FileStamp> file_stamp(const std::string& path) const = 0;

  // The clipboard Dear ImGui's text boxes cut, copy and paste with, set up once ImGui is: the desktop's
  // is GLFW's, which ImGui's backend already uses; the page's is the browser's (app/web/clipboard.*).
  virtual void use_clipboard() = 0;
  // Text pasted since the last frame where a paste arrives as an event (the browser's, whatever key or
  // menu made it, "" when none); the desktop's text boxes read the clipboard on Ctrl+V themselves.
  virtual std::string take_pasted_text() = 0;

  // True where the window has an address to share (File > Copy link).
  virtual bool has_links() const = 0;
  // Copies the link to `shown` (or, without one, to what the address says now); returns "" when it
  // did, else the line that says why not (a kernel too long for a link).
  virtual std::string copy_link(const std::optional<GuiOptions>& shown) = 0;

  // True where the window is mirrored in text for assistive technology (the page's hidden DOM); the
  // desktop's window has no such mirror.
  virtual bool has_mirror() const { return false; }
  // What the window shows, handed over only when it changed.
  virtual void show_mirror(const MirrorShown&) {}
  // What the mirror's own controls asked since the last frame, oldest first: "first", "previous",
  // "next", "last", "play", "algorithm=NAME", "n=16".
  virtual std::vector<std::string> take_mirror_actions() { return {}; }
};

}  // namespace sv::gui
