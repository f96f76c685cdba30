// What the window refuses beside a kernel of your own (kernel_refusal.hpp).
#include "gui/kernel_refusal.hpp"

namespace sv::gui {

std::optional<KernelRefusal> window_kernel_refusal(const GuiOptions& opt) {
  const char* alone = "a kernel of your own runs alone, as itself";
  if (!opt.trace_path.empty()) return KernelRefusal{"trace", "", alone};
  if (!opt.lookback.empty()) return KernelRefusal{"lookback", "", alone};
  if (opt.side_by_side) return KernelRefusal{"side", "", alone};
  if (opt.lesson.type) return KernelRefusal{"type", "", "a kernel of your own scans the type its pointers point to"};
  std::optional<KernelRefusal> no = kernel_refusal(opt.lesson, default_lesson_request());
  if (no && (no->key == "flags" || no->key == "app" || no->key == "predicate")) no->key = "scan";  // the window's one field for them
  return no;
}

}  // namespace sv::gui
