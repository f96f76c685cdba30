// The web page's program: the window, as large as the page, on the lesson or trace the link names
// (the page's query string, app/web/url_options.hpp) or the default lesson.
#include <exception>
#include <iostream>
#include <utility>

#include "gui/app.hpp"
#include "web/browser.hpp"
#include "web/fetch.hpp"
#include "web/url_options.hpp"

int main() {
  sv::gui::GuiOptions options;
  options.width = sv::web::page_width();
  options.height = sv::web::page_height();
  if (const std::string bad = sv::web::apply_query(sv::web::page_query(), options); !bad.empty()) {
    std::cerr << "scanviz: " << bad << "\n";  // the page shows this line (index.html)
    return 2;
  }
  // A trace recorded elsewhere (a GPU's, say) and a bench table, fetched before the window opens.
  for (auto [url, file] : {std::pair{&options.trace_path, "/links/trace.json"}, std::pair{&options.bench_json, "/links/bench.json"}}) {
    if (url->empty()) continue;
    if (const std::string bad = sv::web::fetch_to_file(*url, file); !bad.empty()) {
      std::cerr << "scanviz: link: " << bad << "\n";
      return 2;
    }
    *url = file;
  }
  try {
    return sv::gui::run_gui(options);
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 1;
  }
}
