// The web page's program: the window, as large as the page, on the lesson or trace the link names
// (the page's query string, app/web/url_options.hpp), the kernel it carries (its fragment,
// app/web/kernel_address.hpp) or the default lesson.
#include <exception>
#include <iostream>
#include <utility>

#include "gui/app.hpp"
#include "run/request.hpp"
#include "web/browser.hpp"
#include "web/fetch.hpp"
#include "web/kernel_address.hpp"
#include "web/page_platform.hpp"
#include "web/url_options.hpp"

namespace {

// The link's lesson, trace or kernel in the window's options; a link the window cannot use returns
// its one line.
std::string linked_options(sv::gui::GuiOptions& options) {
  if (std::string bad = sv::web::apply_query(sv::web::page_query(), options); !bad.empty()) return bad;
  if (std::string bad = sv::web::apply_fragment(sv::web::page_fragment(), options); !bad.empty()) return bad;
  // A trace recorded elsewhere (a GPU's, say) and a bench table, fetched before the window opens,
  // into files named as the links name them: the window's path boxes and look-back preset show the
  // names ("bench-h200.json"), as natively.
  options.bench_link = options.bench_json;
  for (auto [url, fallback] : {std::pair{&options.trace_path, "trace.json"}, std::pair{&options.bench_json, "bench.json"}}) {
    if (url->empty()) continue;
    std::string file = url->substr(0, url->find_first_of("?#"));
    file = file.substr(file.find_last_of('/') + 1);
    if (file.empty() || file == "." || file == "..") file = fallback;
    if (url == &options.bench_json && file == options.trace_path) file = std::string("bench-") + file;
    if (std::string bad = sv::web::fetch_to_file(*url, file); !bad.empty()) return "link: " + bad;
    *url = file;
  }
  return {};
}

// The window on `options`; a lesson the link names that cannot run is its one line.
int window(const sv::gui::GuiOptions& options, sv::web::PagePlatform& page) {
  try {
    return sv::gui::run_gui(options, page);
  } catch (const sv::RequestError& e) {  // named as the link names its fields
    std::cerr << "scanviz: link: " << sv::request_error_text(e, "") << "\n";
    return 2;
  }
}

}  // namespace

int main() {
  try {
    sv::web::PagePlatform page;
    // The page's size and what the reader's browser prefers (less motion), link or not.
    const sv::gui::GuiOptions plain{.width = sv::web::page_width(), .height = sv::web::page_height(),
                                    .reduce_motion = sv::web::prefers_reduced_motion()};
    sv::gui::GuiOptions options = plain;
    // A bad link's line shows over the window (index.html), which opens on the default lesson
    // under it rather than leaving a page with only the line on it.
    if (const std::string bad = linked_options(options); !bad.empty()) {
      std::cerr << "scanviz: " << bad << "\n";
      options = plain;
    }
    const int code = window(options, page);
    if (code == 2 && !page.drew_a_frame()) return window(plain, page);  // refused before it opened: said already
    return code;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 1;
  }
}
