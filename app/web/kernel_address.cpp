// A kernel in the page's address (app/web/kernel_address.hpp).
#include "web/kernel_address.hpp"

#include <stdexcept>

namespace sv::web {

std::string apply_fragment(std::string_view fragment, gui::GuiOptions& o) {
  LinkedKernel k;
  try {
    k = kernel_from_fragment(fragment);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (k.text.empty() && k.name.empty()) return {};
  // As `scanviz gui --kernel` refuses them: a kernel of the reader's own runs alone, as itself.
  // The lesson's fields that name a built-in lesson, against the default lesson a link starts from.
  const RunRequest d = gui::default_lesson_request();
  const RunRequest& r = o.lesson;
  const std::pair<const char*, bool> others[] = {{"algo", r.algorithm != d.algorithm}, {"trace", !o.trace_path.empty()},
                                                 {"lookback", !o.lookback.empty()}, {"scan", r.flags != d.flags || r.app != d.app},
                                                 {"type", r.type.has_value()}, {"side", o.side_by_side}};
  for (const auto& [key, set] : others)
    if (set) return std::string("link: ") + key + "= with a kernel after '#': a kernel of your own runs alone, as itself";
  o.kernel_name = k.name;
  o.kernel_text = std::move(k.text);
  return {};
}

std::string KernelAddress::tail(const std::string& query, const gui::GuiOptions& shown) {
  if (shown.kernel_text.empty()) {
    link_ = {};
    return query;
  }
  if (shown.kernel_text != text_ || shown.kernel_name != name_ || (link_.fragment.empty() && link_.refused.empty())) {
    name_ = shown.kernel_name;
    text_ = shown.kernel_text;
    link_ = kernel_fragment(name_, text_);
  }
  return query + link_.fragment;
}

}  // namespace sv::web
