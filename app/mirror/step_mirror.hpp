// The text mirror of a lesson: what the window shows at a step, as data a screen reader's text can
// be made from. The terminal's `scanviz lesson` prints it (mirror_text.hpp); a page's DOM can lay the
// same fields out as headings, a table and live announcements. Pure functions of a TraceView.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mirror/trace_view.hpp"

namespace sv {

struct MirrorField {
  std::string name;   // "operator"
  std::string value;  // "sum (int32), inclusive"
};

// Once a lesson: its title and the options the window's controls show.
struct LessonHeading {
  std::string title;                 // "kogge-stone-double-buffer, n = 8, sum"
  std::vector<MirrorField> options;  // algorithm, n, operator, input, scan (when not plain), schedule
  int steps = 0;
};
LessonHeading lesson_heading(const TraceView& view);

// One cell of a buffer at the end of a step. The window tells these apart by colour and marks; here
// each is a word.
struct MirrorCell {
  std::int64_t index = 0;
  bool defined = false;       // written at all yet (the window's grey cell when not)
  std::string value;          // as the diagram labels it; empty while not defined
  bool written = false;       // an operator's result written in this step (the window's green cell)
  bool copied = false;        // copied unchanged in this step
  bool race = false;          // a read of it in this step saw another thread's overwrite (the window's red cell)
  bool wrong = false;         // an output that differs from the sequential scan (the window's outline)
  std::string expected;       // wrong: what the sequential scan holds there
  bool segment_head = false;  // a segmented scan's segment starts here
};

// The marks of a cell in words, comma-separated ("written, race"); empty when it has none.
std::string cell_marks(const MirrorCell& c);

struct MirrorRow {
  std::string buffer;        // "buffer2_s"
  bool diagram_row = false;  // the buffer the window's row for this step draws
  std::vector<MirrorCell> cells;
};

struct StepMirror {
  int step = 0;                  // 0-based, as the trace counts
  std::string step_line;         // "Step 3 of 7: stride = 2", what a screen reader reads first
  std::string narration;         // the window's narration of the step (narration.hpp)
  std::vector<MirrorRow> rows;   // the diagram's row first, then every other buffer the step wrote
  std::vector<std::string> announcements;  // the step's hazards, each naming both threads and lines
  std::vector<std::string> result;         // at the last step: the result, correct or wrong and why
};
StepMirror mirror_step(const TraceView& view, int step);

// The result as the lesson ends: correct, or wrong with the outputs that differ and the race that
// made them (the first read of an overwritten value), or the outcome that stopped the run.
std::vector<std::string> lesson_result(const TraceView& view);

}  // namespace sv
