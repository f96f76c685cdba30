// Segment heads and the applications' four rows as text and JSON.
#include "application_text.hpp"

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/application.hpp"
#include "core/values.hpp"

namespace sv {

namespace {

constexpr std::size_t kColumns = 16;

// Rows of cells under one another, kColumns to a line, each column as wide as its widest cell.
void print_table(std::ostream& out, const std::vector<std::pair<std::string, std::vector<std::string>>>& rows) {
  std::size_t cols = 0, label_w = 0;
  for (const auto& [label, cells] : rows) cols = std::max(cols, cells.size()), label_w = std::max(label_w, label.size());
  for (std::size_t start = 0; start < cols; start += kColumns) {
    const std::size_t end = std::min(cols, start + kColumns);
    std::vector<std::size_t> width(end - start, 1);
    for (const auto& row : rows)
      for (std::size_t i = start; i < end && i < row.second.size(); ++i)
        width[i - start] = std::max(width[i - start], row.second[i].size());
    for (const auto& [label, cells] : rows) {
      if (start >= cells.size() && start > 0) continue;
      out << "  " << label << std::string(label_w + 2 - label.size(), ' ');
      for (std::size_t i = start; i < end && i < cells.size(); ++i)
        out << std::string(width[i - start] - cells[i].size(), ' ') << cells[i] << "  ";
      out << "\n";
    }
    if (end < cols) out << "\n";
  }
}

std::vector<std::string> numbers(const std::vector<std::int64_t>& v) {
  std::vector<std::string> s;
  for (std::int64_t x : v) s.push_back(std::to_string(x));
  return s;
}

}  // namespace

std::string application_summary(const Trace& t) {
  const TraceMeta& m = t.meta;
  if (!m.flags.empty())
    return " | segmented, " + std::to_string(std::count(m.flags.begin(), m.flags.end(), 1)) + " segments";
  if (m.application.kind == "compact") return " | stream compaction of " + m.application.predicate;
  if (m.application.kind == "allocate") return " | allocation";
  return "";
}

void print_segments(std::ostream& out, const Trace& t) {
  const TraceMeta& m = t.meta;
  if (m.flags.empty()) return;
  std::vector<std::string> input, flags, result;
  for (std::size_t i = 0; i < m.input.size(); ++i) {
    input.push_back(format_value(m.type, m.input[i]));
    flags.push_back(m.flags[i] ? "|" : ".");
  }
  for (const Payload& p : t.result.reference) result.push_back(format_value(m.type, p));
  out << "segments (| marks a head; the scan restarts there):\n";
  print_table(out, {{"heads", flags}, {"input", input}, {"expected", result}});
}

void print_application(std::ostream& out, const Trace& t) {
  if (t.meta.application.kind.empty()) return;
  const ApplicationView v = application_view(t);
  const bool compact = v.kind == "compact";
  std::vector<std::string> input;
  for (const Payload& p : v.input) input.push_back(format_value(t.meta.type, p));
  std::vector<std::string> output;
  for (std::int64_t o : v.owner) {
    std::string cell = o < 0 ? "-" : compact ? format_value(t.meta.type, v.input[static_cast<std::size_t>(o)]) : "r";
    if (o >= 0 && !compact) cell += std::to_string(o);  // appended: GCC 12 warns falsely (-Wrestrict) on "r" + string
    output.push_back(cell);
  }
  out << "\n" << (compact ? "stream compaction, keep x where " + t.meta.application.predicate : std::string("allocation"))
      << ": " << v.total << (compact ? " of " + std::to_string(v.input.size()) + " kept" : " cells allocated") << "\n";
  if (compact)
    print_table(out, {{"input x", input}, {"predicate", numbers(v.marks)}, {"slot (excl. scan)", numbers(v.scan)}});
  else
    print_table(out, {{"requests", input}, {"offset (excl. scan)", numbers(v.scan)}});
  out << (compact ? "  scattered: out[slot] = x where the predicate holds\n"
                  : "  scattered: request r owns cells offset .. offset + request - 1\n");
  print_table(out, {{"output", output}});
  if (v.collisions) out << "  " << v.collisions << " cells claimed twice or out of range: the scan is wrong\n";
}

nlohmann::json application_json(const Trace& t) {
  if (t.meta.application.kind.empty()) return nullptr;
  const ApplicationView v = application_view(t);
  return {{"kind", v.kind},   {"predicate", t.meta.application.predicate},
          {"marks", v.marks}, {"scan", v.scan},
          {"total", v.total}, {"owner", v.owner},
          {"collisions", v.collisions}, {"correct", v.correct}};
}

}  // namespace sv
