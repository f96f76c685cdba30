// The fixed panels' layout and the diagram window (one canvas, or the racy kernel and its twin
// side by side).
#include "gui/window/tiled_panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "algorithms.hpp"
#include "gui/panels/predict_panel.hpp"
#include "gui/panels/source_pane.hpp"
#include "mirror/narration.hpp"
#include "gui/window/lesson_panel.hpp"

namespace sv::gui {

namespace {

// The diagram window's contents: the lesson's canvas, or side by side the lesson above its partner.
void diagram_contents(Ui& ui, GlDiagram& gl, std::vector<std::unique_ptr<CanvasDraw>>& frame_draws) {
  const ImVec2 pos = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  if (ui.lesson.view) {
    // Side by side: the lesson above, the single-buffer kernel below (the diagrams are wide and
    // short, so stacking gives both the full width), each under a one-line caption, steps in sync.
    const bool pair = ui.side_by_side && ui.lesson.racy;
    if (!pair) {
      ImGui::PushFont(ui.fonts.diagram);  // the diagram at the font scale, the chrome around it capped
      draw_canvas(*ui.lesson.view, ui.step, ui.canvas, gl, ui.settings.theme, frame_draws, pos, avail, true, "##canvas");
      draw_predict_marks(ui.predict, ui.canvas, ui.step, pos, avail);
      ImGui::PopFont();
      // In the window's title bar, right-aligned, where it covers no cell.
      draw_wrong_banner(*ui.lesson.view, ui.settings.theme, ImVec2(pos.x + avail.x, ImGui::GetWindowPos().y),
                        ImGui::GetFrameHeight());
    } else {
      const float caption = ImGui::GetTextLineHeightWithSpacing();
      const ImVec2 size(avail.x, avail.y / 2 - caption - 2);
      const ImU32 text = im_color(palette_named(ui.settings.theme).text);
      ImDrawList* dl = ImGui::GetWindowDrawList();
      dl->AddText(ImVec2(pos.x + 8, pos.y + 2), text, (ui.lesson.view->trace.meta.algorithm + " (the lesson)").c_str());
      ImGui::PushFont(ui.fonts.diagram);
      // The racy lesson above the double-buffered kernel: its cells that differ are marked.
      const AlgorithmInfo* lesson_row = find_algorithm(ui.lesson.view->trace.meta.algorithm);
      const bool racy_lesson = lesson_row && lesson_row->racy &&
                               ui.lesson.racy->outcome == Outcome::Correct &&
                               ui.lesson.view->trace.steps.size() == ui.lesson.racy->trace.steps.size();
      draw_canvas(*ui.lesson.view, ui.step, ui.canvas, gl, ui.settings.theme, frame_draws,
                  ImVec2(pos.x, pos.y + caption), size, true, "##canvas", racy_lesson ? ui.lesson.racy.get() : nullptr);
      ImGui::PopFont();
      draw_wrong_banner(*ui.lesson.view, ui.settings.theme, ImVec2(pos.x + avail.x, pos.y), caption);
      const float lower = pos.y + avail.y / 2;
      const std::string& partner = ui.lesson.racy->trace.meta.algorithm;
      const AlgorithmInfo* partner_row = find_algorithm(partner);
      dl->AddText(ImVec2(pos.x + 8, lower + 2), text,
                  (partner + (partner_row && partner_row->racy ? ": one buffer, one barrier a step"
                                                            : ": two buffers, no race")).c_str());
      const int racy_step = std::min(ui.step, static_cast<int>(ui.lesson.racy->trace.steps.size()) - 1);
      // Compared step by step with the lesson where the two run the same strides on the same input.
      const bool twins = lesson_row && partner_row && !lesson_row->racy && !lesson_row->twin.family.empty() &&
                         lesson_row->twin.family == partner_row->twin.family &&
                         ui.lesson.view->outcome == Outcome::Correct &&
                         ui.lesson.view->trace.steps.size() == ui.lesson.racy->trace.steps.size();
      ImGui::PushFont(ui.fonts.diagram);
      draw_canvas(*ui.lesson.racy, racy_step, ui.canvas_racy, gl, ui.settings.theme, frame_draws,
                  ImVec2(pos.x, lower + caption), size, true, "##canvas_racy", twins ? ui.lesson.view.get() : nullptr);
      ImGui::PopFont();
      draw_wrong_banner(*ui.lesson.racy, ui.settings.theme, ImVec2(pos.x + avail.x, lower), caption);
    }
  }
}

}  // namespace

float narration_share(const Ui& ui) { return ui.kernel.show ? 0.18f : 0.3f; }

bool tiled_panels(Ui& ui, float menu_h, GlDiagram& gl, std::vector<std::unique_ptr<CanvasDraw>>& frame_draws,
                  PanelLayout& layout) {
  const ImGuiIO& io = ImGui::GetIO();
  const float W = io.DisplaySize.x, H = io.DisplaySize.y, em = ImGui::GetFontSize();
  // Side panels never take more than about half the width between them: the diagram comes first.
  // The lesson panel keeps 16 em (its labels and a widget beside each) down to an 800-pixel window.
  const float left_w = ui.lecture ? 0 : std::max(std::min(22 * em, 0.24f * W), std::min(16 * em, 0.32f * W));
  // The "Your kernel" panel (K) takes the right-hand column under the narration, wider, in place of
  // the source pane (its editor is the source): beside the diagram, never over it.
  const bool kernel_column = ui.kernel.show && !ui.lecture;
  const float right_w = ui.lecture ? 0 : kernel_column ? std::max(std::min(28 * em, 0.3f * W), 0.46f * W) : std::min(28 * em, 0.3f * W);
  // Lecture mode's narration is as tall as its text (two to six lines): the rest is the diagram's.
  float narration_h = 0;
  if (ui.lecture && ui.lesson.view) {
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const float text_h = ImGui::CalcTextSize(narrate_step(*ui.lesson.view, ui.step).c_str(), nullptr, false, W - 2 * pad.x).y;
    narration_h = std::clamp(text_h, 2 * ImGui::GetTextLineHeightWithSpacing(), 6 * ImGui::GetTextLineHeightWithSpacing()) + 2 * pad.y;
  }
  const float timeline_h = 3.2f * em;
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoSavedSettings;
  // The fixed panels tile the window: their background is the frame's clear, not a quad each (a
  // transparent one is skipped; ImGuiWindowFlags_NoBackground would drop their borders too).
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  bool changed = false;
  if (!ui.lecture) {
    ImGui::SetNextWindowPos(ImVec2(0, menu_h));
    ImGui::SetNextWindowSize(ImVec2(left_w, H - menu_h));
    if (ImGui::Begin("Lesson", nullptr, fixed | ImGuiWindowFlags_HorizontalScrollbar)) changed = controls_panel(ui);
    ImGui::End();
  }
  if (!ui.lecture) {
    ImGui::SetNextWindowPos(ImVec2(W - right_w, menu_h));
    ImGui::SetNextWindowSize(ImVec2(right_w, (H - menu_h) * narration_share(ui)));
    if (ImGui::Begin("Narration", nullptr, fixed)) narration_panel(ui);
    ImGui::End();
  }
  if (!ui.lecture && kernel_column) {
    ui.source.lit.clear();  // no source pane drawn: nothing lit (the report says so)
  } else if (!ui.lecture) {
    ImGui::SetNextWindowPos(ImVec2(W - right_w, menu_h + (H - menu_h) * 0.3f));
    ImGui::SetNextWindowSize(ImVec2(right_w, (H - menu_h) * 0.7f));
    if (ImGui::Begin("Kernel source", nullptr, fixed) && ui.lesson.view) source_pane(ui.source, *ui.lesson.view, ui.step, ui.fonts.mono, ui.lesson.ran_kernel.get());
    else ui.source.lit.clear();  // nothing lit is drawn (the report says so)
    ImGui::End();
  } else {
    ImGui::SetNextWindowPos(ImVec2(0, H - timeline_h - narration_h));
    ImGui::SetNextWindowSize(ImVec2(W, narration_h));
    if (ImGui::Begin("Narration##lecture", nullptr, fixed | ImGuiWindowFlags_NoTitleBar)) narration_panel(ui);
    ImGui::End();
  }
  ImGui::SetNextWindowPos(ImVec2(left_w, H - timeline_h));
  ImGui::SetNextWindowSize(ImVec2(W - left_w - right_w, timeline_h));
  if (ImGui::Begin("Timeline", nullptr, fixed | ImGuiWindowFlags_NoTitleBar)) timeline_panel(ui);
  ui.chrome.push_back({"timeline", window_rect()});
  ImGui::End();

  ImGui::SetNextWindowPos(ImVec2(left_w, menu_h));
  ImGui::SetNextWindowSize(ImVec2(W - left_w - right_w, H - menu_h - timeline_h - narration_h));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
  if (ImGui::Begin("Diagram", nullptr, fixed | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
    diagram_contents(ui, gl, frame_draws);
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  layout = {W, H, menu_h, left_w, right_w, timeline_h, em};
  return changed;
}

}  // namespace sv::gui
