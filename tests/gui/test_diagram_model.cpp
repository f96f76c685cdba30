// The diagram model as a person reads it (the cells, arrows, marks and narration of each step), its
// SVG export, and the wrong and differing cells marked against the reference and the twin kernel.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <regex>
#include <set>

#include "../tests/helpers.hpp"
#include "gui_test.hpp"
#include "gui/draw/diagram_svg.hpp"
#include "gui/draw/render.hpp"
#include "gui/draw/canvas.hpp"
#include "algorithms.hpp"
#include "gui/model/diagram_model.hpp"
#include "mirror/narration.hpp"
#include "emulator/record.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

TEST_CASE("diagram model: kogge-stone-double-buffer n = 8 at stride 2") {
  const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone-double-buffer", 8));
  int step = -1;
  for (std::size_t k = 0; k < v.trace.steps.size(); ++k)
    if (v.trace.steps[k].label() == "stride = 2") step = static_cast<int>(k);
  REQUIRE(step == 2);
  const Diagram d = build_diagram(v, step, palette_light());
  REQUIRE(d.rows.size() == 3);
  CHECK(d.cells.size() == 3 * 8);
  CHECK(v.trace.buffers[d.rows[1].buffer].name == "buffer2_s");
  CHECK(v.trace.buffers[d.rows[2].buffer].name == "buffer1_s");
  std::set<int> active;
  for (const DiagramCell& c : d.cells)
    if (c.row == 2 && c.active) active.insert(c.column);
  CHECK(active == std::set<int>{2, 3, 4, 5, 6, 7});
  int left = 0, right = 0, copy = 0;
  const DiagramLayout& L = d.layout;
  for (const DiagramEdge& e : d.edges) {
    const int from = static_cast<int>((e.x0 - L.margin - L.label_w) / L.cell_w);
    const int to = static_cast<int>((e.x1 - L.margin - L.label_w) / L.cell_w);
    if (e.role == EdgeRole::Left) {
      CHECK(from == to - 2);
      ++left;
    } else if (e.role == EdgeRole::Right) {
      CHECK(from == to);
      ++right;
    } else {
      CHECK(to < 2);
      ++copy;
    }
  }
  CHECK(left == 6);
  CHECK(right == 6);
  CHECK(copy == 2);
  CHECK(narrate_step(v, step).find("Threads 2..7") != std::string::npos);
}

TEST_CASE("narration: one thread, one operation and one copy are said in the singular") {
  // Kogge-Stone double buffer: at n = 2 thread 1 adds and thread 0 copies; at n = 8 (stride 2) several do.
  const std::vector<std::pair<std::int64_t, std::vector<std::string>>> cases = {
      {2, {"Thread 1 adds", "thread 0 has no element 1 to its left and copies", "(1 operation, 1 copy)"}},
      {8, {"Threads 2..7 each add", "threads 0..1 have no element 2 to their left and copy", "(6 operations, 2 copies)"}},
  };
  for (const auto& [n, phrases] : cases) {
    const TraceView v = make_trace_view(sv_test::record("kogge-stone-double-buffer", n, OpKind::Sum, ValueType::I32));
    const std::string said = narrate_step(v, n == 2 ? 1 : 2);
    CAPTURE(said);
    for (const std::string& phrase : phrases) CHECK(said.find(phrase) != std::string::npos);
  }
}

TEST_CASE("narration: the operator is named as a verb, so only a sum adds") {
  // Every block algorithm's steps that apply the operator say which one: "add" for a sum,
  // "multiply" for a product, "combine (with max)" for max; no placeholder is left.
  for (const AlgorithmInfo& info : block_algorithms()) {
    CAPTURE(info.name);
    std::map<sv::OpKind, std::string> said;
    for (const auto& [op, type] : {std::pair{sv::OpKind::Sum, sv::ValueType::I32}, std::pair{sv::OpKind::Product, sv::ValueType::I64},
                                   std::pair{sv::OpKind::Max, sv::ValueType::F32}}) {
      sv::BlockRunConfig c = sv_test::config(std::string(info.name), 16, op, type);
      if (info.warp_level) c.warp = 4;
      const TraceView v = make_trace_view(sv::record_block_scan(c));
      for (std::size_t k = 0; k < v.trace.steps.size(); ++k) said[op] += narrate_step(v, static_cast<int>(k)) + "\n";
      CHECK(said[op].find('{') == std::string::npos);
    }
    const std::regex add("\\badds?\\b"), multiply("\\bmultipl(y|ies)\\b");
    CHECK(std::regex_search(said[sv::OpKind::Sum], add));
    CHECK(!std::regex_search(said[sv::OpKind::Sum], multiply));
    CHECK(std::regex_search(said[sv::OpKind::Product], multiply));
    CHECK(!std::regex_search(said[sv::OpKind::Product], add));
    CHECK(said[sv::OpKind::Max].find("(with max)") != std::string::npos);
    CHECK(!std::regex_search(said[sv::OpKind::Max], add));
  }
}

