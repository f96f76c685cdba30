// The web page's stand-in for gui/render.cpp (offscreen rendering to PNG, SVG and GIF files through
// a second GLFW window and giflib): exporting from the page is not there yet, and the menu says so.
#include <stdexcept>

#include "gui/app.hpp"

namespace sv::gui {

void render_to_file(const Trace&, const std::string&, const RenderOptions&) {
  throw std::runtime_error("export is not in the web page: the scanviz program exports PNG, SVG and GIF");
}

}  // namespace sv::gui
