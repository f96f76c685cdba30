// What the window refuses beside a kernel of your own, for `scanviz gui --kernel` and the page's
// kernel links alike (no ImGui here: the command line asks it before any window opens).
#pragma once

#include <optional>

#include "gui/options.hpp"
#include "kernel_run.hpp"

namespace sv::gui {

// The first option of `opt` a kernel of your own cannot run with, named as a link's key ("algo",
// "scan", "side"), or none: the views of a built-in lesson (a trace file, the look-back view, the
// side-by-side kernel, a value type) and what kernel_refusal (entry/own_run.hpp) refuses of the lesson,
// against the default lesson. Each view says it in its own words.
std::optional<KernelRefusal> window_kernel_refusal(const GuiOptions& opt);

}  // namespace sv::gui