TEST_CASE("diagram model: the warp-level scans at warps of 4, shuffle arrows and their narration") {
  for (const char* algo : {"warp-brent-kung", "warp-raking", "warp-sklansky"}) {
    CAPTURE(algo);
    sv::BlockRunConfig c = sv_test::config(algo, 16, sv::OpKind::Interval, sv::ValueType::Interval);
    c.warp = 4;
    const TraceView v = make_trace_view(sv::record_block_scan(c));
    for (std::size_t k = 0; k < v.trace.steps.size(); ++k) {
      const std::string text = narrate_step(v, static_cast<int>(k));
      CAPTURE(text);
      CHECK(text != v.trace.steps[k].label() + ".");  // the algorithm's own line, not the fallback
      CHECK(text.find('{') == std::string::npos);
    }
  }
  // warp-brent-kung, warp-scan +2: lanes 2, 3 of each warp take lane - 2's cell of the row above
  // (the shuffle) and their own; lanes 0, 1 do nothing.
  sv::BlockRunConfig c = sv_test::config("warp-brent-kung", 16, sv::OpKind::Interval, sv::ValueType::Interval);
  c.warp = 4;
  const TraceView v = make_trace_view(sv::record_block_scan(c));
  REQUIRE(v.trace.steps[2].label() == "warp-scan +2");
  const Diagram d = build_diagram(v, 2, palette_light());
  std::set<int> active;
  for (const DiagramCell& cell : d.cells)
    if (cell.row == 2 && cell.active) active.insert(cell.column);
  CHECK(active == std::set<int>{2, 3, 6, 7, 10, 11, 14, 15});
  int left = 0, right = 0;
  const DiagramLayout& L = d.layout;
  for (const DiagramEdge& e : d.edges) {
    const int from = static_cast<int>((e.x0 - L.margin - L.label_w) / L.cell_w);
    const int to = static_cast<int>((e.x1 - L.margin - L.label_w) / L.cell_w);
    if (e.role == EdgeRole::Left) {
      CHECK(from == to - 2);
      ++left;
    } else if (e.role == EdgeRole::Right) {
      CHECK(from == to);
      ++right;
    }
  }
  CHECK(left == 8);
  CHECK(right == 8);
  CHECK(narrate_step(v, 2).find("Warp scan, shuffle offset 2: inside each warp, threads 2..3, 6..7, 10..11, 14..15") !=
        std::string::npos);
}

TEST_CASE("diagram model: the hazard cells are exactly the analysis' RAW cells") {
  const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone-racy", 64, "in-order"));
  for (int step = 1; step + 1 < static_cast<int>(v.trace.steps.size()); ++step) {
    std::set<std::int64_t> expected, drawn;
    for (const Hazard& h : v.hazards)
      if (h.step == step && h.kind == HazardKind::RAW) expected.insert(h.index);
    const Diagram d = build_diagram(v, step, palette_light());
    for (const DiagramCell& c : d.cells) {
      if (!c.hazard) continue;
      CHECK(c.row == step);
      drawn.insert(c.column);
    }
    CHECK(drawn == expected);
  }
}

TEST_CASE("SVG export: arrowheads in SVG 1.1, each in its arrow's colour") {
  const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone-double-buffer", 8));
  const Diagram d = build_diagram(v, 2, palette_light());
  const std::string svg = diagram_svg(d, palette_light(), "t");
  CHECK(svg.find("context-stroke") == std::string::npos);
  const std::regex line("<line class=\"edge [a-z]+\"[^>]* stroke=\"#([0-9a-f]{6})\"[^>]* marker-end=\"url\\(#arrow-([0-9a-f]{6})\\)\"");
  int arrows = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it) {
    ++arrows;
    const std::string stroke = (*it)[1], marker = (*it)[2];
    CHECK(stroke == marker);
    CHECK(svg.find("<marker id=\"arrow-" + marker + "\"") != std::string::npos);
    CHECK(std::regex_search(svg, std::regex("<marker id=\"arrow-" + marker + "\"[^>]*><path [^>]*fill=\"#" + marker + "\"")));
  }
  CHECK(arrows == static_cast<int>(d.edges.size()));
  CHECK(arrows > 8);
}

TEST_CASE("SVG export: the interval run carries the slides' labels in the right cells") {
  const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone", 8));
  const std::string svg = diagram_svg(build_diagram(v, 3, palette_light()), palette_light(), "t");
  // Slide 12's last row: x0, x0..x1, x0..x2, ..., x0..x7 in row 3 (after stride 4).
  for (int col = 0; col < 8; ++col) {
    const std::string label = col == 0 ? "x0" : "x0..x" + std::to_string(col);
    const std::regex cell("data-row=\"3\" data-column=\"" + std::to_string(col) + "\"><rect[^>]*/><text[^>]*>" + label + "</text>");
    CHECK(std::regex_search(svg, cell));
  }
  const std::regex row2("data-row=\"2\" data-column=\"5\"><rect[^>]*/><text[^>]*>x2..x5</text>");
  CHECK(std::regex_search(svg, row2));
}

