// A key press by its GLFW key code, for every Dear ImGui the distributions ship: 1.86 (Debian 12)
// takes the backend's native key codes as int; 1.87 and later (1.90 on Ubuntu 24.04) take an
// ImGuiKey and map a native code to their own through the key map their GLFW backend fills.
#pragma once

#include <imgui.h>

namespace sv::gui {

// Once a press: what toggles, answers or picks. A key held past Dear ImGui's repeat delay (0.275 s)
// would otherwise act again every 0.05 s, which a slow frame or a firm press turns into a double
// toggle or a second answer.
inline bool key_pressed(int glfw_key) { return ImGui::IsKeyPressed(static_cast<ImGuiKey>(glfw_key), false); }
// Again while held, after the delay: keys that step (the arrows, zoom, pages), as a text field's do.
inline bool key_repeats(int glfw_key) { return ImGui::IsKeyPressed(static_cast<ImGuiKey>(glfw_key), true); }

}  // namespace sv::gui
