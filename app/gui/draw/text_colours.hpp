// The colours of text that judges: green for right, red for wrong or an error, the same in every
// panel (a verdict, a refusal, an answer), and blue for a note on what is shown. Each has a light
// and a dark form, picked by the theme's window background, so that it keeps 4.5:1 against it
// (WCAG 2.1's 1.4.3; tests/gui/test_contrast.py measures it from the window's pixels).
#pragma once

#include <imgui.h>

#include <cstdint>

namespace sv::gui {

// 0xRRGGBBAA, as the diagram's palette: the tests look for these pixels.
struct TextColours {
  std::uint32_t good, bad, note;
};
inline constexpr TextColours kTextOnLight{0x1A6B2BFF, 0xB41A1AFF, 0x0D59B3FF};
inline constexpr TextColours kTextOnDark{0x69DB7DFF, 0xFF8787FF, 0x73BFFFFF};

// Whether the current theme's windows are dark (the dark and high-contrast themes): their text is
// light. Not the window background's colour, which the tiled panels push transparent.
inline bool dark_windows() {
  const ImVec4 text = ImGui::GetStyle().Colors[ImGuiCol_Text];
  return 0.2126f * text.x + 0.7152f * text.y + 0.0722f * text.z > 0.5f;
}
inline ImVec4 text_colour(std::uint32_t rgba) {
  return ImVec4(static_cast<float>(rgba >> 24 & 0xFF) / 255, static_cast<float>(rgba >> 16 & 0xFF) / 255,
                static_cast<float>(rgba >> 8 & 0xFF) / 255, static_cast<float>(rgba & 0xFF) / 255);
}
inline const TextColours& text_colours() { return dark_windows() ? kTextOnDark : kTextOnLight; }
inline ImVec4 good_text() { return text_colour(text_colours().good); }
inline ImVec4 bad_text() { return text_colour(text_colours().bad); }
inline ImVec4 note_text() { return text_colour(text_colours().note); }

}  // namespace sv::gui
