// What the window's frame loop asks of the browser in the WebAssembly build.
#pragma once

#include <string>

struct GLFWwindow;

namespace sv::web {

// Gives the browser its turn (it shows the canvas and delivers input) and returns at its next
// animation frame. The loop stays the native one: Asyncify unwinds and rewinds it around the wait.
void wait_for_next_frame();

// The page's size in CSS pixels, which the window takes at start.
int page_width();
int page_height();
// Whether the reader's browser asks for less motion (the CSS media feature prefers-reduced-motion).
bool prefers_reduced_motion();

// Gives the window the page's size when the browser window was resized (or a phone turned) since
// the last frame, so the window always fills the page.
void follow_page_size(GLFWwindow* window);

// Keeps the window's fullscreen switch and the browser's fullscreen in step, once a frame: asks the
// browser when the switch changes, and turns the switch off when the browser refuses (it grants
// fullscreen only shortly after a key press or a click, so a link opening in lecture mode stays at
// the page's size) or leaves fullscreen (Escape), so the next F asks again.
class FullscreenSync {
 public:
  void follow(bool& on);

 private:
  bool asked_ = false;  // what the window last asked for
  bool seen_ = false;   // the browser has shown it since
};

// The page address's query string, from its '?' ("" without one).
std::string page_query();

// The page address's fragment, from its '#' ("" without one): a kernel of the reader's own
// (web/kernel_link.hpp).
std::string page_fragment();

// Puts `query` (with the fragment after it, where the link carries a kernel) in the address bar
// (history.replaceState, no reload) when it differs from what is there, so the address always opens
// where the window is.
void set_page_query(const std::string& query);

// Copies the page's address with `query` (and fragment) to the clipboard; where the browser refuses,
// shows it in the page's link box, selected, for the reader to copy.
void copy_page_link(const std::string& query);

}  // namespace sv::web
