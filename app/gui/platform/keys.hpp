// A key press by its GLFW key code, for every Dear ImGui the distributions ship: 1.86 (Debian 12)
// takes the backend's native key codes as int; 1.87 and later (1.90 on Ubuntu 24.04) take an
// ImGuiKey and map a native code to their own through the key map their GLFW backend fills.
#pragma once

#include <imgui.h>

namespace sv::gui {

inline bool key_pressed(int glfw_key) { return ImGui::IsKeyPressed(static_cast<ImGuiKey>(glfw_key)); }

}  // namespace sv::gui
