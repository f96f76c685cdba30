// The lesson's part of the page's hidden DOM mirror (mirror_html.hpp).
#include "web/mirror_html.hpp"

#include <algorithm>

namespace sv::web {

namespace {

constexpr std::size_t kRacesListed = 32;  // a racy step at a large n has hundreds; the first say what happens

// A cell as its table entry says it: the value, or that it is not written yet, and its marks in words.
std::string cell_words(const MirrorCell& c) {
  std::string s = c.defined ? c.value : "not written yet";
  if (const std::string marks = cell_marks(c); !marks.empty()) s += " (" + marks + ")";
  return s;
}

std::string buffers_table(const StepMirror& step) {
  if (step.rows.empty()) return {};
  std::string caption = "The buffers at the end of this step, a row a cell";
  if (step.rows.front().diagram_row) caption += " (" + step.rows.front().buffer + " is the diagram's row)";
  std::string s = "<table><caption>" + html_escape(caption) + "</caption><thead><tr><th scope=\"col\">cell</th>";
  std::size_t cells = 0;
  for (const MirrorRow& row : step.rows) {
    s += "<th scope=\"col\">" + html_escape(row.buffer) + "</th>";
    cells = std::max(cells, row.cells.size());
  }
  s += "</tr></thead><tbody>";
  for (std::size_t i = 0; i < cells; ++i) {
    s += "<tr><th scope=\"row\">" + std::to_string(i) + "</th>";
    for (const MirrorRow& row : step.rows) {
      if (i >= row.cells.size()) {
        s += "<td></td>";
        continue;
      }
      const MirrorCell& c = row.cells[i];
      // A race and a wrong output are also classes, so a stylesheet or a test can find them.
      const std::string cls = std::string(c.race ? " race" : "") + (c.wrong ? " wrong" : "");
      s += (cls.empty() ? std::string("<td>") : "<td class=\"" + cls.substr(1) + "\">") + html_escape(cell_words(c)) + "</td>";
    }
    s += "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string s;
  s.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&': s += "&amp;"; break;
      case '<': s += "&lt;"; break;
      case '>': s += "&gt;"; break;
      case '"': s += "&quot;"; break;
      case '\'': s += "&#39;"; break;
      default: s += ch;
    }
  }
  return s;
}

std::string html_element(const char* tag, const std::string& text) {
  return std::string("<") + tag + ">" + html_escape(text) + "</" + tag + ">";
}

std::string lesson_html(const gui::MirrorShown& m) {
  std::string s;
  if (!m.heading) return html_element("h1", "Lesson: being recorded") + (m.lesson_error.empty() ? "" : html_element("p", m.lesson_error));
  s += "<h1 id=\"mirror-title\">" + html_escape("Lesson: " + m.heading->title) + "</h1><ul aria-label=\"the lesson's options\">";
  for (const MirrorField& f : m.heading->options) s += html_element("li", f.name + ": " + f.value);
  s += "</ul>";
  if (!m.lesson_error.empty()) s += html_element("p", m.lesson_error + " (the last lesson recorded stays)");
  s += "<h2 id=\"mirror-step\">" + html_escape(m.step.step_line) + "</h2>";
  if (!m.step.narration.empty()) s += "<p id=\"mirror-narration\">" + html_escape(m.step.narration) + "</p>";
  s += buffers_table(m.step);
  if (!m.step.announcements.empty()) {
    s += html_element("h3", "Races in this step: " + std::to_string(m.step.announcements.size())) + "<ul>";
    for (std::size_t i = 0; i < m.step.announcements.size() && i < kRacesListed; ++i) s += html_element("li", m.step.announcements[i]);
    if (m.step.announcements.size() > kRacesListed)
      s += html_element("li", "and " + std::to_string(m.step.announcements.size() - kRacesListed) + " more races in this step");
    s += "</ul>";
  }
  if (!m.step.result.empty()) {
    s += html_element("h3", "Result");
    for (const std::string& line : m.step.result) s += html_element("p", line);
  }
  return s;
}

}  // namespace sv::web
