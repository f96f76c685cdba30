// The browser side of the page's mirror (page_mirror.hpp): calls into app/web/mirror.js.
#include "web/page_mirror.hpp"

#include <emscripten.h>

#include <algorithm>
#include <cstdlib>

#include "web/lookback_html.hpp"
#include "web/mirror_html.hpp"

// Each text argument is null where it did not change. `algorithms` is one name a line.
EM_JS(void, scanviz_mirror_update,
      (const char* lesson, const char* card, const char* cls, const char* label, const char* announcement, const char* algorithms,
       const char* algorithm, double n, double max_n, int step, int steps, int playing, int wants_tab),
      {
        var text = function(p) { return p ? UTF8ToString(p) : null; };
        if (window.scanvizMirror)
          scanvizMirror.update({lesson: text(lesson), card: text(card), cls: text(cls), label: text(label), announcement: text(announcement),
                                algorithms: text(algorithms), algorithm: text(algorithm), n: n, maxN: max_n, step: step,
                                steps: steps, playing: !!playing, wantsTab: !!wants_tab});
      });
// The actions asked since the last call, one a line, in memory the caller frees.
EM_JS(char*, scanviz_mirror_take_actions, (), {
  var said = window.scanvizMirror ? scanvizMirror.take() : "";
  var bytes = lengthBytesUTF8(said) + 1;
  var out = _malloc(bytes);
  stringToUTF8(said, out, bytes);
  return out;
});

namespace sv::web {

void PageMirror::show(const gui::MirrorShown& m) {
  // The look-back view in front: its tiles first, the lesson behind it after them.
  std::string lesson = m.lookback ? lookback_html(*m.lookback) + lesson_html(m) : lesson_html(m);
  std::string card = m.own_kernel ? card_html(m.card, m.card_state) : std::string();
  std::string class_list = m.class_list ? class_html(*m.class_list) : std::string();
  const bool new_lesson = lesson != lesson_, new_card = card != card_, new_class = class_list != class_;
  lesson_ = std::move(lesson);
  card_ = std::move(card);
  class_ = std::move(class_list);
  std::string algorithms;
  for (const std::string& a : m.controls.algorithms) algorithms += a + "\n";
  const auto or_null = [](bool changed, const std::string& s) { return changed ? s.c_str() : nullptr; };
  scanviz_mirror_update(or_null(new_lesson, lesson_), or_null(new_card, card_), or_null(new_class, class_), m.canvas_label.c_str(),
                        or_null(!m.announcement.empty(), m.announcement), algorithms.c_str(), m.controls.algorithm.c_str(),
                        static_cast<double>(m.controls.n), static_cast<double>(m.controls.max_n), m.controls.step, m.controls.steps,
                        m.controls.playing ? 1 : 0, m.controls.window_wants_tab ? 1 : 0);
}

std::vector<std::string> PageMirror::take_actions() {
  char* said = scanviz_mirror_take_actions();
  const std::string text(said);
  std::free(said);
  std::vector<std::string> actions;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (end > at) actions.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return actions;
}

}  // namespace sv::web
