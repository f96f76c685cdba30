// The text mirror of a lesson's step (step_mirror.hpp).
#include "mirror/step_mirror.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "mirror/narration.hpp"

namespace sv {

namespace {

constexpr std::size_t kInputValuesNamed = 32;  // a longer input is named by its first values and its length
constexpr std::size_t kWrongOutputsNamed = 4;

std::string values_text(const Trace& t, const std::vector<Payload>& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size() && i < kInputValuesNamed; ++i)
    s += (i ? ", " : "") + format_value(t.meta.type, values[i]);
  if (values.size() > kInputValuesNamed) s += ", and " + std::to_string(values.size() - kInputValuesNamed) + " more";
  return s;
}

std::string input_text(const Trace& t) {
  const TraceMeta& m = t.meta;
  const std::string values = values_text(t, m.input);
  if (m.input_seed) return "seeded random values (seed " + std::to_string(m.input_seed) + "): " + values;
  if (m.input == slides_input(m.op, m.type, m.input.size())) return "the slides' values: " + values;
  return values;
}

std::string schedule_text(const TraceMeta& m) {
  if (m.executor.kind == "gpu") return "the GPU" + (m.executor.device.empty() ? std::string() : " (" + m.executor.device + ")");
  std::string s = m.executor.schedule.empty() ? "in-order" : m.executor.schedule;
  if (s == "random") s += ":" + std::to_string(m.executor.seed);
  s += " on the CPU emulator";
  const AlgorithmInfo* info = find_algorithm(m.algorithm);
  const std::int32_t w = m.warp_width();
  if (info && info->warp_level) s += ", warps of " + std::to_string(w) + " lanes";
  else s += w == 1 ? ", each thread on its own" : ", " + std::to_string(w) + " threads in lockstep";
  return s;
}

// The scan's kind, when it is not a plain scan: segmented, or an application of the exclusive sum.
std::string scan_text(const TraceMeta& m) {
  if (!m.flags.empty())
    return "segmented, " + std::to_string(std::count(m.flags.begin(), m.flags.end(), 1)) + " segments";
  if (m.application.kind == "compact") return "stream compaction, keeping the elements where " + m.application.predicate;
  if (m.application.kind == "allocate") return "allocation: each request's offset";
  return {};
}

// "RAW" as words a listener knows.
std::string hazard_words(HazardKind k) {
  switch (k) {
    case HazardKind::RAW: return "read after write";
    case HazardKind::WAR: return "write after read";
    case HazardKind::WAW: return "write after write";
  }
  return {};
}

// describe_hazard's line without its leading kind: "buffer_s[3]: thread 2 wrote ... (line 34), then ...".
std::string hazard_detail(const Trace& t, const Hazard& h) {
  const std::string said = describe_hazard(t, h);
  return said.substr(said.find(' ') + 1);
}

std::string announce_hazard(const Trace& t, const Hazard& h) {
  return "Race, " + hazard_words(h.kind) + ", at " + hazard_detail(t, h) + ".";
}

MirrorRow mirror_row(const TraceView& view, int step, int buffer) {
  const Trace& t = view.trace;
  const BufferSnapshot& snap = t.snapshots[static_cast<std::size_t>(step)][static_cast<std::size_t>(buffer)];
  const Step& s = t.steps[static_cast<std::size_t>(step)];
  std::set<std::int64_t> results, copies, races;
  for (std::uint64_t i = s.first_event; i < s.end_event; ++i) {
    const Event& e = t.events[i];
    if (e.kind != EventKind::Write || static_cast<int>(e.buffer) != buffer) continue;
    (e.a.kind == Origin::OpResult ? results : copies).insert(e.index);
  }
  for (const Hazard& h : view.hazards)  // the window marks the reads of an overwritten value
    if (h.step == step && h.kind == HazardKind::RAW && h.buffer == buffer) races.insert(h.index);
  MirrorRow row;
  row.buffer = t.buffers[static_cast<std::size_t>(buffer)].name;
  row.diagram_row = view.row_buffer[static_cast<std::size_t>(step)] == buffer;
  const bool output = row.buffer == "output";
  for (std::size_t i = 0; i < snap.values.size(); ++i) {
    const auto at = static_cast<std::int64_t>(i);
    MirrorCell c;
    c.index = at;
    c.defined = snap.defined[i] != 0;
    if (c.defined) c.value = format_value(t.meta.type, snap.values[i]);
    c.written = results.count(at) > 0;
    c.copied = !c.written && copies.count(at) > 0;
    c.race = races.count(at) > 0;
    c.wrong = output && c.defined && i < t.result.reference.size() && snap.values[i] != t.result.reference[i];
    if (c.wrong) c.expected = format_value(t.meta.type, t.result.reference[i]);
    c.segment_head = i < t.meta.flags.size() && t.meta.flags[i];
    row.cells.push_back(std::move(c));
  }
  return row;
}

}  // namespace

