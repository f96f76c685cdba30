// The key map, read once a frame from Dear ImGui's key state (gui/platform/keys.hpp).
#include "gui/window/key_map.hpp"

// clang-format off
#include <imgui.h>
#include <GLFW/glfw3.h>
// clang-format on

#include <utility>

#include "gui/platform/keys.hpp"

namespace sv::gui {

void handle_keys(Ui& ui) {
  if (ImGui::GetIO().WantTextInput) return;
  // With the look-back view in front, the timeline keys move its time (tile event by tile event).
  const bool lookback_keys = ui.show_lookback && ui.lookback.focused;
  // With the float lesson's window in front, they pick its outputs.
  const bool float_keys = ui.floats.show && ui.floats.focused && !lookback_keys;
  const std::int64_t outputs = ui.lesson.view ? static_cast<std::int64_t>(ui.lesson.view->trace.result.output.size()) : 0;
  // Toggles act once a press (gui/platform/keys.hpp); the arrows repeat while held.
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) {
    if (lookback_keys) lookback_key(ui.lookback, LookbackKey::PlayPause);
    else ui.playing = !ui.playing;
  }
  const std::pair<ImGuiKey, LookbackKey> keys[] = {{ImGuiKey_RightArrow, LookbackKey::Next}, {ImGuiKey_LeftArrow, LookbackKey::Previous},
                                                   {ImGuiKey_Home, LookbackKey::Start}, {ImGuiKey_End, LookbackKey::End}};
  for (const auto& [key, action] : keys) {
    const bool steps = key == ImGuiKey_RightArrow || key == ImGuiKey_LeftArrow;
    if (!ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), steps)) continue;
    if (lookback_keys) lookback_key(ui.lookback, action);
    else if (float_keys) float_pick_key(ui.floats, action == LookbackKey::Next ? 1 : action == LookbackKey::Previous ? -1 : action == LookbackKey::Start ? -2 : 2, outputs);
    else if (action == LookbackKey::Next) set_step(ui, ui.step + 1);
    else if (action == LookbackKey::Previous) set_step(ui, ui.step - 1);
    else if (action == LookbackKey::Start) set_step(ui, 0);
    else set_step(ui, step_count(ui) - 1);
  }
  for (CanvasState* cs : {&ui.canvas, &ui.canvas_racy}) {
    float zoom = 1;
    if (key_repeats(GLFW_KEY_EQUAL) || key_repeats(GLFW_KEY_KP_ADD)) zoom = 1.25f;
    if (key_repeats(GLFW_KEY_MINUS) || key_repeats(GLFW_KEY_KP_SUBTRACT)) zoom = 1 / 1.25f;
    if (zoom != 1) {
      cs->view.scale_x *= zoom;
      cs->view.scale_y *= zoom;
      cs->fit = false;
    }
    if (key_pressed(GLFW_KEY_0)) cs->fit = true;
  }
  if (key_pressed(GLFW_KEY_F) || key_pressed(GLFW_KEY_F11)) ui.fullscreen = !ui.fullscreen;
  if (key_pressed(GLFW_KEY_W)) ui.show_charts = !ui.show_charts;
  if (key_pressed(GLFW_KEY_T)) ui.show_timing = !ui.show_timing;
  if (key_pressed(GLFW_KEY_B)) ui.show_lookback = !ui.show_lookback;
  if (key_pressed(GLFW_KEY_P)) ui.predict.focus = ui.predict.on = !ui.predict.on;
  if (key_pressed(GLFW_KEY_D)) ui.show_divergence = !ui.show_divergence;
  if (key_pressed(GLFW_KEY_U)) ui.floats.show = !ui.floats.show;
  if (key_pressed(GLFW_KEY_A)) ui.show_application = !ui.show_application;
  if (key_pressed(GLFW_KEY_K)) ui.kernel.editor.focus = ui.kernel.show = !ui.kernel.show;  // opened: type at once
  if (key_pressed(GLFW_KEY_G)) ui.submissions.focus = ui.submissions.show = !ui.submissions.show;  // opened: Up, Down, Enter at once
  if (key_pressed(GLFW_KEY_L)) {
    ui.lecture = !ui.lecture;
    ui.fullscreen = ui.lecture;
  }
}

}  // namespace sv::gui
