// The page's address and a kernel of the reader's own: a link's fragment opens the kernel (with the
// query's n, schedule and step), and the address the window keeps up to date carries the kernel it
// shows, compressed again only when the kernel changed (web/kernel_link.hpp).
#pragma once

#include <string>
#include <string_view>

#include "gui/options.hpp"
#include "web/kernel_link.hpp"

namespace sv::web {

// Sets the kernel the fragment carries (its name and text) in `options`; returns the line naming
// what it cannot use (a damaged kernel, an unknown key, a query key that names another lesson), or
// an empty string.
std::string apply_fragment(std::string_view fragment, gui::GuiOptions& options);

// The link's tail for what the window shows: the query, then the kernel's fragment.
class KernelAddress {
 public:
  // `query` is link_query's for `shown`; a kernel too long for a link leaves the fragment out.
  std::string tail(const std::string& query, const gui::GuiOptions& shown);
  // Why the last kernel asked for is not in the link ("" when it is, or none was asked for).
  const std::string& refused() const { return link_.refused; }

 private:
  std::string name_, text_;  // the kernel link_ carries
  KernelFragment link_;
};

}  // namespace sv::web
