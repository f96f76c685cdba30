// The colours of text that judges: green for right, red for wrong or an error, the same in every
// panel (a verdict, a refusal, an answer), and blue for a note on what is shown. Each has a light
// and a dark form, picked by the theme's window background, so that it keeps 4.5:1 against it
// (WCAG 2.1's 1.4.3; tests/gui/test_contrast.py measures it from the window's pixels).
#pragma once

#include <imgui.h>

namespace sv::gui {

// Whether the current theme's windows are dark (the dark and high-contrast themes): their text is
// light. Not the window background's colour, which the tiled panels push transparent.
inline bool dark_windows() {
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
  return 0.2126f * text.x + 0.7152f * text.y + 0.0722f * text.z > 0.5f;
}
inline ImVec4 good_text() { return dark_windows() ? ImVec4(0.41f, 0.86f, 0.49f, 1) : ImVec4(0.10f, 0.42f, 0.17f, 1); }
inline ImVec4 bad_text() { return dark_windows() ? ImVec4(1.0f, 0.53f, 0.53f, 1) : ImVec4(0.75f, 0.11f, 0.11f, 1); }
inline ImVec4 note_text() { return dark_windows() ? ImVec4(0.45f, 0.75f, 1.0f, 1) : ImVec4(0.05f, 0.35f, 0.70f, 1); }

}  // namespace sv::gui
