// The class table (class_table.hpp).
#include "grade/class_table.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "grade/card_text.hpp"

namespace sv::grade {

namespace {

// Line `line` of `source` without its // comment, blanks collapsed (students' lines of one pattern
// differ in their spacing and comments), or "line N" where it is not there.
std::string line_text(const std::string& source, std::uint32_t line) {
  std::istringstream in(source);
  std::string text;
  for (std::uint32_t i = 1; i <= line && std::getline(in, text); ++i)
    if (i == line) {
      text = text.substr(0, text.find("//"));
      std::string out;
      for (const char c : text) {
        const bool blank = c == ' ' || c == '\t' || c == '\r';
        if (blank && (out.empty() || out.back() == ' ')) continue;
        out += blank ? ' ' : c;
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty()) return "`" + out + "`";
    }
  return "line " + std::to_string(line);
}

std::uint32_t line_of(const nlohmann::json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<std::uint32_t>() : 0; }

void add(ClassRow& row, const std::string& kind, const std::string& pattern) {
  for (const Finding& f : row.findings)
    if (f.kind == kind && f.pattern == pattern) return;
  row.findings.push_back({kind, pattern});
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : c == '\n' || c == '\r' ? std::string(" ") : std::string(1, c);
  return out;
}

struct Counts {
  std::vector<std::pair<std::string, int>> kinds, patterns, items, algorithms;
};

std::vector<std::pair<std::string, int>> sorted(const std::map<std::string, int>& m) {
  std::vector<std::pair<std::string, int>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

// Each count is of submissions: a kind found twice in one file counts once.
Counts count(const std::vector<ClassRow>& rows) {
  std::map<std::string, int> kinds, patterns, items, algorithms;
  for (const ClassRow& r : rows) {
    std::set<std::string> seen;
    for (const Finding& f : r.findings)
      if (seen.insert(f.kind).second) ++kinds[f.kind];
    for (const Finding& f : r.findings) ++patterns[f.pattern];
    for (const std::string& i : r.failed_items) ++items[i];
    if (r.verdict != "error") ++algorithms[r.matches];
  }
  return {sorted(kinds), sorted(patterns), sorted(items), sorted(algorithms)};
}

// The GPU times measured across the class: how many, the fastest, the median and the slowest (ms).
std::vector<std::pair<std::string, std::string>> gpu_spread(const std::vector<ClassRow>& rows) {
  std::vector<double> ms;
  for (const ClassRow& r : rows)
    if (r.gpu_ms >= 0) ms.push_back(r.gpu_ms);
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  const double median = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  return {{"measured", std::to_string(ms.size())}, {"fastest", card::number(ms.front())}, {"median", card::number(median)}, {"slowest", card::number(ms.back())}};
}

}  // namespace

std::string fault_finding(const std::string& kind, std::uint32_t line, const std::string& message) {
  return kind + (line ? " at line " + std::to_string(line) : "") + ": " + message;
}

std::string race_finding(const std::string& kind, const std::string& buffer, const std::string& memory, std::uint32_t line,
                         std::uint32_t other_line) {
  return kind + " race on " + buffer + " (" + memory + "), lines " + std::to_string(line) + " and " + std::to_string(other_line);
}

std::string wrong_output_finding(std::int64_t n, const std::string& detail) {
  return "wrong output: n = " + std::to_string(n) + ", " + detail;
}

ClassRow class_row(const Submission& s) {
  ClassRow row;
  row.file = s.file;
  row.seconds = s.seconds;
  row.matches = "-";
  if (s.card.is_null()) {
    row.verdict = "error";
    row.first = s.failure;
    const std::string kind = s.failure.substr(0, s.failure.find(':'));
    add(row, kind, kind);
    return row;
  }
  const nlohmann::json& c = s.card;
  const nlohmann::json& rubric = c["rubric"];
  row.verdict = rubric.value("verdict", c.value("verdict", "error"));
  row.score = rubric.value("score", 0.0);
  row.max_score = rubric.value("max_score", 0.0);
  if (c.contains("matches") && c["matches"].is_string()) row.matches = c["matches"].get<std::string>();
  if (c.contains("gpu") && c["gpu"].contains("time") && c["gpu"]["time"].is_object()) row.gpu_ms = c["gpu"]["time"].value("kernel_ms", -1.0);
  for (const auto& it : rubric["items"])
    if (!it.value("passed", false)) row.failed_items.push_back(it.value("id", ""));
  for (const auto& e : c["errors"]) {
    const bool warning = e.value("severity", "error") == "warning";
    const std::string kind = (warning ? "warning: " : "") + e.value("kind", "");
    const std::uint32_t line = line_of(e, "line");
    add(row, kind, kind + " at " + (line ? line_text(s.source, line) : e.value("message", "")));
    if (!warning && row.first.empty())
      row.first = fault_finding(e.value("kind", ""), line, e.value("message", ""));
  }
  for (const auto& h : c["hazards"]) {
    const std::string kind = "race (" + h.value("memory", "shared") + " memory)";
    const std::uint32_t w = line_of(h, "line_write"), r = line_of(h, "line_read"), second = line_of(h, "line_second");
    const std::uint32_t other = r ? r : second;
    add(row, kind, "race on " + h.value("buffer", "") + " at " + line_text(s.source, w) + (other != w ? " and " + line_text(s.source, other) : ""));
    if (row.first.empty())
      row.first = race_finding(h.value("kind", ""), h.value("buffer", ""), h.value("memory", ""), w, other);
  }
  for (const auto& k : c["cases"])
    if (k.value("outcome", "") == "wrong") {
      add(row, "wrong output", "wrong output");
      if (row.first.empty()) row.first = wrong_output_finding(k.value("n", std::int64_t{0}), k.value("detail", ""));
      break;
    }
  for (const auto& d : c["diagnoses"]) {
    const std::uint32_t line = line_of(d, "line");
    if (line) add(row, "wrong output", "wrong value computed at " + line_text(s.source, line));
  }
  if (row.first.empty() && !row.failed_items.empty()) row.first = "failed " + row.failed_items.front();
  if (row.first.empty()) row.first = "-";
  return row;
}

std::string class_csv(const std::vector<ClassRow>& rows) {
  std::string s = "file,verdict,score,max_score,first_finding,matches,seconds,gpu_kernel_ms\n";
  for (const ClassRow& r : rows)
    s += csv_field(r.file) + "," + r.verdict + "," + card::number(r.score) + "," + card::number(r.max_score) + "," + csv_field(r.first) + "," + csv_field(r.matches) + "," +
         card::number(static_cast<double>(static_cast<long long>(r.seconds * 10 + 0.5)) / 10) + "," + (r.gpu_ms >= 0 ? card::number(r.gpu_ms) : "") + "\n";
  const Counts c = count(rows);
  const auto section = [&](const std::string& header, const std::vector<std::pair<std::string, int>>& v) {
    s += "\n" + header + ",submissions\n";
    for (const auto& [what, n] : v) s += csv_field(what) + "," + std::to_string(n) + "\n";
  };
  section("finding_kind", c.kinds);
  section("finding_at_line", c.patterns);
  section("rubric_item_failed", c.items);
  section("algorithm_matched", c.algorithms);
  if (const auto spread = gpu_spread(rows); !spread.empty()) {
    s += "\ngpu_kernel_ms,value\n";
    for (const auto& [what, v] : spread) s += what + "," + v + "\n";
  }
  return s;
}

std::string class_markdown(const std::vector<ClassRow>& rows, const std::string& title) {
  std::map<std::string, int> verdicts;
  for (const ClassRow& r : rows) ++verdicts[r.verdict];
  std::string s = "# " + title + "\n\n" + std::to_string(rows.size()) + " submissions: " + std::to_string(verdicts["correct"]) + " correct, " +
                  std::to_string(verdicts["wrong"]) + " wrong, " + std::to_string(verdicts["error"]) + " error.\n\n";
  s += "| file | verdict | score | first finding | matches |\n| --- | --- | --- | --- | --- |\n";
  for (const ClassRow& r : rows)
    s += "| " + md_cell(r.file) + " | " + r.verdict + " | " + card::number(r.score) + " / " + card::number(r.max_score) + " | " + md_cell(r.first) + " | " + md_cell(r.matches) + " |\n";
  const Counts c = count(rows);
  const auto section = [&](const std::string& heading, const std::string& column, const std::vector<std::pair<std::string, int>>& v) {
    s += "\n## " + heading + "\n\n| " + column + " | submissions |\n| --- | --- |\n";
    for (const auto& [what, n] : v) s += "| " + md_cell(what) + " | " + std::to_string(n) + " of " + std::to_string(rows.size()) + " |\n";
  };
  section("Findings by kind", "kind", c.kinds);
  section("Findings by line", "finding", c.patterns);
  section("Rubric items failed", "item", c.items);
  section("Algorithms matched", "algorithm", c.algorithms);
  if (const auto spread = gpu_spread(rows); !spread.empty()) {
    s += "\n## The kernel's time on the GPU (ms)\n\n| | |\n| --- | --- |\n";
    for (const auto& [what, v] : spread) s += "| " + what + " | " + v + " |\n";
  }
  return s;
}

}  // namespace sv::grade
