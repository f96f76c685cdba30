#include "gui/panels/source_pane.hpp"

// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "embedded.hpp"
#include "gui/platform/keys.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "kernel_source.hpp"

namespace sv::gui {

namespace {

constexpr ImU32 kLit = IM_COL32(255, 212, 59, 110);

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The embedded CUDA form of `file`, parsed once.
const std::vector<SourceLine>& cuda_form(const std::string& file) {
  static std::map<std::string, std::vector<SourceLine>> forms;
  auto it = forms.find(file);
  if (it == forms.end()) it = forms.emplace(file, parse_cuda_form(embedded_file(file))).first;
  return it->second;
}

// The width that code keeps beside its indentation in a narrow pane, in characters.
constexpr float kMinCodeChars = 32;

// Numbered lines, each wrapped at the pane's edge with its continuation under the code's first
// character; `lit` lines on a highlight, the first of them scrolled to when `scroll`. Where the pane
// is too narrow for the deepest line's indentation and kMinCodeChars of code, every indentation
// shrinks by the same factor (down to a quarter), so the nesting still shows.
void draw_lines(SourcePane& pane, const std::vector<std::string>& lines, const std::set<std::uint32_t>& lit, bool scroll) {
  const float space = ImGui::CalcTextSize(" ").x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float number_w = ImGui::CalcTextSize("000  ").x;
  std::size_t deepest = 0;
  for (const std::string& text : lines) deepest = std::max(deepest, std::min(text.find_first_not_of(' '), text.size()));
  const float room = right - ImGui::GetCursorScreenPos().x - number_w - kMinCodeChars * space;
  const float shrink = deepest == 0 ? 1 : std::clamp(room / (static_cast<float>(deepest) * space), 0.25f, 1.0f);
  // Where each line starts (window pixels): the scroll to the lit lines stops on a line's top, so
  // the pane's first line shows whole rather than cut by its top edge.
  std::vector<float> starts;
  float lit_y = -1;
  pane.top_line = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto number = static_cast<std::uint32_t>(i + 1);
    const std::string& text = lines[i];
    const std::size_t indent = std::min(text.find_first_not_of(' '), text.size());
    const char* body = text.c_str() + indent;
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float code_x = start.x + number_w + std::round(static_cast<float>(indent) * space * shrink);
    const float height = std::max(ImGui::CalcTextSize(body, nullptr, false, std::max(right - code_x, 8 * space)).y,
                                  ImGui::GetTextLineHeight());
    const bool on = lit.count(number) > 0;
    starts.push_back(start.y);
    if (pane.top_line == 0 && start.y + height > pane.visible_y0) pane.top_line = number, pane.top_y0 = start.y;
    if (on) {
      if (scroll && number == *lit.begin()) lit_y = start.y;
      ImGui::GetWindowDrawList()->AddRectFilled(start, ImVec2(right, start.y + height), kLit);
    }
    if (on) ImGui::Text("%3u", number);  // dimmed numbers were 2:1 on the highlight
    else ImGui::TextDisabled("%3u", number);
    ImGui::SameLine(0, 0);
    ImGui::SetCursorScreenPos(ImVec2(code_x, start.y));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(body);
    ImGui::PopTextWrapPos();
    if (!pane.report) continue;
    pane.widest_x1 = std::max(pane.widest_x1, ImGui::GetItemRectMax().x);
    if (on) pane.lit.push_back({number, text, start.x, start.y, right, start.y + height});
  }
  if (lit_y < 0) return;
  // The first lit line about a third down the pane, as far as the scroll reaches, then up to the
  // start of the line there.
  const float now = ImGui::GetScrollY(), view_h = pane.visible_y1 - pane.visible_y0;
  const float wanted = std::clamp(now + lit_y - pane.visible_y0 - 0.3f * view_h, 0.0f, ImGui::GetScrollMaxY());
  float to = 0;
  for (const float y : starts)
    if (now + y - pane.visible_y0 <= wanted + 0.5f) to = now + y - pane.visible_y0;
  ImGui::SetScrollY(to);
}

}  // namespace

namespace {

// The scrolled child the lines are drawn in, in `mono`; the report's rows started afresh.
void begin_lines(SourcePane& pane, ImFont* mono) {
  pane.lit.clear();
  pane.widest_x1 = 0;
  ImGui::BeginChild("##source lines");
  ImGui::PushFont(mono);
  pane.visible_y0 = ImGui::GetWindowDrawList()->GetClipRectMin().y;
  pane.visible_y1 = ImGui::GetWindowDrawList()->GetClipRectMax().y;
  pane.pane_x1 = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
}

// A kernel of the user's own: its text, each step's lines lit as its events name them (the trace's
// lines are the file's); a trace file of one names its file but does not carry its text.
void own_kernel_lines(SourcePane& pane, const TraceView& view, int step, ImFont* mono, const OwnKernel* own, bool scroll) {
  const Trace& t = view.trace;
  const auto file = t.meta.options.find("file");
  pane.shown_own = true;
  pane.shown_file = own ? own->name : file != t.meta.options.end() ? file->second : t.meta.algorithm;
  if (!own) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s: this trace names the kernel's file but does not carry its text; open the file itself "
                        "(scanviz gui --kernel FILE.cu, or drop it on the window) to see its lines lit.",
                        pane.shown_file.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  ImGui::TextDisabled("your kernel: %s", own->name.c_str());
  begin_lines(pane, mono);
  std::set<std::uint32_t> lit = emulator_lines(t, step);
  lit.erase(0);  // an event with no line (the emulator's own)
  draw_lines(pane, split_lines(own->text), lit, scroll);
  ImGui::PopFont();
  ImGui::EndChild();
}

}  // namespace

