// The mirror as plain text (mirror_text.hpp).
#include "mirror/mirror_text.hpp"

namespace sv {

namespace {

// A row of at most this many cells is one cell a line (a screen reader moves line by line); a longer
// one is eight cells a line, so a large n does not scroll a step away.
constexpr std::size_t kCellsOneALine = 16;
constexpr std::size_t kCellsALine = 8;
constexpr std::size_t kAnnouncementsSaid = 8;  // a racy step at a large n has hundreds; the first say what happens

std::string cell_text(const MirrorCell& c) {
  std::string s = "cell " + std::to_string(c.index) + ": " + (c.defined ? c.value : "not written yet");
  if (const std::string marks = cell_marks(c); !marks.empty()) s += ", " + marks;
  return s;
}

}  // namespace

std::string heading_text(const LessonHeading& h) {
  std::string s = "Lesson: " + h.title + "\n";
  for (const MirrorField& f : h.options) s += f.name + ": " + f.value + "\n";
  s += std::to_string(h.steps) + (h.steps == 1 ? " step.\n" : " steps.\n");
  return s;
}

std::string step_text(const StepMirror& m) {
  std::string s = m.step_line + "\n";
  if (!m.narration.empty()) s += m.narration + "\n";
  for (const MirrorRow& row : m.rows) {
    s += row.buffer + (row.diagram_row ? ", the diagram's row:\n" : ", also written in this step:\n");
    const std::size_t per_line = row.cells.size() <= kCellsOneALine ? 1 : kCellsALine;
    for (std::size_t i = 0; i < row.cells.size(); i += per_line) {
      s += "  ";
      for (std::size_t j = i; j < row.cells.size() && j < i + per_line; ++j) s += (j > i ? "; " : "") + cell_text(row.cells[j]);
      s += "\n";
    }
  }
  for (std::size_t i = 0; i < m.announcements.size() && i < kAnnouncementsSaid; ++i) s += m.announcements[i] + "\n";
  if (m.announcements.size() > kAnnouncementsSaid)
    s += "And " + std::to_string(m.announcements.size() - kAnnouncementsSaid) + " more races in this step.\n";
  for (const std::string& r : m.result) s += r + "\n";
  return s;
}

}  // namespace sv
