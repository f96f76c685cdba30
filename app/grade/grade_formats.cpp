// Gradescope, JUnit and check's own formats of a graded card (grade_formats.hpp).
#include "grade/grade_formats.hpp"

#include <cstdio>

#include "grade/card_text.hpp"

namespace sv::grade {

namespace {

// Markdown for Gradescope: the summary as a paragraph, the card's lines as a code block, whose
// content Markdown shows as it is (a fence longer than any run of backticks in it).
std::string item_markdown(const ItemResult& it) {
  std::string md = (it.passed ? "**Passed.** " : "**Failed.** ") + it.summary + "\n";
  if (it.lines.empty()) return md;
  std::string fence = "```";
  for (const std::string& l : it.lines)
    while (l.find(fence) != std::string::npos) fence += '`';
  md += "\n" + fence + "text\n";
  for (const std::string& l : it.lines) md += l + "\n";
  return md + fence + "\n";
}

std::string overview(const cuda::CheckReport& r, const Grade& g) {
  std::string s = card::headline(r) + "\n";
  if (!r.launch.empty()) s += "launch: --launch '" + r.launch + "'\n";
  if (!r.cases.empty()) s += card::cases_line(r) + "\n";
  s += "score: " + card::number(g.score) + " of " + card::number(g.max_score) + "\n";
  return s;
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else if (c == '\'') out += "&apos;";
    else if (u < 0x20 && c != '\n' && c != '\t' && c != '\r') out += "?";  // XML 1.0 has no other control characters
    else out += c;
  }
  return out;
}

}  // namespace

std::string item_text(const ItemResult& it) {
  std::string s = it.summary + "\n";
  for (const std::string& l : it.lines) s += l + "\n";
  return s;
}

nlohmann::json gradescope_results(const cuda::CheckReport& r, const Grade& g, double seconds) {
  nlohmann::json j;
  j["score"] = g.score;
  j["execution_time"] = static_cast<std::int64_t>(seconds + 0.5);
  j["output"] = "```text\n" + overview(r, g) + "```\n";
  j["output_format"] = "md";
  j["visibility"] = "visible";
  j["stdout_visibility"] = "hidden";
  j["tests"] = nlohmann::json::array();
  for (const ItemResult& it : g.items)
    j["tests"].push_back({{"name", it.item.name},
                          {"score", it.score},
                          {"max_score", it.item.points},
                          {"status", it.passed ? "passed" : "failed"},
                          {"output", item_markdown(it)},
                          {"output_format", "md"},
                          {"visibility", it.item.hidden ? "after_published" : "visible"}});
  return j;
}

std::string junit_xml(const cuda::CheckReport& r, const Grade& g, double seconds) {
  int failures = 0;
  for (const ItemResult& it : g.items) failures += !it.passed;
  char time[32];
  std::snprintf(time, sizeof time, "%.3f", seconds);
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += "<testsuite name=\"" + xml_escaped("scanviz check " + r.file) + "\" tests=\"" + std::to_string(g.items.size()) + "\" failures=\"" +
       std::to_string(failures) + "\" errors=\"0\" skipped=\"0\" time=\"" + time + "\">\n";
  x += "  <properties>\n    <property name=\"verdict\" value=\"" + xml_escaped(g.verdict) + "\"/>\n    <property name=\"score\" value=\"" +
       card::number(g.score) + "\"/>\n    <property name=\"max_score\" value=\"" + card::number(g.max_score) + "\"/>\n  </properties>\n";
  for (const ItemResult& it : g.items) {
    x += "  <testcase classname=\"scanviz.check\" name=\"" + xml_escaped(it.item.id + ": " + it.item.name) + "\" time=\"0\"";
    if (it.passed) {
      x += "/>\n";
      continue;
    }
    x += ">\n    <failure message=\"" + xml_escaped(it.summary) + "\" type=\"" + xml_escaped(it.item.check) + "\">" + xml_escaped(item_text(it)) +
         "</failure>\n  </testcase>\n";
  }
  x += "  <system-out>" + xml_escaped(overview(r, g)) + "</system-out>\n</testsuite>\n";
  return x;
}

nlohmann::json grade_json(const Grade& g, const Rubric& rubric) {
  nlohmann::json j = {{"title", rubric.title}, {"source", rubric.source}, {"scan", g.scan}, {"verdict", g.verdict}, {"score", g.score}, {"max_score", g.max_score}};
  j["items"] = nlohmann::json::array();
  for (const ItemResult& it : g.items)
    j["items"].push_back({{"id", it.item.id},
                          {"name", it.item.name},
                          {"check", it.item.check},
                          {"points", it.item.points},
                          {"score", it.score},
                          {"passed", it.passed},
                          {"hidden", it.item.hidden},
                          {"summary", it.summary},
                          {"lines", it.lines}});
  return j;
}

std::string grade_text(const Grade& g, const Rubric& rubric) {
  std::string s = "score: " + card::number(g.score) + " of " + card::number(g.max_score) + " (" + rubric.source + (rubric.title.empty() ? "" : ": " + rubric.title) + ")\n";
  for (const ItemResult& it : g.items)
    s += std::string("  ") + (it.passed ? "pass" : "FAIL") + " " + it.item.id + " (" + card::number(it.score) + "/" + card::number(it.item.points) + "): " + it.summary + "\n";
  return s;
}

}  // namespace sv::grade
