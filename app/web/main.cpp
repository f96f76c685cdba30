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

int main() {
  sv::gui::GuiOptions options;
  options.width = sv::web::page_width();
  options.height = sv::web::page_height();
  if (const std::string bad = sv::web::apply_query(sv::web::page_query(), options); !bad.empty()) {
    std::cerr << "scanviz: " << bad << "\n";  // the page shows this line (index.html)
    return 2;
  }
  if (const std::string bad = sv::web::apply_fragment(sv::web::page_fragment(), options); !bad.empty()) {
    std::cerr << "scanviz: " << bad << "\n";
    return 2;
  }
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
    if (const std::string bad = sv::web::fetch_to_file(*url, file); !bad.empty()) {
      std::cerr << "scanviz: link: " << bad << "\n";
      return 2;
    }
    *url = file;
  }
  try {
    sv::web::PagePlatform page;
    return sv::gui::run_gui(options, page);
  } catch (const sv::RequestError& e) {  // a lesson the link names that cannot run, its fields named as the link names them
    std::cerr << "scanviz: link: " << sv::request_error_text(e, "") << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 1;
  }
}