void source_pane(SourcePane& pane, const TraceView& view, int step, ImFont* mono, const OwnKernel* own) {
  const Trace& t = view.trace;
  if (is_own_kernel_algorithm(t.meta.algorithm)) {
    const bool scroll = pane.scrolled_for != step || pane.scroll_next;
    pane.scroll_next = pane.scrolled_for != step;
    pane.scrolled_for = step;
    own_kernel_lines(pane, view, step, mono, own, scroll);
    return;
  }
  pane.shown_own = false;
  const std::string cuda_file = cuda_form_file(t.meta.algorithm);
  const bool has_cuda = !cuda_file.empty() && !embedded_file(cuda_file).empty();
  if (!ImGui::GetIO().WantTextInput && key_pressed(GLFW_KEY_C)) pane.emulator = !pane.emulator;
  if (has_cuda) {
    if (ImGui::RadioButton("CUDA", !pane.emulator)) pane.emulator = false;
    ImGui::SameLine();
    if (ImGui::RadioButton("emulator", pane.emulator)) pane.emulator = true;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("(C)").x) ImGui::NewLine();  // a narrow pane: under them
    ImGui::TextDisabled("(C)");
  }
  const bool emulator = pane.emulator || !has_cuda;
  const std::string file = emulator ? emulator_form_file(t.meta.algorithm) : cuda_file;
  ImGui::PushTextWrapPos(0);  // wrapped rather than cut by a narrow pane's edge
  ImGui::TextDisabled("kernels/%s", file.c_str());
  ImGui::PopTextWrapPos();

  const bool changed = pane.scrolled_for != step || pane.scrolled_emulator != emulator;
  const bool scroll = changed || pane.scroll_next;
  pane.scroll_next = changed;  // the lines' heights are known only once they are laid out
  pane.scrolled_for = step;
  pane.scrolled_emulator = emulator;
  pane.shown_file = file;
  begin_lines(pane, mono);
  if (emulator) {
    draw_lines(pane, split_lines(embedded_file(file)), emulator_lines(t, step), scroll);
  } else {
    const std::vector<SourceLine>& form = cuda_form(file);
    std::vector<std::string> text;
    for (const SourceLine& l : form) text.push_back(l.text);
    draw_lines(pane, text, cuda_lines(form, t, step), scroll);
  }
  ImGui::PopFont();
  // A segmented scan runs the same kernel with the segmented operator: under the emulator form its
  // source, the operator's line lit while the step applies it.
  if (!t.meta.flags.empty()) {
    ImGui::Separator();
    if (!emulator) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("A segmented scan: each + above is the segmented operator (the emulator form shows it).");
      ImGui::PopTextWrapPos();
    } else {
      ImGui::TextDisabled("kernels/core/segmented.hpp (the operator the kernel is given)");
      const std::vector<std::string> lines = split_lines(embedded_file("core/segmented.hpp"));
      std::set<std::uint32_t> lit;
      if (step < static_cast<int>(t.steps.size()) && view.metrics.per_step[step].operations > 0)
        for (std::size_t i = 0; i < lines.size(); ++i)
          if (lines[i].find("b.flag ? b.v") != std::string::npos) lit.insert(static_cast<std::uint32_t>(i + 1));
      ImGui::PushFont(mono);
      const bool report = pane.report;
      pane.report = false;  // the report is of the kernel's lines
      draw_lines(pane, lines, lit, false);
      pane.report = report;
      ImGui::PopFont();
    }
  }
  ImGui::EndChild();
}

std::string source_pane_report(const SourcePane& pane) {
  std::ostringstream out;
  out << "source pane: " << (pane.shown_own ? "" : "kernels/") << pane.shown_file << "\n";
  for (const SourcePane::Row& r : pane.lit)
    out << "lit " << r.line << " " << r.x0 << " " << r.y0 << " " << r.x1 << " " << r.y1 << ": " << r.text << "\n";
  out << "visible " << pane.visible_y0 << " " << pane.visible_y1 << ", right edge " << pane.pane_x1 << ", widest line ends at "
      << pane.widest_x1 << "\n";
  out << "top line " << pane.top_line << " at " << pane.top_y0 << "\n";
  return out.str();
}

}  // namespace sv::gui
