// The look-back view's text mirror as HTML (lookback_html.hpp).
#include "web/lookback_html.hpp"

#include "web/mirror_html.hpp"

namespace sv::web {

std::string lookback_html(const gui::LookbackMirror& m) {
  std::string s = html_element("h1", "The look-back view");
  if (!m.summary.empty()) s += "<p id=\"mirror-lookback-summary\">" + html_escape(m.summary) + "</p>";
  for (const gui::LookbackMirrorRun& run : m.runs) {
    s += html_element("h2", run.title) + html_element("p", run.time);
    const bool marks = !m.summary.empty();
    s += "<table><caption>" + html_escape("Each tile's descriptor at this time: its flag (X nothing, A aggregate, P inclusive prefix), "
                                          "its values and its state") + "</caption><thead><tr><th scope=\"col\">tile</th>"
         "<th scope=\"col\">flag</th><th scope=\"col\">aggregate</th><th scope=\"col\">inclusive prefix</th><th scope=\"col\">state</th>";
    if (marks) s += "<th scope=\"col\">look-back stop</th>";
    s += "</tr></thead><tbody>";
    for (const gui::LookbackMirrorTile& t : run.tiles) {
      s += "<tr><th scope=\"row\">" + std::to_string(t.tile) + "</th>" + html_element("td", t.flag) + html_element("td", t.aggregate) +
           html_element("td", t.inclusive) + html_element("td", t.state);
      if (marks) s += t.moved ? "<td class=\"moved\">other than in the other run</td>" : "<td>the same in both runs</td>";
      s += "</tr>";
    }
    s += "</tbody></table>";
    if (run.more_tiles > 0) s += html_element("p", "and " + std::to_string(run.more_tiles) + " more tiles, not listed");
    if (!run.selected.empty()) {
      s += html_element("h3", "What the selected tile inspected") + "<ul>";
      for (const std::string& line : run.selected) s += html_element("li", line);
      s += "</ul>";
    }
  }
  return s;
}

}  // namespace sv::web
