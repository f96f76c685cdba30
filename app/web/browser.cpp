// The browser side of app/web/browser.hpp, in JavaScript.
#include "web/browser.hpp"

#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <cstdlib>

// Listed in the link's ASYNCIFY_IMPORTS (app/web/CMakeLists.txt): it suspends the wasm stack.
// It also counts the frames, notes when the first one was drawn and keeps the last 240 frames' work
// (from the animation frame's start to this wait, in ms), for tests and measurements.
EM_JS(void, scanviz_wait_animation_frame, (), {
  var now = performance.now();
  Module.frames = (Module.frames || 0) + 1;
  if (Module.frames == 1) Module.firstFrameMs = now;
  if (Module.frameStartMs !== undefined) {
    Module.frameWorkMs = (Module.frameWorkMs || []).concat([now - Module.frameStartMs]).slice(-240);
  }
  Asyncify.handleSleep(function(wake) {
    requestAnimationFrame(function() { Module.frameStartMs = performance.now(); wake(); });
  });
});
// The canvas and Emscripten's GLFW window take the size. Not glfwSetWindowSize: given the screen's
// size, as a browser in fullscreen has, it asks for fullscreen instead of resizing.
EM_JS(void, scanviz_set_window_size, (int width, int height), {
  Browser.setCanvasSize(width, height);
  GLFW.active.width = width;
  GLFW.active.height = height;
});
EM_JS(void, scanviz_set_fullscreen, (int on), {
  var page = document.documentElement;
  if (on && !document.fullscreenElement) {
    if (page.requestFullscreen) page.requestFullscreen().catch(function() { Module.fullscreenRefused = true; });
    else Module.fullscreenRefused = true;
  }
  if (!on && document.fullscreenElement) document.exitFullscreen().catch(function() {});
});
EM_JS(int, scanviz_is_fullscreen, (), { return document.fullscreenElement ? 1 : 0; });
EM_JS(int, scanviz_take_fullscreen_refused, (), {
  var refused = Module.fullscreenRefused ? 1 : 0;
  Module.fullscreenRefused = false;
  return refused;
});
EM_JS(int, scanviz_page_width, (), { return window.innerWidth; });
// A bad link's line (index.html's #status, shown in the page's flow) takes the top of the page; the
// window the rest.
EM_JS(int, scanviz_page_height, (), {
  var line = document.getElementById('status');
  return window.innerHeight - (line && line.classList.contains('said') ? line.offsetHeight : 0);
});
EM_JS(int, scanviz_prefers_reduced_motion, (), {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 1 : 0;
});
// The address's query (fragment 0) or fragment (1), in memory the caller frees.
EM_JS(char*, scanviz_page_address_part, (int fragment), {
  var part = fragment ? window.location.hash : window.location.search;
  var bytes = lengthBytesUTF8(part) + 1;
  var text = _malloc(bytes);
  stringToUTF8(part, text, bytes);
  return text;
});
EM_JS(void, scanviz_set_page_query, (const char* query), {
  var tail = UTF8ToString(query);
  if (window.location.search + window.location.hash != tail) history.replaceState(null, '', window.location.pathname + tail);
});
EM_JS(void, scanviz_copy_page_link, (const char* query), {
  var link = window.location.origin + window.location.pathname + UTF8ToString(query);
  Module.copiedLink = link;
  var show = function() { showLink(link); };  // index.html
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(link).catch(show);
  else show();
});

namespace sv::web {

void wait_for_next_frame() { scanviz_wait_animation_frame(); }
int page_width() { return scanviz_page_width(); }
int page_height() { return scanviz_page_height(); }
bool prefers_reduced_motion() { return scanviz_prefers_reduced_motion() != 0; }
void follow_page_size(GLFWwindow* window) {
  int w = 0, h = 0;
  glfwGetWindowSize(window, &w, &h);
  const int page_w = page_width(), page_h = page_height();
  if (page_w > 0 && page_h > 0 && (page_w != w || page_h != h)) scanviz_set_window_size(page_w, page_h);
}
void FullscreenSync::follow(bool& on) {
  const bool shown = scanviz_is_fullscreen() != 0;
  if (scanviz_take_fullscreen_refused() || (seen_ && !shown)) on = asked_ = seen_ = false;
  seen_ |= shown;
  if (on != asked_) {
    scanviz_set_fullscreen(on ? 1 : 0);
    asked_ = on;
    seen_ = false;
  }
}
namespace {

std::string address_part(bool fragment) {
  char* text = scanviz_page_address_part(fragment ? 1 : 0);
  std::string out(text);
  std::free(text);
  return out;
}

}  // namespace

std::string page_query() { return address_part(false); }
std::string page_fragment() { return address_part(true); }

void set_page_query(const std::string& query) {
  static std::string shown = "\n";  // no address has this: the first call always sets it
  if (query == shown) return;  // browsers limit how often replaceState may be called
  scanviz_set_page_query(query.c_str());
  shown = query;
}
void copy_page_link(const std::string& query) { scanviz_copy_page_link(query.c_str()); }

}  // namespace sv::web
