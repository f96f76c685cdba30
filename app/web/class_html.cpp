// The class panel's part of the page's hidden DOM mirror (mirror_html.hpp): the class as the panel
// lists it, a row a submission.
#include "web/mirror_html.hpp"

namespace sv::web {

std::string class_html(const gui::MirrorClass& c) {
  std::string s = "<h2 id=\"mirror-class-title\">" + html_escape("Class: " + c.source) + "</h2>" + html_element("p", c.summary);
  s += "<table><caption>Each submission, in the order it is graded</caption><thead><tr>";
  for (const char* head : {"submission", "verdict", "score", "first finding"}) s += std::string("<th scope=\"col\">") + head + "</th>";
  s += "</tr></thead><tbody>";
  for (const gui::MirrorClassEntry& e : c.entries) {
    // The entry open as the lesson's kernel is the row aria-current names, as a list's current item.
    s += e.opened ? "<tr aria-current=\"true\">" : "<tr>";
    s += "<th scope=\"row\">" + html_escape(e.name) + (e.opened ? " (open)" : "") + "</th>" + html_element("td", e.state) +
         html_element("td", e.score) + html_element("td", e.first) + "</tr>";
  }
  return s + "</tbody></table>";
}

}  // namespace sv::web