std::string cell_marks(const MirrorCell& c) {
  std::string s;
  const auto add = [&s](const std::string& word) { s += (s.empty() ? "" : ", ") + word; };
  if (c.segment_head) add("segment head");
  if (c.written) add("written");
  if (c.copied) add("copied");
  if (c.race) add("race");
  if (c.wrong) add("wrong, expected " + c.expected);
  return s;
}

LessonHeading lesson_heading(const TraceView& view) {
  const TraceMeta& m = view.trace.meta;
  LessonHeading h;
  h.title = m.algorithm + ", n = " + std::to_string(m.n) + ", " + std::string(op_name(m.op));
  const AlgorithmInfo* info = find_algorithm(m.algorithm);
  h.options.push_back({"algorithm", m.algorithm + (info ? ": " + std::string(info->summary) : std::string())});
  h.options.push_back({"n", std::to_string(m.n)});
  std::string op(op_name(m.op));
  if (m.op != OpKind::Interval) op += " (" + std::string(type_name(m.type)) + ")";
  h.options.push_back({"operator", op + (m.exclusive ? ", exclusive" : ", inclusive")});
  h.options.push_back({"input", input_text(view.trace)});
  if (const std::string scan = scan_text(m); !scan.empty()) h.options.push_back({"scan", scan});
  h.options.push_back({"schedule", schedule_text(m)});
  h.steps = static_cast<int>(view.trace.steps.size());
  return h;
}

StepMirror mirror_step(const TraceView& view, int step) {
  const Trace& t = view.trace;
  StepMirror m;
  const int steps = static_cast<int>(std::min(t.steps.size(), t.snapshots.size()));
  if (steps == 0 || view.row_buffer.size() != t.steps.size()) return m;
  step = std::clamp(step, 0, steps - 1);
  m.step = step;
  m.step_line = "Step " + std::to_string(step + 1) + " of " + std::to_string(steps) + ": " + t.steps[static_cast<std::size_t>(step)].label();
  m.narration = narrate_step(view, step);
  const int shown = view.row_buffer[static_cast<std::size_t>(step)];
  m.rows.push_back(mirror_row(view, step, shown));
  std::set<int> written;
  const Step& s = t.steps[static_cast<std::size_t>(step)];
  for (std::uint64_t i = s.first_event; i < s.end_event; ++i)
    if (t.events[i].kind == EventKind::Write) written.insert(static_cast<int>(t.events[i].buffer));
  for (int b : written)
    if (b != shown && static_cast<std::size_t>(b) < t.buffers.size()) m.rows.push_back(mirror_row(view, step, b));
  // Reads of an overwritten value first: those are what break a result.
  std::vector<const Hazard*> here;
  for (const Hazard& h : view.hazards)
    if (h.step == step) here.push_back(&h);
  std::stable_sort(here.begin(), here.end(), [](const Hazard* a, const Hazard* b) { return a->kind < b->kind; });
  for (const Hazard* h : here) m.announcements.push_back(announce_hazard(t, *h));
  if (step == steps - 1) m.result = lesson_result(view);
  return m;
}

std::vector<std::string> lesson_result(const TraceView& view) {
  const Trace& t = view.trace;
  const std::size_t hazards = view.hazards.size();
  const std::string counted = std::to_string(hazards) + (hazards == 1 ? " hazard" : " hazards");
  if (view.outcome == Outcome::Correct) {
    std::vector<std::string> said{"Result: correct. All " + std::to_string(t.meta.n) + " outputs equal the sequential scan's."};
    if (hazards)
      said.push_back("The run had " + counted + ": under this schedule they did not change the result; under another they can.");
    return said;
  }
  if (view.outcome != Outcome::Wrong)
    return {"Result: " + std::string(outcome_name(view.outcome)) + ". The run did not finish its scan."};
  const Correctness c = check_result(t);
  std::vector<std::string> said{"Result: wrong. " + std::to_string(c.wrong.size()) + " of " + std::to_string(t.meta.n) +
                                " outputs differ from the sequential scan."};
  for (std::size_t i = 0; i < c.wrong.size() && i < kWrongOutputsNamed; ++i) {
    const auto at = static_cast<std::size_t>(c.wrong[i]);
    said.push_back("output[" + std::to_string(at) + "] is " + format_value(t.meta.type, t.result.output[at]) + ", expected " +
                   format_value(t.meta.type, c.reference[at]) + ".");
  }
  if (c.wrong.size() > kWrongOutputsNamed) said.push_back("and " + std::to_string(c.wrong.size() - kWrongOutputsNamed) + " more.");
  const auto race = std::find_if(view.hazards.begin(), view.hazards.end(), [](const Hazard& h) { return h.kind == HazardKind::RAW; });
  if (race != view.hazards.end())
    said.push_back("Why: a race in step " + std::to_string(race->step + 1) + ", at " + hazard_detail(t, *race) + ".");
  else if (hazards)
    said.push_back("Why: the run had " + counted + " and no read of an overwritten value; the outputs were overwritten.");
  else
    said.push_back("Why: no race was seen, so the kernel computes something other than the scan.");
  return said;
}

}  // namespace sv
