// The window's keys held down, frame by frame, through Dear ImGui's own key state (no window): a
// toggle acts once a press however long the key is held; a stepping key repeats.
#include <doctest/doctest.h>

// clang-format off
#include <imgui.h>
#include <GLFW/glfw3.h>
// clang-format on

#include "gui/window/key_map.hpp"

using namespace sv;

namespace {

// A context of its own, with the legacy key map the GLFW backend of Dear ImGui 1.86 fills.
struct KeysContext {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGuiContext* context = ImGui::CreateContext();
  KeysContext() {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
    io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
    io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
    io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
    io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
  }
  ~KeysContext() {
    ImGui::DestroyContext(context);
    ImGui::SetCurrentContext(previous);
  }
  // `key` down for `frames` frames of `seconds` each, then up for one; the window's keys read each.
  void hold(gui::Ui& ui, int key, int frames, float seconds) {
    ImGuiIO& io = ImGui::GetIO();
    for (int f = 0; f <= frames; ++f) {
      io.KeysDown[key] = f < frames;
      io.DeltaTime = seconds;
      ImGui::NewFrame();
      gui::handle_keys(ui);
      ImGui::EndFrame();
    }
  }
};

}  // namespace

TEST_CASE("keys: a toggle held for a second acts once, in frames of 0.1 s, and zoom held repeats") {
  KeysContext keys;
  gui::Ui ui(false);
  // Held past the repeat delay (0.275 s), a repeating key would act again at 0.3 s and every frame
  // after: seven more times, so Space would end where it began.
  keys.hold(ui, GLFW_KEY_SPACE, 10, 0.1f);
  CHECK(ui.playing);
  keys.hold(ui, GLFW_KEY_SPACE, 10, 0.1f);
  CHECK(!ui.playing);
  keys.hold(ui, GLFW_KEY_L, 10, 0.1f);
  CHECK(ui.lecture);
  CHECK(ui.fullscreen);
  keys.hold(ui, GLFW_KEY_T, 3, 0.4f);  // three slow frames
  CHECK(ui.show_timing);
  // One frame of a quick press: each toggle still acts.
  keys.hold(ui, GLFW_KEY_T, 1, 0.016f);
  CHECK(!ui.show_timing);
  // Zoom steps: held for a second it zooms in more than one step of 1.25.
  const float scale = ui.canvas.view.scale_x;
  keys.hold(ui, GLFW_KEY_EQUAL, 10, 0.1f);
  CHECK(ui.canvas.view.scale_x > scale * 1.25f * 1.25f);
  const float zoomed = ui.canvas.view.scale_x;
  keys.hold(ui, GLFW_KEY_EQUAL, 1, 0.016f);
  CHECK(ui.canvas.view.scale_x == doctest::Approx(zoomed * 1.25f));
}
