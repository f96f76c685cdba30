// What the window's frame loop asks of the browser in the WebAssembly build.
#pragma once

#include <string>

namespace sv::web {

// Gives the browser its turn (it shows the canvas and delivers input) and returns at its next
// animation frame. The loop stays the native one: Asyncify unwinds and rewinds it around the wait.
void wait_for_next_frame();

// The page's size in CSS pixels, which the window takes at start.
int page_width();
int page_height();

// The page address's query string, from its '?' ("" without one).
std::string page_query();

}  // namespace sv::web
