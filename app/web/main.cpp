// The web page's program: the window, as large as the page, on the lesson the link names (the
// page's query string, app/web/url_options.hpp) or the default one.
#include <exception>
#include <iostream>

#include "gui/app.hpp"
#include "web/browser.hpp"
#include "web/url_options.hpp"

int main() {
  sv::gui::GuiOptions options;
  options.width = sv::web::page_width();
  options.height = sv::web::page_height();
  if (const std::string bad = sv::web::apply_query(sv::web::page_query(), options); !bad.empty()) {
    std::cerr << "scanviz: " << bad << "\n";  // the page shows this line (index.html)
    return 2;
  }
  try {
    return sv::gui::run_gui(options);
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 1;
  }
}
