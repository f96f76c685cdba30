// The browser's clipboard for the window's text boxes. A page cannot read the clipboard when it
// likes: the browser hands pasted text to a `paste` event (Ctrl+V, a menu's Paste), so the page
// listens for it and the window takes the text once a frame (gui::Platform::take_pasted_text).
// Copies and cuts go out through navigator.clipboard.
#pragma once

#include <string>

namespace sv::web {

// Listens for the page's paste events and makes Dear ImGui's copies the browser's; ImGui's own
// Ctrl+V then pastes nothing, the paste event bringing the text instead (it would paste twice).
void use_browser_clipboard();

// The text pasted since the last call ("" when none).
std::string take_browser_paste();

}  // namespace sv::web
