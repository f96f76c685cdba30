// A kernel in the page's address (app/web/kernel_address.hpp).
#include "web/kernel_address.hpp"

#include <stdexcept>

#include "gui/kernel_refusal.hpp"

namespace sv::web {

std::string apply_fragment(std::string_view fragment, gui::GuiOptions& o) {
  LinkedKernel k;
  try {
    k = kernel_from_fragment(fragment);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  if (k.text.empty() && k.name.empty()) return {};
  if (const auto no = gui::window_kernel_refusal(o))  // as `scanviz gui --kernel` refuses them
    return "link: " + no->key + "=" + no->value + " with a kernel after '#': " + no->why;
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
