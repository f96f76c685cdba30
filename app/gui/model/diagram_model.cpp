// The dataflow diagram as data, and the step narration.
#include "gui/model/diagram_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "core/values.hpp"
#include "embedded.hpp"

namespace sv::gui {

// ---- palettes ----
// Chosen so that every pair a reader must tell apart (race from written and plain cells, the wrong
// outline from the fills, left from right arrows, arrows and borders from the background) stays at
// least 20 CIE76 units apart under deuteranopia, protanopia and tritanopia too (tests/gui/test_colour_vision.cpp).
// Orange means one thing, the left operand: invalid intervals are violet, wrong values purple.

const Palette& palette_light() {
  static const Palette p{0xFFFFFFFF, 0xF8F9FAFF, 0xE9ECEFFF, 0xB2F2BBFF, 0xE03131FF, 0xB197FCFF, 0x495057FF,
                         0x212529FF, 0x868E96FF, 0xF08C00FF, 0x1C7ED6FF, 0xADB5BDFF, 0x2B8A3EFF, 0x9C36B5FF};
  return p;
}
const Palette& palette_dark() {
  static const Palette p{0x1E1E24FF, 0x2C2E33FF, 0x25262BFF, 0x2A6F58FF, 0xDF3020FF, 0x5F3DC4FF, 0x909296FF,
                         0xF1F3F5FF, 0x909296FF, 0xFFA94DFF, 0x4DABF7FF, 0x5C5F66FF, 0x69DB7CFF, 0xE599F7FF};
  return p;
}
const Palette& palette_high_contrast() {
  static const Palette p{0x000000FF, 0x000000FF, 0x333333FF, 0x006B50FF, 0xFF0000FF, 0x7000A0FF, 0xFFFFFFFF,
                         0xFFFFFFFF, 0xC0C0C0FF, 0xFFFF00FF, 0x00FFFFFF, 0xA0A0A0FF, 0x00FF00FF, 0xFF00FFFF};
  return p;
}

// ---- the trace view ----

TraceView make_trace_view(Trace trace) {
  TraceView v;
  v.trace = std::move(trace);
  v.hazards = find_hazards(v.trace);
  v.edges = dataflow_edges(v.trace);
  v.metrics = compute_metrics(v.trace);
  const Correctness checked = check_result(v.trace);
  v.outcome = checked.outcome;
  v.wrong_outputs = checked.wrong.size();
  const Trace& t = v.trace;
  if (t.buffers.empty()) return v;  // nothing to draw
  // A device-wide trace records tiles, not elements: every row shows the output after a launch.
  const bool device = t.events.empty() && !t.tile_events.empty() && t.buffers.size() > 1;
  int previous = device ? 1 : t.buffers.size() > 2 ? 2 : static_cast<int>(t.buffers.size()) - 1;
  for (const Step& s : t.steps) {
    std::map<int, int> writes;
    for (std::uint64_t i = s.first_event; i < s.end_event; ++i)
      if (t.events[i].kind == EventKind::Write && t.events[i].buffer != 0) ++writes[t.events[i].buffer];
    int chosen = previous;
    int most = 0;
    for (auto [b, count] : writes)
      if (count > most) most = count, chosen = b;
    v.row_buffer.push_back(chosen);
    previous = chosen;
  }
  return v;
}

// ---- the diagram ----

Diagram build_diagram(const TraceView& view, int current, const Palette& pal, DiagramLayout L, const TraceView* race_free) {
  Diagram d;
  const Trace& t = view.trace;
  if (t.steps.empty() || t.snapshots.empty() || t.buffers.empty() || view.row_buffer.size() != t.steps.size()) return d;
  current = std::clamp(current, 0, static_cast<int>(t.snapshots.size()) - 1);
  // Wide enough for the longest label of every row up to now (x100..x163 needs more than x0).
  std::size_t longest = 0;
  for (int k = 0; k <= current; ++k) {
    const BufferSnapshot& snap = t.snapshots[k][view.row_buffer[k]];
    for (std::size_t i = 0; i < snap.values.size(); ++i)
      if (snap.defined[i]) longest = std::max(longest, format_value(t.meta.type, snap.values[i]).size());
  }
  L.cell_w = std::max(L.cell_w, L.char_w * static_cast<float>(longest) + 2 * L.margin);
  d.layout = L;

  std::set<std::pair<int, std::int64_t>> active;
  for (std::uint64_t i = t.steps[current].first_event; i < t.steps[current].end_event; ++i) {
    const Event& e = t.events[i];
    if (e.kind == EventKind::Write && e.a.kind == Origin::OpResult) active.insert({e.buffer, e.index});
  }
  std::map<std::pair<int, std::int64_t>, std::vector<int>> hazard_cells;
  for (std::size_t h = 0; h < view.hazards.size(); ++h)
    if (view.hazards[h].step == current && view.hazards[h].kind == HazardKind::RAW)
      hazard_cells[{view.hazards[h].buffer, view.hazards[h].index}].push_back(static_cast<int>(h));

  std::int64_t columns = 0;
  std::vector<double> heat_values;  // every cell's, placed in the diagram's range at the end
  for (int k = 0; k <= current; ++k) {
    const int b = view.row_buffer[k];
    DiagramRow row;
    row.step = k;
    row.buffer = b;
    row.y = L.margin + k * (L.cell_h + L.row_gap);
    row.label = t.steps[k].label() + " | " + t.buffers[b].name;
    if (const auto block = step_block(t, static_cast<std::size_t>(k))) row.label = "block " + std::to_string(*block) + ", " + row.label;
    const BufferSnapshot& snap = t.snapshots[k][b];
    const bool output_row = t.buffers[b].name == "output";
    // The race-free run's snapshot of its row at this step, where the two line up.
    const BufferSnapshot* twin = nullptr;
    if (race_free && k < static_cast<int>(race_free->trace.snapshots.size()) &&
        race_free->row_buffer.size() == race_free->trace.snapshots.size()) {
      const BufferSnapshot& other = race_free->trace.snapshots[k][race_free->row_buffer[k]];
      if (other.values.size() == snap.values.size() && other.defined.size() == snap.defined.size()) twin = &other;
    }
    row.first_cell = d.cells.size();
    row.cell_count = snap.values.size();
    d.rows.push_back(row);
    columns = std::max<std::int64_t>(columns, static_cast<std::int64_t>(snap.values.size()));
    for (std::size_t i = 0; i < snap.values.size(); ++i) {
      DiagramCell c;
      c.row = k;
      c.column = static_cast<int>(i);
      c.x = L.margin + L.label_w + static_cast<float>(i) * L.cell_w;
      c.y = row.y;
      c.w = L.cell_w;
      c.h = L.cell_h;
      c.label = snap.defined[i] ? format_value(t.meta.type, snap.values[i]) : "";
      c.segment_head = i < t.meta.flags.size() && t.meta.flags[i];
      c.fill = snap.defined[i] ? pal.cell : pal.cell_undefined;
      if (snap.defined[i] && t.meta.type == ValueType::Interval && snap.values[i].as<Interval>().is_invalid())
        c.fill = pal.cell_invalid;
      // The output against the reference, whatever the operator (an interval may look well formed
      // and still be the wrong range).
      c.wrong = output_row && snap.defined[i] && i < t.result.reference.size() && snap.values[i] != t.result.reference[i];
      if (c.wrong) c.expected = format_value(t.meta.type, t.result.reference[i]);
      if (twin && !c.wrong && snap.defined[i] && twin->defined[i] && snap.values[i] != twin->values[i]) {
        c.wrong = true;
        c.expected = format_value(t.meta.type, twin->values[i]);
      }
      if (k == current) {
        c.active = active.count({b, static_cast<std::int64_t>(i)}) > 0;
        if (c.active) c.fill = pal.cell_active;
        auto h = hazard_cells.find({b, static_cast<std::int64_t>(i)});
        if (h != hazard_cells.end()) {
          c.hazard = true;
          c.hazards = h->second;
          c.fill = pal.cell_hazard;
        }
      }
      d.cells.push_back(std::move(c));
    }
    // Heat for the folded (heatmap) view: each cell's value, placed within the diagram's range below.
    std::vector<double> v(snap.values.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); ++i) {
      const Payload& p = snap.values[i];
      switch (t.meta.type) {
        case ValueType::I32: v[i] = p.as<std::int32_t>(); break;
        case ValueType::I64: v[i] = static_cast<double>(p.as<std::int64_t>()); break;
        case ValueType::F32: v[i] = p.as<float>(); break;
        case ValueType::F64: v[i] = p.as<double>(); break;
        case ValueType::Interval: {
          const Interval iv = p.as<Interval>();
          v[i] = iv.is_range() ? iv.hi - iv.lo + 1 : 0;
          break;
        }
      }
      if (!snap.defined[i] || !std::isfinite(v[i])) v[i] = 0;
    }
    heat_values.insert(heat_values.end(), v.begin(), v.end());
  }
  if (!heat_values.empty()) {
    const auto [lo, hi] = std::minmax_element(heat_values.begin(), heat_values.end());
    d.heat_lo = *lo, d.heat_hi = *hi;
    d.heat_of_lengths = t.meta.type == ValueType::Interval;
    for (std::size_t i = 0; i < d.cells.size(); ++i)
      d.cells[i].heat = *hi > *lo ? static_cast<float>((heat_values[i] - *lo) / (*hi - *lo)) : 0.5f;
  }
  // Arrows of the current step: from the operand's cell in the row above to the written cell.
  if (current > 0) {
    const float y_from = d.rows[current - 1].y + L.cell_h;
    const float y_to = d.rows[current].y;
    for (const Edge& e : view.edges) {
      if (e.step != current || e.to_buffer != view.row_buffer[current]) continue;
      DiagramEdge de;
      de.x0 = L.margin + L.label_w + (static_cast<float>(e.from_index) + 0.5f) * L.cell_w;
      de.x1 = L.margin + L.label_w + (static_cast<float>(e.to_index) + 0.5f) * L.cell_w;
      de.y0 = y_from;
      de.y1 = y_to;
      de.role = e.role;
      de.color = e.role == EdgeRole::Left ? pal.edge_left : e.role == EdgeRole::Right ? pal.edge_right : pal.edge_copy;
      d.edges.push_back(de);
    }
  }
  d.width = 2 * L.margin + L.label_w + static_cast<float>(columns) * L.cell_w;
  d.height = 2 * L.margin + static_cast<float>(current + 1) * (L.cell_h + L.row_gap) - L.row_gap;
  return d;
}

// ---- narration ----

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

}  // namespace sv::gui
