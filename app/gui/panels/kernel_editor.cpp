// The kernel editor (kernel_editor.hpp): ImGui's multiline text box over a std::string that grows as
// it is typed into, inside a scrolled child that also holds the line numbers and the marks, so the
// numbers and the text scroll together.
#include "gui/panels/kernel_editor.hpp"

// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "algorithms.hpp"
#include "embedded.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/platform/keys.hpp"
#include "kernel_source.hpp"

namespace sv::gui {

namespace {

constexpr const char* kTemplate =
    "// A scan kernel of your own. scanviz binds the parameters: input (n values), output (n cells,\n"
    "// judged against the scan of the input) and n. One block of BLOCK_DIM threads runs it\n"
    "// (BLOCK_DIM is set to hold n). Write the scan of buffer_s below, then Run (Ctrl+Enter).\n"
    "#define BLOCK_DIM 8\n"
    "\n"
    "__global__ void my_scan_kernel(float* input, float* output, unsigned int n) {\n"
    "    __shared__ float buffer_s[BLOCK_DIM];\n"
    "    unsigned int i = threadIdx.x;\n"
    "    buffer_s[i] = i < n ? input[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "\n"
    "    // your scan of buffer_s here\n"
    "\n"
    "    if (i < n) {\n"
    "        output[i] = buffer_s[i];\n"
    "    }\n"
    "}\n";

constexpr ImU32 kErrorBand = IM_COL32(224, 49, 49, 70);
constexpr ImU32 kErrorNumber = IM_COL32(224, 49, 49, 255);
constexpr ImU32 kMarkBand = IM_COL32(255, 212, 59, 110);  // the source pane's highlight

// The text box's buffer is the std::string itself, resized as ImGui asks; the cursor's offset is
// kept each frame the box is active, and pasted text goes in at it, over the selection.
struct Callback {
  std::string* text = nullptr;
  std::string* paste = nullptr;
  int cursor = 0;
};

void insert_paste(ImGuiInputTextCallbackData* d, std::string& paste) {
  const int from = std::min(d->SelectionStart, d->SelectionEnd), to = std::max(d->SelectionStart, d->SelectionEnd);
  if (to > from) d->DeleteChars(from, to - from);
  d->CursorPos = from;
  d->InsertChars(from, paste.data(), paste.data() + paste.size());
  paste.clear();
}

int on_text_event(ImGuiInputTextCallbackData* d) {
  auto* c = static_cast<Callback*>(d->UserData);
  if (d->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    c->text->resize(static_cast<std::size_t>(d->BufTextLen));
    d->Buf = c->text->data();
  } else if (d->EventFlag == ImGuiInputTextFlags_CallbackAlways) {
    if (!c->paste->empty()) insert_paste(d, *c->paste);
    c->cursor = d->CursorPos;
  }
  return 0;
}

std::vector<std::size_t> line_starts(const std::string& text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
  return starts;
}

// The "Start from" combo and the Run button on one row; true when Run was pressed.
bool editor_toolbar(KernelEditor& e) {
  const std::vector<KernelStart>& starts = kernel_starts();
  bool run = ImGui::Button("Run");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("record the kernel and show it (Ctrl+Enter in the text)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(8 * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x * 0.6f));
  e.start_from = std::clamp(e.start_from, -1, static_cast<int>(starts.size()) - 1);
  const char* shown = e.start_from < 0 ? "(choose)" : starts[static_cast<std::size_t>(e.start_from)].label.c_str();
  const auto choose = [&](int i) {
    const KernelStart& s = starts[static_cast<std::size_t>(i)];
    set_editor_text(e, s.name, s.text);
    e.start_from = i;
    e.start_min_n = s.min_n;
    e.error.clear();
    e.error_line = 0;
    e.focus = true;
    run = true;  // what a student picks, they want to see
  };
  if (ImGui::BeginCombo("start from", shown)) {
    for (int i = 0; i < static_cast<int>(starts.size()); ++i)
      if (ImGui::Selectable(starts[static_cast<std::size_t>(i)].label.c_str(), i == e.start_from)) choose(i);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Page Down / Page Up (out of the text): the next / previous one");
  if (e.start_step != 0) {  // the keyboard's way through the list, wrapping round
    const int count = static_cast<int>(starts.size());
    const int from = e.start_from < 0 ? (e.start_step > 0 ? -1 : 0) : e.start_from;
    choose(((from + e.start_step) % count + count) % count);
    e.start_step = 0;
  }
  return run;
}

// The card's errors under the text, one a row ("line 12: out-of-bounds: ..."); a click goes to its line.
void problem_list(KernelEditor& e, float height) {
  e.problem_rects.clear();
  if (e.problems.empty()) return;
  ImGui::BeginChild("##problems", ImVec2(0, height));
  for (std::size_t i = 0; i < e.problems.size(); ++i) {
    const auto& [line, text] = e.problems[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::PushStyleColor(ImGuiCol_Text, bad_text());
    const std::string row = (line ? "line " + std::to_string(line) + ": " : std::string()) + text;
    if (ImGui::Selectable(row.c_str()) && line > 0) {
      e.marked = {line};
      e.scroll_to = line;
    }
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    e.problem_rects.push_back({a.x, a.y, b.x - a.x, b.y - a.y});
    ImGui::PopStyleColor();
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace

void set_editor_text(KernelEditor& e, std::string name, std::string text) {
  e.name = std::move(name);
  e.text = std::move(text);
  e.edited = false;
  e.marked.clear();
  e.start_from = -1;
  ++e.generation;
  e.focus |= e.active;
}

const std::vector<KernelStart>& kernel_starts() {
  static const std::vector<KernelStart> starts = [] {
    std::vector<KernelStart> s{{"empty template (input, output, n bound)", "my_scan.cu", kTemplate, 1}};
    for (const AlgorithmInfo& a : block_algorithms()) {
      const std::string file = cuda_form_file(a.name);
      if (file.empty() || embedded_file(file).empty()) continue;
      std::string text;
      for (const SourceLine& l : parse_cuda_form(embedded_file(file))) text += l.text + "\n";
      s.push_back({std::string(a.name) + " (kernels/" + file + ")", std::filesystem::path(file).filename().string(), text,
                   a.warp_level ? 64 : 1});
    }
    return s;
  }();
  return starts;
}

EditorAction kernel_editor(KernelEditor& e, ImFont* mono, float height) {
  bool run = editor_toolbar(e);
  ImGui::TextDisabled("%s%s", e.name.c_str(), e.edited ? " (edited)" : "");
  const float row_h = ImGui::GetTextLineHeightWithSpacing();
  const float problems_h = e.problems.empty() ? 0 : row_h * static_cast<float>(std::min<std::size_t>(e.problems.size(), 5)) + row_h * 0.5f;
  const float error_h = (e.error.empty() ? 0 : row_h * 2) + problems_h;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float box_h = std::max(4 * ImGui::GetTextLineHeight(), (height > 0 ? height : avail.y) - error_h);

  ImGui::BeginChild("##kernel text", ImVec2(avail.x, box_h), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(mono);
  const std::vector<std::size_t> starts = line_starts(e.text);
  const float line_h = ImGui::GetFontSize();  // a text box's lines are one font size apart
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float gutter_w = ImGui::CalcTextSize("0000 ").x;
  float widest = 0;
  for (std::size_t l = 0; l < starts.size(); ++l) {
    const std::size_t end = l + 1 < starts.size() ? starts[l + 1] - 1 : e.text.size();
    if (end - starts[l] > 0) widest = std::max(widest, ImGui::CalcTextSize(e.text.data() + starts[l], e.text.data() + end).x);
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float text_x = origin.x + gutter_w;
  const float box_w = std::max(ImGui::GetContentRegionAvail().x - gutter_w, widest + 4 * line_h);
  const float text_h = static_cast<float>(starts.size() + 1) * line_h + 2 * pad.y;

  // Bands behind the text (the box's own background is clear), numbers in the gutter; only the
  // visible lines.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float clip_y0 = dl->GetClipRectMin().y, clip_y1 = dl->GetClipRectMax().y;
  const float right = text_x + box_w;
  for (std::size_t l = 0; l < starts.size(); ++l) {
    const float y = origin.y + pad.y + static_cast<float>(l) * line_h;
    if (y + line_h < clip_y0 || y > clip_y1) continue;
    const auto number = static_cast<std::uint32_t>(l + 1);
    const bool error = number == e.error_line || std::any_of(e.problems.begin(), e.problems.end(), [&](const auto& p) { return p.first == number; }),
               marked = std::count(e.marked.begin(), e.marked.end(), number) > 0;
    if (marked) dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(right, y + line_h), kMarkBand);
    if (error) dl->AddRectFilled(ImVec2(origin.x, y), ImVec2(right, y + line_h), kErrorBand);
    char digits[16];
    std::snprintf(digits, sizeof digits, "%4u", number);
    dl->AddText(ImVec2(origin.x, y), error ? kErrorNumber : ImGui::GetColorU32(ImGuiCol_TextDisabled), digits);
  }
  if (e.scroll_to > 0) {
    const float y = pad.y + static_cast<float>(e.scroll_to - 1) * line_h;
    ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() * 0.3f));
    e.scroll_to = 0;
  }

  ImGui::SetCursorScreenPos(ImVec2(text_x, origin.y));
  if (e.focus) {
    ImGui::SetKeyboardFocusHere();
    e.focus = false;
  }
  // Ctrl+Enter ends ImGui's editing (a multiline box takes it as "validate"): seen here, before the
  // box, and the box takes the keyboard again next frame.
  const bool ctrl_enter = e.active && ImGui::GetIO().KeyCtrl &&
                          (key_pressed(GLFW_KEY_ENTER) || key_pressed(GLFW_KEY_KP_ENTER));
  Callback cb{&e.text, &e.paste, 0};
  ImGui::PushStyleColor(ImGuiCol_FrameBg, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, pad.y));
  ImGui::PushID(e.generation);
  const bool changed = ImGui::InputTextMultiline(
      "##kernel", e.text.data(), e.text.capacity() + 1, ImVec2(box_w, text_h),
      ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackResize | ImGuiInputTextFlags_CallbackAlways,
      on_text_event, &cb);
  const bool was_active = e.active;
  e.active = ImGui::IsItemActive();
  if (!e.active) e.paste.clear();  // the box let go of the keyboard before it took the paste
  ImGui::PopID();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  if (changed) {
    e.edited = true;
    e.marked.clear();
  }
  if (e.active) {
    // Follow the cursor: the box never scrolls itself (it is as tall as its text), the child does.
    const std::size_t cursor = std::min(static_cast<std::size_t>(std::max(cb.cursor, 0)), e.text.size());
    const auto line = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), cursor) - starts.begin());
    e.cursor_line = static_cast<std::uint32_t>(std::max<std::size_t>(line, 1));
    if (e.cursor_line <= starts.size()) {
      const std::size_t begin = starts[e.cursor_line - 1];
      const float y = pad.y + static_cast<float>(e.cursor_line - 1) * line_h;
      const float x = gutter_w + ImGui::CalcTextSize(e.text.data() + begin, e.text.data() + std::min(cursor, e.text.size())).x;
      const float top = ImGui::GetScrollY(), view_h = ImGui::GetWindowHeight() - 2 * line_h;
      if (y < top) ImGui::SetScrollY(y);
      else if (y + line_h > top + view_h) ImGui::SetScrollY(y + line_h - view_h);
      const float left = ImGui::GetScrollX(), view_w = ImGui::GetWindowWidth() - 2 * line_h;
      if (x < left + gutter_w) ImGui::SetScrollX(std::max(0.0f, x - gutter_w));
      else if (x > left + view_w) ImGui::SetScrollX(x - view_w);
    }
  }
  ImGui::PopFont();
  ImGui::EndChild();
  if (ctrl_enter && was_active) {
    run = true;
    e.focus = true;  // keep typing after the run
  }
  if (!e.error.empty()) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(bad_text(), "%s", e.error.c_str());
    ImGui::PopTextWrapPos();
  }
  problem_list(e, problems_h);
  if (run) e.edited = false;
  return run ? EditorAction::Run : EditorAction::None;
}

}  // namespace sv::gui
