// The dataflow diagram as data.
#include "gui/model/diagram_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "core/values.hpp"

namespace sv::gui {

// ---- palettes ----
// Chosen so that every pair a reader must tell apart (race from written and plain cells, the wrong
// outline from the fills, left from right arrows, arrows and borders from the background) stays at
// least 20 CIE76 units apart under deuteranopia, protanopia and tritanopia too (tests/gui/test_colour_vision.cpp).
// Orange means one thing, the left operand: invalid intervals are violet, wrong values purple.
// Every cell's fill is 3:1 or more against the cell borders around it, and its text 4.5:1 against the
// fill and the race hatch (WCAG 2.1's 1.4.11 and 1.4.3), as tests/gui/test_contrast.py measures
// from the window's pixels.
const Palette& palette_light() {
  static const Palette p{0xFFFFFFFF, 0xF8F9FAFF, 0xE9ECEFFF, 0xB2F2BBFF, 0xF86060FF, 0xB197FCFF, 0x343A40FF,
                         0x212529FF, 0x868E96FF, 0xC25E00FF, 0x1C7ED6FF, 0x868E96FF, 0x2B8A3EFF, 0x9C36B5FF};
  return p;
}
const Palette& palette_dark() {
  static const Palette p{0x1E1E24FF, 0x2C2E33FF, 0x25262BFF, 0x2A6F58FF, 0xD00808FF, 0x5F3DC4FF, 0xCED4DAFF,
                         0xF1F3F5FF, 0x909296FF, 0xFFA94DFF, 0x4DABF7FF, 0x909296FF, 0x69DB7CFF, 0xE599F7FF};
  return p;
}
const Palette& palette_high_contrast() {
  static const Palette p{0x000000FF, 0x000000FF, 0x333333FF, 0x006B50FF, 0xCC0000FF, 0x7000A0FF, 0xFFFFFFFF,
                         0xFFFFFFFF, 0xC0C0C0FF, 0xFFFF00FF, 0x00FFFFFF, 0xA0A0A0FF, 0x00FF00FF, 0xFF00FFFF};
  return p;
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

}  // namespace sv::gui