TEST_CASE("wrong outputs: outlined against the reference for every operator, in the model, the SVG and the PNG") {
  // The racy kernel at n = 8 with every thread on its own: its sum and its interval run go wrong.
  for (const auto& [op, type] : {std::pair{OpKind::Sum, ValueType::I32}, std::pair{OpKind::Interval, ValueType::Interval},
                                 std::pair{OpKind::Max, ValueType::F64}}) {
    CAPTURE(op_name(op));
    BlockRunConfig c = sv_test::config("kogge-stone-racy", 8, op, type);
    c.warp = 1;
    const TraceView v = make_trace_view(record_block_scan(c));
    const int last = static_cast<int>(v.trace.steps.size()) - 1;
    const Diagram d = build_diagram(v, last, palette_light());
    std::int64_t expected = 0, marked = 0;
    for (std::size_t i = 0; i < v.trace.result.output.size(); ++i) expected += v.trace.result.output[i] != v.trace.result.reference[i];
    for (const DiagramCell& cell : d.cells) {
      marked += cell.wrong;
      if (cell.wrong) CHECK(v.trace.buffers[d.rows[cell.row].buffer].name == "output");
    }
    if (op != OpKind::Max) CHECK(expected > 0);
    CHECK(marked == expected);
    const std::string svg = diagram_svg(d, palette_light(), "t");
    std::int64_t outlined = 0;
    for (std::size_t at = svg.find("class=\"wrong\""); at != std::string::npos; at = svg.find("class=\"wrong\"", at + 1)) ++outlined;
    CHECK(outlined == expected);
  }
  // A race-free kernel: nothing outlined.
  const TraceView right = make_trace_view(sv_test::record_interval("kogge-stone-double-buffer", 8));
  const Diagram none = build_diagram(right, static_cast<int>(right.trace.steps.size()) - 1, palette_light());
  CHECK(std::none_of(none.cells.begin(), none.cells.end(), [](const DiagramCell& cell) { return cell.wrong; }));

  // In the PNG each wrong output cell carries the outline colour; the right ones do not.
  Dir dir;
  BlockRunConfig c = sv_test::config("kogge-stone-racy", 8, OpKind::Sum, ValueType::I32);
  c.warp = 1;
  const Trace t = saved(record_block_scan(c), dir.path / "r.json");
  REQUIRE(run_under_xvfb("render '" + (dir.path / "r.json").string() + "' --out '" + (dir.path / "r.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "r.png");
  const TraceView v = make_trace_view(t);
  const Diagram d = build_diagram(v, static_cast<int>(t.steps.size()) - 1, palette_light());
  const Palette& pal = palette_light();
  int wrong_cells = 0, outlined_right = 0;
  for (const DiagramCell& cell : d.cells) {
    if (v.trace.buffers[d.rows[cell.row].buffer].name != "output") continue;
    int hits = 0;
    for (int y = static_cast<int>(cell.y + kRenderTitleHeight); y < static_cast<int>(cell.y + cell.h + kRenderTitleHeight); ++y)
      for (int x = static_cast<int>(cell.x); x < static_cast<int>(cell.x + cell.w); ++x) hits += near(img.at(x, y), pal.wrong, 30);
    if (cell.wrong) {
      ++wrong_cells;
      CHECK(hits > 20);
    } else {
      outlined_right += hits > 0;
    }
  }
  CHECK(wrong_cells == 6);
  CHECK(outlined_right == 0);
}

TEST_CASE("wrong cells side by side: the racy kernel's cells that differ from the double-buffered kernel's at each step") {
  BlockRunConfig c = sv_test::config("kogge-stone-racy", 8, OpKind::Interval, ValueType::Interval);
  c.warp = 1;
  const TraceView racy = make_trace_view(record_block_scan(c));
  const TraceView right = make_trace_view(sv_test::record_interval("kogge-stone-double-buffer", 8));
  REQUIRE(racy.trace.steps.size() == right.trace.steps.size());
  for (int step = 1; step + 1 < static_cast<int>(racy.trace.steps.size()); ++step) {
    CAPTURE(step);
    const Diagram alone = build_diagram(racy, step, palette_light());
    const Diagram paired = build_diagram(racy, step, palette_light(), {}, &right);
    const auto& mine = racy.trace.snapshots[step][racy.row_buffer[step]];
    const auto& theirs = right.trace.snapshots[step][right.row_buffer[step]];
    int differ = 0;
    for (std::size_t i = 0; i < mine.values.size(); ++i) differ += mine.values[i] != theirs.values[i];
    int marked = 0;
    for (const DiagramCell& cell : paired.cells) {
      if (cell.row != step || !cell.wrong) continue;
      ++marked;
      CHECK(cell.expected == format_value(ValueType::Interval, theirs.values[static_cast<std::size_t>(cell.column)]));
    }
    CHECK(differ > 0);  // the race changes the very step it happens in
    CHECK(marked == differ);
    // Alone, the racy run's middle rows are not judged (only its output is).
    CHECK(std::none_of(alone.cells.begin(), alone.cells.end(), [&](const DiagramCell& cell) { return cell.row == step && cell.wrong; }));
  }
}
