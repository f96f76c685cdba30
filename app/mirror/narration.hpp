// One sentence on what a step does: the window's narration panel, the exports' captions and the
// text mirror (`scanviz lesson`) say the same words.
#pragma once

#include <string>

#include "mirror/trace_view.hpp"

namespace sv {

std::string narrate_step(const TraceView& view, int step);

}  // namespace sv
