// The page's hidden DOM mirror of the window (app/web/mirror.js lays out its controls and routes the
// keys): the lesson's, the report card's and the class's HTML (mirror_html.hpp), the canvas's name,
// the live region's announcement and the controls' state go to the page when they changed; what
// the controls asked comes back once a frame.
#pragma once

#include <string>
#include <vector>

#include "gui/platform/mirror_shown.hpp"

namespace sv::web {

class PageMirror {
 public:
  void show(const gui::MirrorShown& m);
  // The controls' actions since the last call, oldest first (gui/platform/platform.hpp names them).
  std::vector<std::string> take_actions();

 private:
  std::string lesson_, card_, class_;  // the HTML the page holds: the DOM is touched only where it changed
};

}  // namespace sv::web
