// The launch box (launch_box.hpp): a one-line text box over a std::string, checked as a link's or the
// command line's launch is (run/request.hpp).
#include "gui/panels/launch_box.hpp"

#include <imgui.h>

#include "run/request.hpp"
#include "gui/draw/text_colours.hpp"

namespace sv::gui {

namespace {

int grow(ImGuiInputTextCallbackData* d) {
  auto* text = static_cast<std::string*>(d->UserData);
  text->resize(static_cast<std::size_t>(d->BufTextLen));
  d->Buf = text->data();
  return 0;
}

// The launch `text` checked as a link's is: "" when it may run, else why not.
std::string refusal(const std::string& text) {
  RunRequest r;
  try {
    if (!text.empty()) set_field(r, "launch", text);
  } catch (const RequestError& e) {
    return request_error_text(e, "");
  }
  return {};
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
}

}  // namespace

std::string suggested_launch(const std::string& message) {
  const std::string mark = "--launch '";
  const std::size_t from = message.find(mark);
  if (from == std::string::npos) return {};
  const std::size_t start = from + mark.size(), end = message.find('\'', start);
  return end == std::string::npos ? std::string() : message.substr(start, end - start);
}

std::string window_words(std::string message) {
  replace_all(message, "or give --block", "or say its launch in the box above the editor (NAME<<<GRID, BLOCK>>>(in, out, n))");
  replace_all(message, "--launch '", "the launch '");
  return message;
}

bool launch_box(LaunchBox& b, std::string& launch, const std::string& message) {
  bool changed = false;
  if (!b.active && b.error.empty()) b.text = launch;  // a link's, or a suggestion taken
  if (b.focus) {
    ImGui::SetKeyboardFocusHere();
    b.focus = false;
  }
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize("launch").x - ImGui::GetStyle().ItemInnerSpacing.x);
  const bool entered = ImGui::InputTextWithHint("launch", "NAME<<<GRID, BLOCK>>>(in, out, n), or a host function: scan(in, out, n)",
                                                b.text.data(), b.text.capacity() + 1,
                                                ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_EnterReturnsTrue, grow, &b.text);
  b.active = ImGui::IsItemActive();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("how the kernel runs, as its host code launches it (Enter runs it). GRID, BLOCK and shared bytes are\n"
                      "expressions in n; the arguments: in (n values), out (n cells judged against the scan), io (both),\n"
                      "sums (a cell a block), zeros(K), buf(K), n, numbers. Empty: the file's only kernel, its block inferred.");
  if (entered || (ImGui::IsItemDeactivatedAfterEdit() && b.text != launch)) {
    b.error = refusal(b.text);
    if (b.error.empty() && b.text != launch) {
      launch = b.text;
      changed = true;
    }
  }
  if (!b.error.empty()) ImGui::TextColored(bad_text(), "%s", b.error.c_str());
  const std::string suggestion = suggested_launch(message);
  b.take_rect[2] = 0;
  if (!suggestion.empty() && suggestion != launch) {
    const bool taken = ImGui::Button(("take the launch " + suggestion).c_str());
    const ImVec2 at = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
    b.take_rect[0] = at.x, b.take_rect[1] = at.y, b.take_rect[2] = size.x, b.take_rect[3] = size.y;
    if (taken) {
      b.text = suggestion;
      b.focus = true;
      b.error = refusal(suggestion);
      if (b.error.empty() && suggestion.find("<<<GRID, BLOCK>>>") != std::string::npos)
        b.error = "say GRID and BLOCK (expressions in n: 1, 1024, (n + 255) / 256), then Enter";
      if (b.error.empty()) {
        launch = suggestion;
        changed = true;
      }
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("put it in the launch box, to edit and run (Enter)");
  }
  return changed;
}

}  // namespace sv::gui
