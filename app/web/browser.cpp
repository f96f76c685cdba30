// The browser side of app/web/browser.hpp, in JavaScript.
#include "web/browser.hpp"

#include <emscripten.h>

#include <cstdlib>

// Listed in the link's ASYNCIFY_IMPORTS (app/web/CMakeLists.txt): it suspends the wasm stack.
// It also counts the frames and notes when the first one was drawn, for tests and measurements.
EM_JS(void, scanviz_wait_animation_frame, (), {
  Module.frames = (Module.frames || 0) + 1;
  if (Module.frames == 1) Module.firstFrameMs = performance.now();
  Asyncify.handleSleep(function(wake) { requestAnimationFrame(function() { wake(); }); });
});
EM_JS(int, scanviz_page_width, (), { return window.innerWidth; });
EM_JS(int, scanviz_page_height, (), { return window.innerHeight; });
EM_JS(char*, scanviz_page_query, (), {
  var query = window.location.search;
  var bytes = lengthBytesUTF8(query) + 1;
  var text = _malloc(bytes);
  stringToUTF8(query, text, bytes);
  return text;
});

namespace sv::web {

void wait_for_next_frame() { scanviz_wait_animation_frame(); }
int page_width() { return scanviz_page_width(); }
int page_height() { return scanviz_page_height(); }
std::string page_query() {
  char* text = scanviz_page_query();
  std::string query(text);
  std::free(text);
  return query;
}

}  // namespace sv::web
