// The report card's part of the page's hidden DOM mirror (mirror_html.hpp), in the card's own lines
// (grade/card_text.hpp).
#include <map>
#include <tuple>

#include "grade/card_text.hpp"
#include "web/mirror_html.hpp"

namespace sv::web {

namespace {

constexpr std::size_t kHazardsListed = 40;  // kinds of hazard (a kind, buffer and pair of lines each)

std::string cases_table(const cuda::CheckReport& r) {
  std::string s = "<table><caption>Each case the card ran</caption><thead><tr>";
  for (const char* head : {"n", "blocks", "input", "schedule", "lockstep", "outcome", "what went wrong"})
    s += std::string("<th scope=\"col\">") + head + "</th>";
  s += "</tr></thead><tbody>";
  for (const cuda::CheckCase& c : r.cases)
    s += "<tr>" + html_element("td", std::to_string(c.n)) + html_element("td", std::to_string(c.grid)) + html_element("td", c.input) +
         html_element("td", c.schedule) + html_element("td", std::to_string(c.warp)) + html_element("td", c.outcome) + html_element("td", c.detail) + "</tr>";
  return s + "</tbody></table>";
}

// Hazards alike but for their case, cell and threads, as one entry: the first, and how many more.
std::string hazards_list(const cuda::CheckReport& r) {
  std::vector<std::pair<const cuda::CheckHazard*, int>> kinds;
  std::map<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> at;
  for (const cuda::CheckHazard& h : r.hazards) {
    const auto [it, fresh] = at.emplace(std::make_tuple(h.kind, h.buffer, h.line_write, h.line_read, h.line_second), kinds.size());
    if (fresh) kinds.push_back({&h, 0});
    ++kinds[it->second].second;
  }
  std::string s = html_element("h3", "Hazards: " + std::to_string(r.hazards.size())) + "<ul>";
  for (std::size_t i = 0; i < kinds.size() && i < kHazardsListed; ++i) {
    const auto [h, count] = kinds[i];
    s += html_element("li", card::hazard_line(*h) + (count > 1 ? "; and " + std::to_string(count - 1) + " more like it" : ""));
  }
  if (kinds.size() > kHazardsListed) s += html_element("li", "and " + std::to_string(kinds.size() - kHazardsListed) + " more kinds of hazard");
  return s + "</ul>";
}

}  // namespace

std::string card_html(const cuda::CheckReport* report, const std::string& state) {
  std::string s = "<h2 id=\"mirror-verdict\">" + html_escape("Report card: " + (state.empty() ? std::string("not checked yet") : state)) + "</h2>";
  if (!report) return s;
  const cuda::CheckReport& r = *report;
  if (!r.verdict.empty()) s += html_element("p", card::headline(r));
  if (!r.launch.empty()) s += html_element("p", "launch: " + r.launch);
  s += html_element("p", card::cases_line(r));
  if (!r.cases.empty()) s += cases_table(r);
  if (!r.hazards.empty()) s += hazards_list(r);
  if (!r.errors.empty()) {
    s += html_element("h3", "Faults: " + std::to_string(r.errors.size())) + "<ul>";
    for (const cuda::CheckError& e : r.errors) s += html_element("li", card::error_line(e));
    s += "</ul>";
  }
  if (!r.diagnoses.empty()) {
    s += html_element("h3", "Why the outputs are wrong") + "<ul>";
    for (const cuda::CheckError& d : r.diagnoses) s += html_element("li", card::why_line(d));
    s += "</ul>";
  }
  if (const std::string work = card::work_line(r); !work.empty()) s += html_element("p", work);
  return s;
}

}  // namespace sv::web
