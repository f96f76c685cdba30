// The "Your kernel" panel's editor: the kernel's text in a multiline box with line numbers, the last
// run's error marked at its line, the lines a report card entry names lit; "Start from" a built-in
// algorithm's CUDA form or an empty template with the parameters bound; Run (the button, or
// Ctrl+Enter in the text). Keyboard alone: the panel's key focuses the text, Escape leaves it (the
// text stays as typed), Tab indents inside it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gui/model/layout_report.hpp"

struct ImFont;

namespace sv::gui {

struct KernelEditor {
  std::string name = "your_kernel.cu";  // what messages and the pane call it
  std::string text;
  bool edited = false;        // typed into since it was loaded, started or run
  std::string error;          // the last run's error, one line ("" when it ran)
  std::uint32_t error_line = 0;
  // Every error the report card found, as a compiler lists them: each under the text with its line,
  // its line marked in the gutter; a click goes to the line.
  std::vector<std::pair<std::uint32_t, std::string>> problems;
  std::vector<LaidRect> problem_rects;  // where each was drawn, for the layout report
  std::vector<std::uint32_t> marked;  // lines lit: the report card entry picked
  std::uint32_t scroll_to = 0;        // scroll so this line shows (once)
  bool focus = false;                 // take the keyboard (once)
  std::string paste;                  // text pasted while the box had the keyboard: put at its cursor (once)
  int start_from = -1;                // the "Start from" combo's position (-1: the text came from elsewhere)
  std::int64_t start_min_n = 0;       // a starting point just picked: the n it needs at least (0: none)
  int start_step = 0;                 // by keyboard (Page Down / Page Up): the next / previous starting point (once)
  // What the last frame saw, for tests and the window: the text box active, the cursor's line.
  bool active = false;
  std::uint32_t cursor_line = 1;
  int generation = 0;  // the text box's identity: a new one takes a text replaced from outside
};

// Replaces the editor's text from outside (a file opened or saved again, a starting point): ImGui's
// active text box would keep its own copy, so the box is made anew, keeping the keyboard if it had it.
void set_editor_text(KernelEditor& e, std::string name, std::string text);

// A starting point: the empty template or a built-in algorithm's CUDA form.
struct KernelStart {
  std::string label;  // "empty template", "kogge-stone (block/cuda/kogge_stone.cu)"
  std::string name;   // the file name it takes: "my_scan.cu", "kogge_stone.cu"
  std::string text;
  std::int64_t min_n = 1;  // the smallest n it scans: the warp-level forms are written for warps of 32 (64)
};
// The empty template first, then every block algorithm with a CUDA form (its marks taken out).
const std::vector<KernelStart>& kernel_starts();

enum class EditorAction { None, Run };

// Draws the editor in the current window, `height` pixels tall (0: the rest of it), its text in
// `mono`; returns Run when the button or Ctrl+Enter asked for a run of the text.
EditorAction kernel_editor(KernelEditor& e, ImFont* mono, float height = 0);

}  // namespace sv::gui
