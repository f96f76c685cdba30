// The applications window: a stream compaction's or an allocation's rows as a student reads them
// (input, predicate, the exclusive scan the kernel produced, the scattered output), with an arrow
// from each kept element (or request) to its place in the output.
#pragma once

#include <string>

#include "trace/trace.hpp"

namespace sv::gui {

inline constexpr const char* kApplicationWindowTitle = "Application of the scan";

// Draws the window while *open and the trace has an application (trace may be null).
void application_window(bool* open, const Trace* trace, const std::string& theme);

}  // namespace sv::gui
