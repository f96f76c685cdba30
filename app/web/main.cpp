// The web page's program: the window, as large as the page, on the default lesson.
#include <exception>
#include <iostream>

#include "gui/app.hpp"
#include "web/browser.hpp"

int main() {
  sv::gui::GuiOptions options;
  options.width = sv::web::page_width();
  options.height = sv::web::page_height();
  try {
    return sv::gui::run_gui(options);
  } catch (const std::exception& e) {  // the page shows this line (index.html)
    std::cerr << "scanviz: " << e.what() << "\n";
    return 1;
  }
}
