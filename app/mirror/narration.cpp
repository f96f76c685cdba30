// The step narration: assets/narration/ALGO.txt's line for the step's phase, filled in from the trace.
#include "mirror/narration.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "core/values.hpp"
#include "embedded.hpp"

namespace sv {

namespace {

// The line for `phase` in the embedded `file` ("phase: text"), else empty.
std::string narration_line(const std::string& file, std::string_view phase) {
  std::istringstream in{std::string(embedded_file(file))};
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(std::string(phase) + ":", 0) == 0) {
      const auto text = line.substr(phase.size() + 1);
      const auto start = text.find_first_not_of(' ');
      return start == std::string::npos ? std::string() : text.substr(start);
    }
  }
  return {};
}

// The template line for `phase` in assets/narration/ALGO.txt ("phase: text"), else the default file's.
std::string narration_template(const std::string& algorithm, std::string_view phase) {
  for (const std::string& file : {"narration/" + algorithm + ".txt", std::string("narration/default.txt")}) {
    std::string text = narration_line(file, phase);
    if (!text.empty()) return text;
  }
  return {};
}

// What a segmented scan or an application adds to a step's sentence: its file's line for the phase,
// else its "any:" line (assets/narration/segmented.txt, compact.txt, allocate.txt).
std::string application_narration(const Trace& t, std::string_view phase) {
  const std::string kind = !t.meta.flags.empty() ? "segmented" : t.meta.application.kind;
  if (kind.empty()) return {};
  const std::string file = "narration/" + kind + ".txt";
  std::string text = narration_line(file, phase);
  return text.empty() ? narration_line(file, "any") : text;
}

void replace_all(std::string& s, const std::string& key, const std::string& value) {
  for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size()))
    s.replace(at, key.size(), value);
}

}  // namespace

std::string narrate_step(const TraceView& view, int step) {
  const Trace& t = view.trace;
  if (step < 0 || step >= static_cast<int>(t.steps.size())) return {};
  const Step& s = t.steps[step];
  std::string text = narration_template(t.meta.algorithm, phase_name(s.phase));
  if (text.empty()) text = s.label() + ".";
  if (const std::string extra = application_narration(t, phase_name(s.phase)); !extra.empty()) text += " " + extra;
  std::vector<std::uint32_t> copying;
  std::int64_t copies = 0;
  std::set<int> read_buffers;
  for (std::uint64_t i = s.first_event; i < s.end_event; ++i) {
    const Event& e = t.events[i];
    if (e.kind == EventKind::Write && e.a.kind == Origin::Cell) {
      ++copies;
      copying.push_back(e.thread);
    }
    if (e.kind == EventKind::Read && e.buffer < t.buffers.size() && t.buffers[e.buffer].space == Space::Shared)
      read_buffers.insert(e.buffer);
  }
  std::sort(copying.begin(), copying.end());
  copying.erase(std::unique(copying.begin(), copying.end()), copying.end());
  const int out_buffer = view.row_buffer[step];
  std::string in_buffer = t.buffers[out_buffer].name;
  for (int b : read_buffers)
    if (b != out_buffer) in_buffer = t.buffers[b].name;
  const auto& sm = view.metrics.per_step[step];
  // One of a kind reads in the singular: "thread 0 has", "1 operation", "1 copy".
  const auto counted = [](std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  replace_all(text, "{ops} operations", counted(sm.operations, "operation", "operations"));
  replace_all(text, "{copies} copies", counted(copies, "copy", "copies"));
  if (copying.size() == 1)
    replace_all(text, "threads {copying} have no element {param} to their left and copy",
                "thread {copying} has no element {param} to its left and copies");
  const std::vector<std::uint32_t> threads = active_threads(t, step);
  if (threads.size() == 1) {
    replace_all(text, "Threads {threads} each {add}", "Thread {threads} {adds}");
    replace_all(text, "threads {threads} each {add}", "thread {threads} {adds}");
    replace_all(text, "(threads {threads},", "(thread {threads},");
  }
  replace_all(text, "{param}", std::to_string(s.param));
  replace_all(text, "{threads}", thread_ranges(threads, ", ", ".."));
  replace_all(text, "{ops}", std::to_string(sm.operations));
  replace_all(text, "{copies}", std::to_string(copies));
  replace_all(text, "{copying}", thread_ranges(copying, ", ", ".."));
  replace_all(text, "{in}", in_buffer);
  replace_all(text, "{out}", t.buffers[out_buffer].name);
  replace_all(text, "{n}", std::to_string(t.meta.n));
  replace_all(text, "{op}", std::string(op_name(t.meta.op)));
  // The operator as a verb, so a max scan's narration does not say "add".
  const std::string op(op_name(t.meta.op));
  const bool sum = t.meta.op == OpKind::Sum, product = t.meta.op == OpKind::Product;
  replace_all(text, "{add}", sum ? "add" : product ? "multiply" : "combine (with " + op + ")");
  replace_all(text, "{adds}", sum ? "adds" : product ? "multiplies" : "combines (with " + op + ")");
  replace_all(text, "{combined}", sum ? "plus" : product ? "times" : "combined (with " + op + ") with");
  replace_all(text, "{segments}", std::to_string(std::count(t.meta.flags.begin(), t.meta.flags.end(), 1)));
  replace_all(text, "{predicate}", t.meta.application.predicate);
  // The race, named as the slides name it: the reader, the cell and the writer of the first read of
  // an overwritten value (the lowest reader), then how many more there were.
  int raw = 0;
  const Hazard* named = nullptr;
  for (const Hazard& h : view.hazards) {
    if (h.step != step || h.kind != HazardKind::RAW) continue;
    ++raw;
    if (!named || h.second.thread < named->second.thread) named = &h;
  }
  if (named) {
    // A kernel of the user's own: the trace's lines are the file's, so both lines are named.
    const bool own = is_own_kernel_algorithm(t.meta.algorithm);
    const auto at = [&](std::uint32_t line) { return own && line ? " (line " + std::to_string(line) + ")" : std::string(); };
    text += " Race: thread " + std::to_string(named->second.thread) + " read " + t.buffers[named->buffer].name + "[" +
            std::to_string(named->index) + "]" + at(named->second.line) + " after thread " + std::to_string(named->first.thread) +
            " had overwritten it" + at(named->first.line);
    if (raw > 1) text += ", and " + std::to_string(raw - 1) + (raw == 2 ? " more read" : " more reads") + " saw an overwritten value";
    text += ".";
  }
  // Blocks run one after another: each step is one block's, which the diagram alone does not say.
  if (const auto block = step_block(t, static_cast<std::size_t>(step)))
    text = "Block " + std::to_string(*block) + " of " + std::to_string(t.meta.grid) + ". " + text;
  return text;
}

}  // namespace sv
