// The GUI as a person sees it: the diagram model (what is drawn), the SVG export, PNGs rendered by
// the real OpenGL code under Xvfb with pixels that prove the picture, the headless message, and a
// 300-frame run of the window with every panel open and the timeline playing.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <cmath>
#include <iterator>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <sys/wait.h>

#include "../tests/helpers.hpp"
#include "../tests/image.hpp"
#include "gui/app.hpp"
#include "gui/canvas.hpp"
#include "algorithms.hpp"
#include "bench_result.hpp"
#include "chart.hpp"
#include "gpu/executor.hpp"
#include "gui/diagram_model.hpp"
#include "gui/divergence_panel.hpp"
#include "gui/lesson.hpp"
#include "gui/lookback_view.hpp"
#include "gui/pipeline_scene.hpp"
#include "embedded.hpp"
#include "gui/timing_panel.hpp"
#include "svg.hpp"
#include "emulator/record.hpp"
#include "trace/trace_json.hpp"


using namespace sv;
using namespace sv::gui;
using sv_test::Image;
using sv_test::load_png;
using sv_test::near;
namespace fs = std::filesystem;

namespace {

struct Dir {
  fs::path path = fs::temp_directory_path() / ("scanviz-gui-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
};

// Settings of our own, so what the user saved in ~/.config/scanviz does not change the pictures.
const std::string& config_env() {
  static const std::string env = [] {
    const fs::path dir = fs::temp_directory_path() / ("scanviz-gui-config-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return "XDG_CONFIG_HOME='" + dir.string() + "' ";
  }();
  return env;
}

// Runs scanviz under Xvfb (a fresh virtual display each time); returns scanviz's exit code. The code
// is scanviz's own, written by a script that xvfb-run runs: xvfb-run exits 5 of its own when it
// cannot remove its temporary folder, as happens when the program exits before the server is up.
int run_under_xvfb(const std::string& args, std::string* out = nullptr) {
  const std::string stem = (fs::temp_directory_path() / ("scanviz-gui-" + std::to_string(::getpid()))).string();
  const fs::path log = stem + "-out", script = stem + "-run.sh", code = stem + "-code";
  std::ofstream(script) << "'" SCANVIZ_EXE "' " << args << "\necho $? >'" << code.string() << "'\n";
  fs::remove(code);
  const std::string cmd = config_env() + "xvfb-run -a -s '-screen 0 1920x1080x24' sh '" + script.string() + "' >'" +
                          log.string() + "' 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream f(log);
  std::string text, line;
  while (std::getline(f, line))
    if (line != "xvfb-run: error: problem while cleaning up temporary directory") text += line + "\n";
  if (out) *out = text;
  int exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (std::ifstream c(code); c) c >> exit_code;
  for (const fs::path& p : {log, script, code}) fs::remove(p);
  return exit_code;
}

Trace saved(const Trace& t, const fs::path& path) {
  save_trace(path, t);
  return t;
}

}  // namespace

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

TEST_CASE("render PNG: kogge-stone-double-buffer n = 8, step 2, as the slide draws it") {
  Dir dir;
  const Trace t = saved(sv_test::record_interval("kogge-stone-double-buffer", 8), dir.path / "t.json");
  std::string out;
  REQUIRE(run_under_xvfb("render '" + (dir.path / "t.json").string() + "' --step 2 --out '" + (dir.path / "s.png").string() + "'", &out) == 0);
  const Image img = load_png(dir.path / "s.png");
  const TraceView v = make_trace_view(t);
  const Diagram d = build_diagram(v, 2, palette_light());
  const Palette& pal = palette_light();
  const float top = kRenderTitleHeight;
  // The number of cell boxes in row 2: border-coloured runs along a line through the row.
  const int y = static_cast<int>(d.rows[2].y + top + 4);
  int borders = 0;
  bool in_border = false;
  for (int x = 0; x < img.w; ++x) {
    const bool b = near(img.at(x, y), pal.border, 40);
    if (b && !in_border) ++borders;
    in_border = b;
  }
  CHECK(borders == 9);  // 8 boxes side by side share 9 vertical edges
  // Active-thread marks: cells 2..7 of row 2 filled with the active colour, 0 and 1 not.
  for (const DiagramCell& c : d.cells) {
    if (c.row != 2) continue;
    const std::uint32_t px = img.at(static_cast<int>(c.x + 4), static_cast<int>(c.y + top + 4));
    CAPTURE(c.column);
    CHECK(near(px, pal.cell_active) == (c.column >= 2));
  }
  // The arrows: a quarter of the way along each arrow of the model, the picture has that arrow's
  // colour (left operand orange, right operand blue, copy grey), so each joins the right columns.
  int arrows = 0;
  for (const DiagramEdge& e : d.edges) {
    const int x = static_cast<int>(e.x0 + 0.25f * (e.x1 - e.x0)), y = static_cast<int>(e.y0 + 0.25f * (e.y1 - e.y0) + top);
    CAPTURE(x);
    CAPTURE(y);
    CHECK(near(img.at(x, y), e.color, 30));
    ++arrows;
  }
  CHECK(arrows == 14);
  // And no arrow ends in columns 0 and 1 other than the copies: left of column 2, below the row
  // above, the only colour besides the background is the copies' grey.
  const DiagramLayout& L = d.layout;
  const int y_arrive = static_cast<int>(d.rows[2].y + top - 6);
  for (int x = static_cast<int>(L.margin + L.label_w); x < static_cast<int>(L.margin + L.label_w + 2 * L.cell_w); ++x) {
    CHECK_FALSE(near(img.at(x, y_arrive), pal.edge_left, 30));
    CHECK_FALSE(near(img.at(x, y_arrive), pal.edge_right, 30));
  }
}

TEST_CASE("render PNG: the racy kernel's hazard colour sits exactly on the cells the analysis names") {
  Dir dir;
  // n = 16: narrower than a slide, so the PNG draws the diagram one to one (wider ones wrap).
  BlockRunConfig c = sv_test::config("kogge-stone-racy", 16, OpKind::Interval, ValueType::Interval, "in-order");
  c.warp = 1;  // every thread on its own: the race shows at n = 16
  const Trace t = saved(record_block_scan(c), dir.path / "r.json");
  const TraceView v = make_trace_view(t);
  const int step = 1;
  std::set<int> raw;
  for (const Hazard& h : v.hazards)
    if (h.step == step && h.kind == HazardKind::RAW) raw.insert(static_cast<int>(h.index));
  REQUIRE_FALSE(raw.empty());
  REQUIRE(run_under_xvfb("render '" + (dir.path / "r.json").string() + "' --step 1 --out '" + (dir.path / "r.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "r.png");
  const Diagram d = build_diagram(v, step, palette_light());
  int checked = 0;
  for (const DiagramCell& c : d.cells) {
    const std::uint32_t px = img.at(static_cast<int>(c.x + 4), static_cast<int>(c.y + kRenderTitleHeight + 4));
    CAPTURE(c.row);
    CAPTURE(c.column);
    // The race colour, or its hatch's stripes.
    const bool race = near(px, palette_light().cell_hazard) || near(px, hatch_color(palette_light()));
    CHECK(race == (c.row == step && raw.count(c.column) > 0));
    ++checked;
  }
  CHECK(checked == 2 * 16);
}

TEST_CASE("headless: scanviz without a display says how to render instead, and exits 2") {
  Dir dir;
  const std::string cmd = "env -u DISPLAY -u WAYLAND_DISPLAY '" SCANVIZ_EXE "' >/dev/null 2>'" +
                          (dir.path / "headless.txt").string() + "'";
  const int status = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(status) == 2);
  std::ifstream f(dir.path / "headless.txt");
  std::string line, extra;
  std::getline(f, line);
  CHECK(line.find("scanviz render") != std::string::npos);
  CHECK_FALSE(std::getline(f, extra));
}

TEST_CASE("window: 300 frames with every panel, side by side, playing: no GL error, GL objects flat") {
  std::string out;
  const int code = run_under_xvfb("gui --frames 300 --play --side-by-side --n 64 --algo kogge-stone-double-buffer --size 1600x900 --report-frames "
                                 "--charts --timing --divergence --lookback default", &out);
  CHECK(code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("GL objects at frame 10 (\\d+), at the end (\\d+)")));
  CHECK(std::stoi(m[1]) > 0);
  CHECK(m[1] == m[2]);
  CHECK(out.find("OpenGL error") == std::string::npos);
}

TEST_CASE("window: frames where nothing changes rebuild nothing, a 1024-wide diagram folds to a few hundred instances, and what the look-back view hides is clipped") {
  struct Report {
    int instances = -1, diagram_builds = -1, scene_builds = -1, hidden_clipped = -1;
  };
  auto run = [](int frames) {
    std::string out;
    CHECK(run_under_xvfb("gui --frames " + std::to_string(frames) +
                             " --size 1600x900 --report-frames --algo kogge-stone-double-buffer --n 1024 --lookback 10000-tiles",
                         &out) == 0);
    std::smatch m;
    Report r;
    if (std::regex_search(out, m, std::regex("diagram instances (\\d+), diagram builds (\\d+), look-back scene builds (\\d+), "
                                             "hidden draws clipped (\\d+)")))
      r = {std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4])};
    CHECK(out.find("CPU median") != std::string::npos);
    return r;
  };
  const Report early = run(12), late = run(120);
  // The first frames settle the layout (fit, the scroll bar); after that the same picture is not rebuilt.
  CHECK(late.diagram_builds == 1);
  CHECK(late.scene_builds == early.scene_builds);
  CHECK(late.scene_builds >= 3);  // chained, decoupled look-back, reduce-then-scan
  CHECK(late.scene_builds <= 6);
  // 11 rows of 1024 cells under a pixel wide each: one quad a row, the store step's arrows one band.
  CHECK(late.instances > 0);
  CHECK(late.instances < 400);
  // The panels under the look-back view are drawn only where they show around it.
  CHECK(late.hidden_clipped > 0);
}

TEST_CASE("window: n changed with the slider is recorded off the frame, and a headless run's last frame shows the new trace") {
  // A click at the right end of the n slider (1600x900, font scale 1) asks for n = 1024 in the
  // next-to-last frame; the recording takes longer than a frame, so the last frame waits for it.
  std::string out;
  REQUIRE(run_under_xvfb("gui --frames 7 --size 1600x900 --report-frames --algo kogge-stone-double-buffer --n 8 "
                         "--keys 'wait:2 click:232,175'",
                         &out) == 0);
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex("diagram instances (\\d+)")));
  CAPTURE(out);
  CHECK(std::stoi(m[1]) == 1);  // n = 1024's load row, folded to one quad; n = 8 draws 8 cells
}

TEST_CASE("clip_hidden_draws: a draw under a later opaque clear keeps exactly the pixels that show, each once") {
  ImGuiContext* context = ImGui::CreateContext();
  ImDrawList under(ImGui::GetDrawListSharedData()), over(ImGui::GetDrawListSharedData());
  for (ImDrawList* l : {&under, &over}) {
    l->_ResetForNewFrame();
    l->PushClipRect(ImVec2(0, 0), ImVec2(200, 100));
  }
  under.AddRectFilled(ImVec2(0, 0), ImVec2(200, 100), IM_COL32_WHITE);
  const unsigned elements = under.CmdBuffer[0].ElemCount;
  add_solid_rect(&over, ImVec2(50, 20), ImVec2(150, 80), 0x336699FF);
  add_solid_rect(&over, ImVec2(0, 0), ImVec2(10, 10), 0x336699FF);  // too small to hide anything
  ImDrawData dd;
  dd.Valid = true;
#if IMGUI_VERSION_NUM >= 18980  // CmdLists became an ImVector in Dear ImGui 1.89.8 (Ubuntu 24.04 ships 1.90)
  dd.AddDrawList(&under);
  dd.AddDrawList(&over);
#else
  ImDrawList* lists[] = {&under, &over};
  dd.CmdLists = lists;
  dd.CmdListsCount = 2;
#endif
  dd.DisplaySize = ImVec2(200, 100);
  dd.FramebufferScale = ImVec2(1, 1);
  CHECK(clip_hidden_draws(&dd) == 1);
  int inside = 0, outside_once = 0;
  for (int y = 0; y < 100; ++y)
    for (int x = 0; x < 200; ++x) {
      int drawn = 0;
      for (const ImDrawCmd& c : under.CmdBuffer)
        if (c.ElemCount == elements && x + 0.5f > c.ClipRect.x && x + 0.5f < c.ClipRect.z && y + 0.5f > c.ClipRect.y && y + 0.5f < c.ClipRect.w)
          ++drawn;
      const bool hidden = x >= 50 && x < 150 && y >= 20 && y < 80;
      if (hidden) inside += drawn;
      else outside_once += drawn == 1;
    }
  CHECK(inside == 0);
  CHECK(outside_once == 200 * 100 - 100 * 60);
  ImGui::DestroyContext(context);
}

TEST_CASE("render GIF: one frame per step, the rows appearing as the steps go, every frame with the last one's cell widths") {
  Dir dir;
  const Trace t = saved(sv_test::record_interval("kogge-stone-double-buffer", 8), dir.path / "t.json");
  REQUIRE(run_under_xvfb("render '" + (dir.path / "t.json").string() + "' --out '" + (dir.path / "a.gif").string() + "' --delay 50") == 0);
  std::ifstream f(dir.path / "a.gif", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.rfind("GIF89a", 0) == 0);
  int* delays = nullptr;
  int w = 0, h = 0, frames = 0, channels = 0;
  unsigned char* data = stbi_load_gif_from_memory(reinterpret_cast<const unsigned char*>(bytes.data()),
                                                  static_cast<int>(bytes.size()), &delays, &w, &h, &frames, &channels, 4);
  REQUIRE(data != nullptr);
  const TraceView v = make_trace_view(t);
  CHECK(frames == static_cast<int>(t.steps.size()));
  CHECK(delays[0] == 500);  // stb reports milliseconds
  const Diagram last = build_diagram(v, frames - 1, palette_light());
  CHECK(w == static_cast<int>(std::ceil(last.width)));
  auto pixel = [&](int frame, float x, float y) {
    const unsigned char* p = data + (static_cast<std::size_t>(frame) * w * h + static_cast<std::size_t>(y + kRenderTitleHeight) * w +
                                     static_cast<std::size_t>(x)) * 4;
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | 0xFF;
  };
  // Frame 0 shows only the loaded row; the last frame's row 1 has cells where frame 0 has background.
  const DiagramCell& row1 = last.cells[8 + 3];
  CHECK(near(pixel(0, row1.x + 4, row1.y + 4), palette_light().background, 12));
  CHECK(near(pixel(frames - 1, row1.x + 4, row1.y + 4), palette_light().cell, 12));
  // Every frame has the last frame's cell widths: frame 0's loaded row (x0 .. x7) is as wide as the
  // last frame's (x0 .. x0..x7), cell by cell to each one's right end.
  for (const DiagramCell& c : last.cells)
    if (c.row == 0) CHECK(near(pixel(0, c.x + c.w - 4, c.y + 4), palette_light().cell, 12));
  // Frame 2 (stride = 2): its active cells, columns 2..7 of row 2, in the active colour.
  for (const DiagramCell& c : last.cells)
    if (c.row == 2) CHECK(near(pixel(2, c.x + 4, c.y + 4), palette_light().cell_active, 12) == (c.column >= 2));
  stbi_image_free(data);
  stbi_image_free(delays);
}

namespace {
Image screenshot(const std::string& args, const fs::path& png, const std::string& env = config_env(),
                 const std::string& size = "1200x700") {
  const std::string cmd = env + " xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE "' gui --frames 4 --size " + size + " " + args +
                          " --screenshot '" + png.string() + "' >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return load_png(png);
}
int count_near(const Image& img, std::uint32_t color, int x0, int x1, int tolerance = 6, int y0 = 0, int y1 = 1 << 30) {
  int n = 0;
  for (int y = std::max(0, y0); y < std::min(img.h, y1); ++y)
    for (int x = std::max(0, x0); x < std::min(img.w, x1); ++x) n += near(img.at(x, y), color, tolerance);
  return n;
}
}  // namespace

TEST_CASE("window: a WRONG banner above a wrong run, in lecture mode and side by side, over no cell") {
  Dir dir;
  const std::uint32_t banner = palette_light().wrong;
  // Lecture mode, the racy kernel at n = 8 (every thread on its own): the banner in the title strip
  // (the top 100 px of the 1200 x 700 window, above the first row of cells), at step 1 where no
  // output is outlined yet. The double-buffered kernel: none.
  // Below the banner, only the legend's own swatch for a wrong value has its colour.
  const fs::path report = dir.path / "r.json";
  const Image racy = screenshot("--lecture --algo kogge-stone-racy --step 1 --theme light --report-layout '" + report.string() + "'",
                                dir.path / "r.png");
  const nlohmann::json legend = nlohmann::json::parse(std::ifstream(report))["canvases"][0]["legend_area"];
  CHECK(count_near(racy, banner, 0, racy.w, 6, 0, 100) > 3000);
  CHECK(count_near(racy, banner, 0, racy.w, 6, 100, static_cast<int>(double(legend["y"]))) == 0);
  const Image right = screenshot("--lecture --algo kogge-stone-double-buffer --step 1 --theme light", dir.path / "d.png");
  CHECK(count_near(right, banner, 0, right.w, 6) == 0);
  // Side by side: only the single-buffer kernel's caption (the lower one, a little above the window's
  // middle: the timeline takes the bottom) has it; the lesson's, at the top, none.
  const Image pair = screenshot("--algo kogge-stone-double-buffer --side-by-side --step 1 --theme light", dir.path / "p.png");
  CHECK(count_near(pair, banner, 0, pair.w, 6, 0, pair.h / 3) == 0);
  CHECK(count_near(pair, banner, 0, pair.w, 6, pair.h / 3, pair.h) > 2000);
}

TEST_CASE("window: side by side, the single-buffer kernel's race shows only on its side") {
  Dir dir;
  // n = 64 on the slides' input, in-order schedule, at stride 1: the racy kernel has RAW cells.
  const Image img = screenshot("--side-by-side --n 64 --step 1", dir.path / "s.png");
  // The lesson is drawn in the upper half, the racy kernel in the lower; red is the hazard colour.
  const std::uint32_t red = palette_light().cell_hazard;
  CHECK(count_near(img, red, 0, img.w, 6, 0, img.h / 2) == 0);
  CHECK(count_near(img, red, 0, img.w, 6, img.h / 2, img.h) > 0);
}

TEST_CASE("window: lecture mode and fullscreen switched on and off while it runs draw with no GL error") {
  // Each changes the font scale, which builds the fonts again; the backend's buffers must survive it.
  for (const char* keys : {"l wait:3 l wait:3", "f wait:3 f wait:3", "l wait:3 f wait:3"}) {
    CAPTURE(keys);
    std::string out;
    CHECK(run_under_xvfb(std::string("gui --frames 20 --size 1280x800 --keys '") + keys + "'", &out) == 0);
    CHECK(out.find("OpenGL error") == std::string::npos);
  }
}

TEST_CASE("window: lecture mode hides the controls and enlarges the text, and themes and font scale are kept") {
  Dir dir;
  const std::string env = "XDG_CONFIG_HOME='" + dir.path.string() + "'";
  const Image normal = screenshot("--theme light", dir.path / "n.png", env);
  const Image lecture = screenshot("--lecture", dir.path / "l.png", env);
  // Normally the lesson panel (ImGui's light window grey) fills the left of the window; in lecture
  // mode the diagram's white canvas is there instead.
  const std::uint32_t panel_grey = 0xF0F0F0FF;
  CHECK(count_near(normal, panel_grey, 0, 250, 1, 100, 400) > 20000);
  CHECK(count_near(lecture, panel_grey, 0, 250, 1, 100, 400) < 500);
  CHECK(count_near(lecture, 0xFFFFFFFF, 0, 250, 1, 100, 400) > 20000);
  // A dark theme chosen once is there the next time, without the option.
  screenshot("--theme dark --font-scale 1.5", dir.path / "d.png", env);
  std::ifstream f(dir.path / "scanviz" / "settings.json");
  const std::string settings((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(settings.find("\"dark\"") != std::string::npos);
  CHECK(settings.find("1.5") != std::string::npos);
  const Image again = screenshot("", dir.path / "a.png", env);
  CHECK(near(again.at(again.w / 2, again.h / 2), palette_dark().background, 10));
}

TEST_CASE("render: --scale 2 draws every cell of the diagram at twice the size") {
  Dir dir;
  const Trace t = saved(sv_test::record_interval("kogge-stone-double-buffer", 8), dir.path / "t.json");
  REQUIRE(run_under_xvfb("render '" + (dir.path / "t.json").string() + "' --step 4 --scale 2 --out '" + (dir.path / "s.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "s.png");
  const TraceView v = make_trace_view(t);
  const Diagram d = build_diagram(v, 4, palette_light(), DiagramLayout::scaled(2));
  CHECK(img.w == static_cast<int>(std::ceil(d.width)));
  // The last row, every one of its 8 cells, in the cell colour just inside its top-left corner.
  int cells = 0;
  for (const DiagramCell& c : d.cells)
    if (c.row == 4) cells += near(img.at(static_cast<int>(c.x + 6), static_cast<int>(c.y + 2 * kRenderTitleHeight + 6)), palette_light().cell, 8);
  CHECK(cells == 8);
}

TEST_CASE("render PNG: warp-brent-kung (Fig. 2a) with warps of 4: each warp scans its own cells at offset 1") {
  Dir dir;
  sv::BlockRunConfig c = sv_test::config("warp-brent-kung", 16, sv::OpKind::Interval, sv::ValueType::Interval);
  c.warp = 4;
  const Trace t = saved(sv::record_block_scan(c), dir.path / "t.json");
  REQUIRE(run_under_xvfb("render '" + (dir.path / "t.json").string() + "' --step 1 --out '" + (dir.path / "w.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "w.png");
  const Diagram d = build_diagram(make_trace_view(t), 1, palette_light());
  const Palette& pal = palette_light();
  // Shuffle offset 1: lanes 1..3 of every warp of 4 apply the operator, lane 0 of each does not.
  int checked = 0;
  for (const DiagramCell& cell : d.cells) {
    if (cell.row != 1) continue;
    const std::uint32_t px = img.at(static_cast<int>(cell.x + 4), static_cast<int>(cell.y + kRenderTitleHeight + 4));
    CAPTURE(cell.column);
    CHECK(near(px, pal.cell_active) == (cell.column % 4 != 0));
    ++checked;
  }
  CHECK(checked == 16);
}

TEST_CASE("File > Export: named by algorithm, n and step, beside the path field, never over an earlier export") {
  Dir dir;
  const Trace t = sv_test::record_interval("kogge-stone-racy", 8);
  const std::string beside = (dir.path / "trace.json").string();
  const std::string png = export_path(t, 1, ".png", beside);
  CHECK(png == (dir.path / "kogge-stone-racy-n8-step1.png").string());
  CHECK(export_path(t, 1, ".gif", beside) == (dir.path / "kogge-stone-racy-n8.gif").string());
  CHECK(export_path(t, 3, ".svg", beside) == (dir.path / "kogge-stone-racy-n8-step3.svg").string());
  std::ofstream(png) << "taken";
  const std::string second = export_path(t, 1, ".png", beside);
  CHECK(second == (dir.path / "kogge-stone-racy-n8-step1-2.png").string());
  std::ofstream(second) << "taken";
  CHECK(export_path(t, 1, ".png", beside) == (dir.path / "kogge-stone-racy-n8-step1-3.png").string());
}

TEST_CASE("gui: the lessons take --warp (a warp width, or the others' lockstep), and a bad width is one line, exit 2") {
  std::string out;
  CHECK(run_under_xvfb("gui --algo warp-raking --n 16 --warp 4 --frames 3", &out) == 0);
  const std::pair<const char*, const char*> bad[] = {
      {"gui --algo warp-raking --n 16 --warp 3 --frames 2", "warp width 3 is not a power of two from 2 to 32"},
      {"gui --algo warp-sklansky --n 16 --warp 32 --frames 2", "warp width 32 exceeds the block"},
      {"gui --algo warp-sklansky --n 16 --warp 0 --frames 2", "--warp 0 is not a power of two"},
      {"gui --algo sklansky --warp 3 --frames 2", "threads in lockstep 3 is not a power of two from 1 to 32"},
  };
  // The other algorithms take it as the emulator's lockstep (1: every thread on its own).
  CHECK(run_under_xvfb("gui --algo kogge-stone-racy --warp 1 --frames 3", &out) == 0);
  for (const auto& [args, what] : bad) {
    CAPTURE(args);
    CHECK(run_under_xvfb(args, &out) == 2);
    CHECK(out.find(what) != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  }
}

TEST_CASE("gui: the GPU lesson and measuring options are refused in one line where they cannot apply") {
  std::string out;
  const auto one_line = [&](const std::string& what) {
    CHECK(out.find(what) != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  };
  CHECK(run_under_xvfb("gui --executor cpu --frames 2", &out) == 2);
  one_line("--executor: the window records on the emulator or the gpu, not 'cpu'");
  CHECK(run_under_xvfb("gui --amplify 3 --frames 2", &out) == 2);
  one_line("--amplify must be a non-negative seed and comes with --executor gpu");
  CHECK(run_under_xvfb("gui --measure 2^29 --frames 2", &out) == 2);
  one_line("--measure: the timing panel measures powers of two from 2^10 to 2^28, not 536870912");
  CHECK(run_under_xvfb("gui --measure 1000 --frames 2", &out) == 2);
  one_line("not 1000");
  CHECK(run_under_xvfb("gui --op xor --frames 2", &out) == 2);
  one_line("--op: unknown operator 'xor'");
  if (probe_gpu().usable) {
    MESSAGE("a usable GPU is here: --executor gpu and --measure run (scripts/gpu-check.sh gui shows them)");
  } else {
    CHECK(run_under_xvfb("gui --executor gpu --frames 2", &out) == 2);
    one_line("--executor gpu: no usable CUDA device (");
    CHECK(run_under_xvfb("gui --measure 2^20 --frames 2", &out) == 2);
    one_line("--measure: no usable CUDA device (");
  }
}

TEST_CASE("render and gui: bad numbers and empty traces are refused, not crashed on") {
  Dir dir;
  save_trace(dir.path / "t.json", sv_test::record_interval("sklansky", 8));
  std::string out;
  CHECK(run_under_xvfb("render '" + (dir.path / "t.json").string() + "' --scale nan --out '" + (dir.path / "x.png").string() + "'", &out) == 2);
  CHECK(run_under_xvfb("gui --font-scale 0.5 --frames 2", &out) == 2);
  CHECK(run_under_xvfb("gui --algo nope --frames 2", &out) == 2);
  CHECK(out.find("unknown algorithm") != std::string::npos);
  // A lesson that cannot run is refused at the command line, not shown as an error in a window.
  CHECK(run_under_xvfb("gui --algo kogge-stone --n 5000 --frames 2", &out) == 2);
  CHECK(out.find("5000") != std::string::npos);
  CHECK(run_under_xvfb("gui --n 0 --frames 2", &out) == 2);
  // A valid trace with no buffers and no steps.
  Trace empty;
  empty.meta.algorithm = "sklansky";
  empty.meta.block = 1;
  save_trace(dir.path / "empty.json", empty);
  REQUIRE_NOTHROW(load_trace(dir.path / "empty.json"));
  CHECK(run_under_xvfb("render '" + (dir.path / "empty.json").string() + "' --out '" + (dir.path / "e.svg").string() + "'", &out) == 2);
  CHECK(run_under_xvfb("gui --trace '" + (dir.path / "empty.json").string() + "' --frames 3", &out) == 0);
  CHECK_FALSE(fs::exists(dir.path / "x.png"));
  CHECK_FALSE(fs::exists(dir.path / "e.svg"));
}

TEST_CASE("chart PNG: the work-steps charts drawn by the GUI's widget show every algorithm's colour") {
  Dir dir;
  REQUIRE(run_under_xvfb("chart work-steps --out '" + (dir.path / "c.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "c.png");
  CHECK(img.w == 1000);
  CHECK(img.h == 3 * 380);
  for (const char* algo : {"kogge-stone-double-buffer", "brent-kung", "blelloch", "sklansky"}) {
    CAPTURE(algo);
    // The points of the work chart (the second) carry the algorithm's colour (in the steps chart
    // Sklansky's points cover Kogge-Stone's: both take log2 n steps).
    CHECK(count_near(img, sv::chart::algorithm_color(algo), 0, 760, 4, 380, 760) > 20);
  }
}

namespace {
// A table as `scanviz bench` writes it on an H200: the copy and CUB at five sizes.
sv::BenchResult copy_and_cub_table() {
  sv::BenchResult r;
  r.device = "NVIDIA H200";
  r.runs = 20;
  for (int k = 20; k <= 28; k += 2) {
    const double n = static_cast<double>(1 << k);
    r.rows.push_back({"copy", 1 << k, n / 500e9 * 1e3, 500e9, 4000e9, 100, 1.4, true});
    r.rows.push_back({"cub", 1 << k, n / 380e9 * 1e3, 380e9, 3040e9, 76, 1.0, true});
  }
  return r;
}
}  // namespace

TEST_CASE("timing panel: a bench table made on a GPU machine loads and is charted, and no device says so") {
  Dir dir;
  const sv::BenchResult r = copy_and_cub_table();
  {
    std::ofstream f(dir.path / "bench.json");
    f << sv::bench_to_json(r);
  }
  const Image img = screenshot("--bench '" + (dir.path / "bench.json").string() + "'", dir.path / "t.png");
  CHECK(count_near(img, sv::chart::algorithm_color("copy"), 0, img.w, 4) > 30);
  CHECK(count_near(img, sv::chart::algorithm_color("cub"), 0, img.w, 4) > 30);
  if (!sv::probe_gpu().usable)  // the message is drawn in the hazard red, used nowhere else here
    CHECK(count_near(img, palette_light().cell_hazard, 0, img.w, 30) > 50);
  {
    std::ofstream f(dir.path / "bad.json");
    f << "{\"format\": \"scanviz-bench\", \"version\": 7}";
  }
  std::string out;
  CHECK(run_under_xvfb("gui --bench '" + (dir.path / "bad.json").string() + "' --frames 2", &out) == 2);
  CHECK(out.find("version") != std::string::npos);
}

namespace {
// The window's layout report (gui --report-layout) after six frames at 1200x700 with `args`.
nlohmann::json layout_after(const std::string& args, const fs::path& dir) {
  const fs::path report = dir / "layout.json";
  fs::remove(report);
  REQUIRE(run_under_xvfb("gui --frames 6 --size 1200x700 --report-layout '" + report.string() + "' " + args) == 0);
  std::ifstream in(report);
  return nlohmann::json::parse(in);
}
}  // namespace

TEST_CASE("gui: --schedule records the lesson under that schedule, and an unknown one is one line, exit 2") {
  Dir dir;
  // The racy kernel at the slides' n = 8, every thread on its own: in order it goes wrong; the
  // lesson's own recording says how it goes under each schedule.
  for (const std::string schedule : {"in-order", "reverse", "round-robin", "random:5"}) {
    CAPTURE(schedule);
    gui::Lesson l;
    REQUIRE(gui::set_schedule(l, schedule));
    const Trace expected = record_block_scan(gui::lesson_config(l, "kogge-stone-racy"));
    const auto report = layout_after("--algo kogge-stone-racy --step 99 --schedule " + schedule, dir.path);
    const auto& cells = report["canvases"][0]["cells"];
    const auto wrong = std::count_if(cells.begin(), cells.end(), [](const auto& c) { return c["wrong"] == true; });
    CHECK((wrong > 0) == (expected.result.outcome == Outcome::Wrong));
    if (schedule == "in-order") CHECK(wrong > 0);
  }
  std::string out;
  CHECK(run_under_xvfb("gui --schedule sideways --frames 2", &out) == 2);
  CHECK(out == "scanviz: --schedule: unknown schedule 'sideways' (in-order, reverse, round-robin, random[:SEED])\n");
}

TEST_CASE("gui: --type, --exclusive, --input and --scan record that lesson, and what they cannot take is one line, exit 2") {
  Dir dir;
  // A row of the last frame's diagram, as drawn: its cells' values left to right.
  auto row = [](const nlohmann::json& report, int r) {
    std::map<int, std::string> values;
    for (const auto& cell : report["canvases"][0]["cells"])
      if (cell["row"] == r) values[cell["col"]] = cell["value"];
    std::vector<std::string> out;
    for (const auto& [column, value] : values) out.push_back(value);
    return out;
  };
  auto last_row = [&](const nlohmann::json& report) {
    int rows = 0;
    for (const auto& cell : report["canvases"][0]["cells"]) rows = std::max(rows, cell["row"].get<int>() + 1);
    return row(report, rows - 1);
  };
  const auto typed = layout_after("--algo brent-kung --op max --type int64 --exclusive --input 5,1,4,2 --step 99", dir.path);
  // Loaded one place to the right behind max's identity, the least int64; then the exclusive max scan.
  const std::string least = "-9223372036854775808";
  CHECK(row(typed, 0) == std::vector<std::string>{least, "5", "1", "4"});
  CHECK(last_row(typed) == std::vector<std::string>{least, "5", "5", "5"});
  // Compaction of the typed values keeping the even ones: the exclusive sum of the flags 0, 0, 1, 1.
  const auto compact = layout_after("--algo kogge-stone --input 5,1,4,2 --scan compact:x%2==0 --step 99", dir.path);
  CHECK(last_row(compact) == std::vector<std::string>{"0", "0", "0", "1"});
  const std::pair<const char*, const char*> bad[] = {
      {"gui --type int33 --frames 2", "--type: unknown type 'int33'"},
      {"gui --type interval --frames 2", "--type: unknown type 'interval'"},
      {"gui --input random:0 --frames 2", "--input: 'random:0' is not"},
      {"gui --scan compact:x%2 --frames 2", "--scan: 'compact:x%2' is not"},
      {"gui --op sum --input 1,x,3 --frames 2", "'x' is not an int32 value"},
  };
  for (const auto& [args, what] : bad) {
    CAPTURE(args);
    std::string out;
    CHECK(run_under_xvfb(args, &out) == 2);
    CHECK(out.find(what) != std::string::npos);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  }
}

TEST_CASE("gui: a device-wide algorithm given as the lesson says where it is shown, an unknown one says what lists them") {
  std::string out;
  CHECK(run_under_xvfb("gui --algo chained --frames 2", &out) == 2);
  CHECK(out == "scanviz: --algo: chained is a device-wide scan: the look-back view shows it (--lookback default; in a link, "
               "lookback=default)\n");
  CHECK(run_under_xvfb("gui --algo sideways --frames 2", &out) == 2);
  CHECK(out == "scanviz: --algo: unknown algorithm 'sideways' (scanviz algos lists them)\n");
}

TEST_CASE("window: a bench table or a trace dropped on the window opens, and a bad file says why in the status line") {
  Dir dir;
  const sv::BenchResult r = copy_and_cub_table();
  std::ofstream(dir.path / "bench.json") << sv::bench_to_json(r);
  std::ofstream(dir.path / "old.json") << "{\"format\": \"scanviz-bench\", \"version\": 7}";
  std::ofstream(dir.path / "empty.json") << "{}";
  BlockRunConfig c;
  c.algorithm = "brent-kung";
  c.n = 16;
  saved(record_block_scan(c), dir.path / "bk16.json");
  // The window after a few frames with `drops` dropped on it at the third: its layout report.
  auto dropped = [&](const std::string& drops, const fs::path& png) {
    return layout_after("--keys '" + drops + "'" + (png.empty() ? "" : " --screenshot '" + png.string() + "'"), dir.path);
  };
  auto top_row_cells = [](const nlohmann::json& report) {
    return std::count_if(report["canvases"][0]["cells"].begin(), report["canvases"][0]["cells"].end(),
                         [](const auto& cell) { return cell["row"] == 0; });
  };
  // The bench table: the timing window opens on it, its chart in the table's colours.
  const auto bench = dropped("drop:" + (dir.path / "bench.json").string(), dir.path / "bench.png");
  CHECK(bench["status"] == "opened bench.json: 10 rows measured on NVIDIA H200");
  const Image img = load_png(dir.path / "bench.png");
  CHECK(count_near(img, sv::chart::algorithm_color("copy"), 0, img.w, 4) > 30);
  CHECK(count_near(img, sv::chart::algorithm_color("cub"), 0, img.w, 4) > 30);
  CHECK(top_row_cells(bench) == 8);  // the lesson stays the default one
  // A trace: it replaces the lesson (Brent-Kung at n = 16 instead of the default n = 8).
  const auto trace = dropped("drop:" + (dir.path / "bk16.json").string(), {});
  CHECK(trace["status"] == "opened bk16.json");
  CHECK(top_row_cells(trace) == 16);
  // Bad files leave the window as it was and say which file and what is wrong with it.
  const auto old = dropped("drop:" + (dir.path / "old.json").string(), dir.path / "old.png");
  CHECK(old["status"] == "old.json: version: this scanviz reads version 1");
  // Said in the error red in the menu bar, where a success is grey.
  const Image refused = load_png(dir.path / "old.png");
  CHECK(count_near(refused, palette_light().cell_hazard, 0, refused.w, 30, 0, 24) > 30);
  CHECK(count_near(img, palette_light().cell_hazard, 0, img.w, 30, 0, 24) == 0);
  CHECK(top_row_cells(old) == 8);
  const std::string empty = dropped("drop:" + (dir.path / "empty.json").string(), {})["status"];
  CHECK(empty.rfind("empty.json: format", 0) == 0);
  CHECK(dropped("drop:" + (dir.path / "missing.json").string(), {})["status"] == "missing.json: cannot open: No such file or directory");
  // Two at once open in order: the trace, then the table.
  const auto both = dropped("drop:" + (dir.path / "bk16.json").string() + " drop:" + (dir.path / "bench.json").string(), {});
  CHECK(top_row_cells(both) == 16);
  CHECK(both["status"] == "opened bench.json: 10 rows measured on NVIDIA H200");
}

namespace {

// A table as `gui --measure` makes it on a GPU: for each size the copy, CUB and decoupled look-back,
// in the order they are measured (the last row is decoupled look-back at the largest size).
sv::BenchResult measured_table(const std::vector<int>& log2_sizes) {
  sv::BenchResult r;
  r.device = "NVIDIA H100 80GB HBM3";
  r.runs = 20;
  for (int k : log2_sizes) {
    const std::int64_t n = std::int64_t{1} << k;
    const double items = static_cast<double>(n);
    r.rows.push_back({"copy", n, items / 373e9 * 1e3, 373e9, 2984e9, 100, 1.23, true});
    r.rows.push_back({"cub", n, items / 303e9 * 1e3, 303e9, 2424e9, 81.2, 1.0, true});
    r.rows.push_back({"decoupled-lookback", n, items / 350e9 * 1e3, 350e9, 2800e9, 93.8, 1.16, true});
  }
  return r;
}

// The timing window as the program lays it out in its default 1600x900 window (its fonts and theme),
// a few frames with no display: where the table's last row ends and where what the window shows ends.
std::pair<float, float> timing_table_layout(const sv::BenchResult& table, bool gpu_usable, float font_scale) {
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1600, 900);
  io.DeltaTime = 1.0f / 60;
  load_fonts(font_scale);
  apply_theme("light", font_scale);
  TimingPanel t;
  t.table = table;
  if (gpu_usable) t.status = "the last point took 1.234 s to measure";  // as after a measurement
  sv::GpuStatus gpu;
  gpu.usable = gpu_usable;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.error = "cudaGetDeviceCount: no CUDA-capable device is detected";
  bool open = true;
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    timing_window(&open, t, gpu, io.DisplaySize);
    ImGui::Render();
  }
  ImGui::DestroyContext(context);
  return {t.last_row_bottom, t.shown_bottom};
}

}  // namespace

TEST_CASE("timing panel: the table sorts by any column, ties kept in the measured order") {
  const sv::BenchResult r = copy_and_cub_table();  // copy, cub at 2^20 .. 2^28
  const auto by_n = sorted_rows(r, 1, true);
  REQUIRE(by_n.size() == r.rows.size());
  CHECK(r.rows[by_n[0]].n == (1 << 28));
  CHECK(r.rows[by_n[0]].algorithm == "copy");  // the tie at 2^28 in the measured order: copy, then cub
  CHECK(r.rows[by_n[1]].algorithm == "cub");
  CHECK(r.rows[by_n.back()].n == (1 << 20));
  const auto by_name = sorted_rows(r, 0, false);
  for (std::size_t i = 0; i < 5; ++i) CHECK(r.rows[by_name[i]].algorithm == "copy");
  CHECK(r.rows[by_name[5]].algorithm == "cub");
  CHECK(r.rows[by_name[5]].n == (1 << 20));
  const auto by_vs_cub = sorted_rows(r, 6, false);
  CHECK(r.rows[by_vs_cub[0]].algorithm == "cub");
  const auto measured = sorted_rows(r, -1, false);
  for (std::size_t i = 0; i < measured.size(); ++i) CHECK(measured[i] == i);
}

TEST_CASE("timing window: opened in a large display, it stays whole when the display is made smaller") {
  ImGuiContext* context = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DeltaTime = 1.0f / 60;
  load_fonts(1);
  apply_theme("light", 1);
  TimingPanel t;
  t.table = copy_and_cub_table();
  sv::GpuStatus gpu;
  bool open = true;
  ImVec2 pos, size;
  auto frames = [&](ImVec2 display) {
    io.DisplaySize = display;
    for (int frame = 0; frame < 3; ++frame) {
      ImGui::NewFrame();
      timing_window(&open, t, gpu, display);
      ImGui::Begin("GPU timing");  // the same window again, to read where it is
      pos = ImGui::GetWindowPos();
      size = ImGui::GetWindowSize();
      ImGui::End();
      ImGui::Render();
    }
  };
  frames(ImVec2(1920, 1080));
  CHECK(size.x > 1000);  // 0.7 of the width
  frames(ImVec2(900, 640));
  CHECK(pos.x >= 0);
  CHECK(pos.y >= 0);
  CHECK(pos.x + size.x <= 900);
  CHECK(pos.y + size.y <= 640);
  ImGui::DestroyContext(context);
}

TEST_CASE("timing panel: at the default window size the table's last row is drawn whole for three and four measured sizes") {
  for (const bool gpu_usable : {true, false})
    for (const std::vector<int>& sizes : {std::vector<int>{20, 24, 28}, std::vector<int>{20, 22, 24, 28}}) {
      CAPTURE(gpu_usable);
      CAPTURE(sizes.size());
      const auto [last_row_bottom, shown_bottom] = timing_table_layout(measured_table(sizes), gpu_usable, 1);
      CHECK(last_row_bottom > 0);
      CHECK(last_row_bottom <= shown_bottom);
    }
  // Larger text: the chart gives up room first, and the three sizes' table still shows whole.
  const auto [last_row_bottom, shown_bottom] = timing_table_layout(measured_table({20, 24, 28}), true, 1.25f);
  CHECK(last_row_bottom > 0);
  CHECK(last_row_bottom <= shown_bottom);
}

// ============================================================================================
// The look-back view (device-wide scans, tile by tile)
// ============================================================================================

namespace {

LookbackRun lookback_run(const std::string& preset, const std::string& algorithm) {
  LookbackLesson l;
  REQUIRE(lookback_preset(preset, l));
  return make_lookback_run(record_device_scan(lookback_config(l, algorithm)));
}

// A run whose reads saw a flag before its value (fence=off, or a torn 16-byte descriptor): wrong; at
// each such read the table shows the flag without the value it was published with; the scene draws
// the first reader's stale arrow in the stale colour.
void check_stale_reads_shown(const LookbackRun& r) {
  CHECK(r.outcome == Outcome::Wrong);
  REQUIRE(r.summary.stale_reads > 0);
  std::int64_t reader = -1;
  for (const TileSummary& t : r.summary.tiles)
    for (const TileInspection& i : t.inspections) {
      if (!i.stale) continue;
      if (reader < 0) reader = t.tile;
      const DescriptorState seen = descriptors_at(r, i.time)[static_cast<std::size_t>(i.target)];
      CHECK(seen.flag == i.flag);
      const DescriptorState last = descriptors_at(r, r.t1)[static_cast<std::size_t>(i.target)];
      const auto& field = i.flag == TileFlag::A ? seen.aggregate : seen.inclusive;
      const auto& published = i.flag == TileFlag::A ? last.aggregate : last.inclusive;
      REQUIRE(published.has_value());
      CHECK((!field.has_value() || *field != *published));
    }
  SceneOptions o;
  o.selected = reader;
  const LookbackPalette& pal = lookback_palette("light");
  const LookbackScene s = build_lookback_scene(r, r.t1, pal, o);
  CHECK(std::any_of(s.arrows.begin(), s.arrows.end(), [&](const SceneArrow& a) { return a.stale && a.color == pal.stale; }));
}

std::string flags_of(const std::vector<DescriptorState>& d) {
  std::string s;
  for (const DescriptorState& x : d) s += std::string(tile_flag_name(x.flag));
  return s;
}
std::string values_of(const std::vector<DescriptorState>& d, bool inclusive) {
  std::string s;
  for (const DescriptorState& x : d) {
    const auto& v = inclusive ? x.inclusive : x.aggregate;
    s += (s.empty() ? "" : " ") + (v ? std::to_string(v->as<std::int64_t>()) : std::string("-"));
  }
  return s;
}

// The colour runs along one pixel row between x0 and x1: each run of pixels near one of `colors`
// (by index), other pixels separating runs.
std::vector<int> color_runs(const Image& img, int y, const std::vector<std::uint32_t>& colors) {
  std::vector<int> runs;
  int last = -1;
  for (int x = 0; x < img.w; ++x) {
    int which = -1;
    for (std::size_t c = 0; c < colors.size(); ++c)
      if (near(img.at(x, y), colors[c], 4)) which = static_cast<int>(c);
    if (which >= 0 && which != last) runs.push_back(which);
    last = which;
  }
  return runs;
}

}  // namespace

TEST_CASE("look-back model: the fig6 preset is the paper's Fig. 6 snapshot, field by field") {
  const LookbackRun r = lookback_run("fig6", "decoupled-lookback");
  CHECK(r.outcome == Outcome::Correct);
  REQUIRE(r.tiles == 8);
  const std::uint64_t t = fig6_snapshot_time(r);
  REQUIRE(t > 0);
  const auto d = descriptors_at(r, t);
  // Merrill and Garland, Fig. 6: Partition 0..7; Flag P A A P A P X A; Aggregate 2 2 2 2 2 2 - 2;
  // Inclusive Prefix 2 4 - 8 - 12 - -.
  CHECK(flags_of(d) == "PAAPAPXA");
  CHECK(values_of(d, false) == "2 2 2 2 2 2 - 2");
  CHECK(values_of(d, true) == "2 4 - 8 - 12 - -");
  // The processors' states as the paper tells them: 0, 3 and 5 finished; 2 and 4 have not started
  // inspecting; 3 used a window of three predecessors, 5 of two; 6 has not started; 7 waits on 6.
  for (int p : {0, 3, 5}) CHECK(d[p].life == TileLife::Done);
  for (int p : {2, 4}) CHECK(inspections_until(r, p, t).empty());
  const auto three = inspections_until(r, 3, t);
  REQUIRE(three.size() == 3);
  CHECK((three[0].target == 2 && three[0].flag == TileFlag::A && three[1].target == 1 && three[1].flag == TileFlag::A &&
         three[2].target == 0 && three[2].flag == TileFlag::P));
  const auto two = inspections_until(r, 5, t);
  REQUIRE(two.size() == 2);
  CHECK((two[0].target == 4 && two[0].flag == TileFlag::A && two[1].target == 3 && two[1].flag == TileFlag::P));
  CHECK(d[6].life != TileLife::Waiting);
  CHECK(d[7].life == TileLife::Waiting);
  CHECK(d[7].waiting_for == 6);
  // Processor 1 took its exclusive prefix from its immediate predecessor's inclusive prefix.
  const auto one = inspections_until(r, 1, t);
  REQUIRE(one.size() == 1);
  CHECK((one[0].target == 0 && one[0].flag == TileFlag::P));

  // The scene draws exactly those cells, and arrows from tile 3 to the three it inspected.
  SceneOptions o;
  o.selected = 3;
  const LookbackScene s = build_lookback_scene(r, t, lookback_palette("light"), o);
  std::string drawn;
  for (const SceneRect& c : s.rects)
    if (c.kind == SceneRect::Kind::Flag) drawn += c.label;
  CHECK(drawn == "PAAPAPXA");
  std::vector<std::int64_t> targets;
  for (const SceneArrow& a : s.arrows) targets.push_back(a.target);
  CHECK(targets == std::vector<std::int64_t>{2, 1, 0});
  CHECK(s.arrows[0].label == "A 2");
  CHECK(s.arrows[2].label == "P 2");
}

TEST_CASE("look-back model: share=on turns a descriptor P when a later tile shares it, before the tile's own P") {
  LookbackLesson l;
  REQUIRE(lookback_preset("default", l));
  BlockRunConfig c = lookback_config(l, "decoupled-lookback");
  c.options["share"] = "on";
  c.options["window"] = "4";
  const LookbackRun r = make_lookback_run(record_device_scan(c));
  REQUIRE(r.outcome == Outcome::Correct);
  const std::int64_t tile = r.trace.meta.capacity;
  int early = 0;  // shared P seen before the tile's own
  for (const TileEvent& e : r.trace.tile_events) {
    if (e.kind != TileEventKind::Publish || e.target == e.tile) continue;
    CAPTURE(e.tile);
    CAPTURE(e.target);
    const auto before = descriptors_at(r, e.time + r.visible_after - 1);
    const auto after = descriptors_at(r, e.time + r.visible_after);
    const DescriptorState& d = after[static_cast<std::size_t>(e.target)];
    CHECK(d.flag == TileFlag::P);
    REQUIRE(d.inclusive.has_value());
    CHECK(*d.inclusive == r.trace.result.reference[static_cast<std::size_t>((e.target + 1) * tile - 1)]);
    early += before[static_cast<std::size_t>(e.target)].flag == TileFlag::A;
  }
  CHECK(early > 0);
}

TEST_CASE("look-back model: static ids under a reverse launch deadlock, and exactly the waiting tiles show waiting") {
  for (const char* algo : {"chained", "decoupled-lookback"}) {
    CAPTURE(algo);
    const LookbackRun r = lookback_run("deadlock", algo);
    REQUIRE(r.outcome == Outcome::Deadlock);
    REQUIRE_FALSE(r.trace.result.waiting.empty());
    const auto d = descriptors_at(r, r.t1);
    std::vector<std::int64_t> waiting;
    for (std::size_t t = 0; t < d.size(); ++t)
      if (d[t].life == TileLife::Waiting) waiting.push_back(static_cast<std::int64_t>(t));
    CHECK(waiting == r.trace.result.waiting);
    const LookbackPalette& pal = lookback_palette("light");
    const LookbackScene s = build_lookback_scene(r, r.t1, pal, {});
    std::vector<std::int64_t> drawn;
    for (const SceneRect& c : s.rects)
      if (c.kind == SceneRect::Kind::Lifetime && c.fill == pal.waiting && c.y < s.flag_y) drawn.push_back(c.tile);
    CHECK(drawn == r.trace.result.waiting);
  }
}

TEST_CASE("look-back model: mid-run decoupled look-back shows all three flags, and fence off a stale read") {
  const LookbackRun r = lookback_run("default", "decoupled-lookback");
  const auto d = descriptors_at(r, r.t0 + (r.t1 - r.t0) / 2);
  const std::string flags = flags_of(d);
  CHECK(flags.find('X') != std::string::npos);
  CHECK(flags.find('A') != std::string::npos);
  CHECK(flags.find('P') != std::string::npos);
  // At the end every tile has its P, with the reference's inclusive prefix.
  const auto end = descriptors_at(r, r.t1);
  const std::int64_t tile = r.trace.meta.capacity;
  for (std::size_t t = 0; t < end.size(); ++t) {
    CHECK(end[t].flag == TileFlag::P);
    REQUIRE(end[t].inclusive.has_value());
    CHECK(*end[t].inclusive == r.trace.result.reference[static_cast<std::size_t>((static_cast<std::int64_t>(t) + 1) * tile - 1)]);
  }

  // The table shows what a reader would read at that moment: every inspection agrees with it.
  for (const TileSummary& t : r.summary.tiles)
    for (const TileInspection& i : t.inspections) {
      const DescriptorState seen = descriptors_at(r, i.time)[static_cast<std::size_t>(i.target)];
      CHECK(seen.flag == i.flag);
      const auto& field = i.flag == TileFlag::A ? seen.aggregate : seen.inclusive;
      REQUIRE(field.has_value());
      CHECK(*field == i.value);
    }

  // With fence off a stale read happens while the table shows the flag without its value yet.
  check_stale_reads_shown(lookback_run("stale", "decoupled-lookback"));
}

TEST_CASE("look-back model: the torn preset reads a 16-byte descriptor's new flag with its old value, and the scene marks it") {
  for (const char* algorithm : {"chained", "decoupled-lookback"}) {
    CAPTURE(algorithm);
    const LookbackRun torn = lookback_run("torn", algorithm);
    CHECK(torn.trace.meta.type == ValueType::I64);
    CHECK(torn.trace.meta.options.at("torn") == "on");
    check_stale_reads_shown(torn);
  }
  // Unticked, the same 64-bit run reads every descriptor whole and is right.
  LookbackLesson l;
  REQUIRE(lookback_preset("torn", l));
  l.torn = false;
  const LookbackRun whole = make_lookback_run(record_device_scan(lookback_config(l, "decoupled-lookback")));
  CHECK(whole.outcome == Outcome::Correct);
  CHECK(whole.summary.stale_reads == 0);
}

TEST_CASE("look-back model: reduce-then-scan's tile sums and their scan stand in for A and P") {
  const LookbackRun r = lookback_run("default", "reduce-then-scan");
  REQUIRE(r.derived_descriptors);
  const auto d = descriptors_at(r, r.t1);
  const std::int64_t tile = r.trace.meta.capacity;
  std::int64_t prefix = 0;
  for (std::int64_t t = 0; t < r.tiles; ++t) {
    std::int64_t sum = 0;  // the tile's sum, from the input
    for (std::int64_t i = t * tile; i < (t + 1) * tile; ++i) sum += r.trace.meta.input[static_cast<std::size_t>(i)].as<std::int32_t>();
    prefix += sum;
    const DescriptorState& s = d[static_cast<std::size_t>(t)];
    CHECK(s.flag == TileFlag::P);
    REQUIRE((s.aggregate && s.inclusive));
    CHECK(s.aggregate->as<std::int32_t>() == sum);
    CHECK(s.inclusive->as<std::int32_t>() == prefix);
  }
  // Before the first launch ends nothing is known.
  CHECK(flags_of(descriptors_at(r, r.t0)) == std::string(static_cast<std::size_t>(r.tiles), 'X'));
}

TEST_CASE("look-back model: 10,000 tiles fold into runs, so what is drawn stays bounded") {
  LookbackLesson l;
  REQUIRE(lookback_preset("10000-tiles", l));
  const LookbackRun r = make_lookback_run(record_device_scan(lookback_config(l, "decoupled-lookback")));
  REQUIRE(r.tiles == 10000);
  CHECK(r.outcome == Outcome::Correct);
  SceneOptions o;
  o.width = 1400;
  const LookbackScene s = build_lookback_scene(r, r.t0 + (r.t1 - r.t0) / 2, lookback_palette("light"), o);
  CHECK(s.merged_cells > 10000);
  CHECK(s.rects.size() < 20000);
  // The folded flag row still tells where the P's end: its first run is P and covers tile 0.
  const auto first = std::find_if(s.rects.begin(), s.rects.end(), [](const SceneRect& c) { return c.kind == SceneRect::Kind::Flag; });
  REQUIRE(first != s.rects.end());
  CHECK(first->fill == lookback_palette("light").flag_p);
}

TEST_CASE("look-back model: 10,000 tiles' lane marks merge where they touch, covering the same pixels") {
  LookbackLesson l;
  REQUIRE(lookback_preset("10000-tiles", l));
  // Pixels as the rasterizer fills them (columns whose centres a mark spans), per lane row and colour.
  auto covered = [](const LookbackScene& s) {
    std::set<std::tuple<float, std::uint32_t, int>> pixels;
    std::size_t marks = 0;
    for (const SceneRect& r : s.rects) {
      if (r.kind != SceneRect::Kind::Lifetime && r.kind != SceneRect::Kind::Wait) continue;
      ++marks;
      for (auto c = static_cast<int>(std::ceil(r.x - 0.5f)); static_cast<float>(c) + 0.5f < r.x + r.w; ++c) pixels.insert({r.y, r.fill, c});
    }
    return std::pair(pixels, marks);
  };
  for (const char* algorithm : {"chained", "decoupled-lookback"}) {
    CAPTURE(algorithm);
    const LookbackRun r = make_lookback_run(record_device_scan(lookback_config(l, algorithm)));
    SceneOptions o;
    o.width = 1400;
    const std::uint64_t time = r.t0 + (r.t1 - r.t0) / 3;
    const LookbackScene folded = build_lookback_scene(r, time, lookback_palette("light"), o);
    o.fold_lanes = false;
    const LookbackScene each = build_lookback_scene(r, time, lookback_palette("light"), o);
    const auto [folded_pixels, folded_marks] = covered(folded);
    const auto [each_pixels, each_marks] = covered(each);
    CHECK(folded_pixels == each_pixels);
    CHECK(folded_marks + static_cast<std::size_t>(folded.merged_lane_marks) == each_marks);
    CHECK(each_marks > 10000);
    CHECK(folded_marks * 2 < each_marks);
    // Chained: every tile waits most of its life, so each lane is a bar with a few thousand gaps at most.
    if (std::string(algorithm) == "chained") CHECK(folded_marks < 4000);
  }
}

TEST_CASE("look-back model: the lanes' picture holds each lane mark on the pixels the rasterizer would fill") {
  LookbackLesson l;
  REQUIRE(lookback_preset("default", l));
  const LookbackRun r = make_lookback_run(record_device_scan(lookback_config(l, "chained")));
  const LookbackPalette& pal = lookback_palette("light");
  SceneOptions o;
  o.width = 1400;
  const LookbackScene s = build_lookback_scene(r, default_lookback_time(r), pal, o);
  const LanePicture p = lane_picture(s, pal.background);
  REQUIRE(p.w > 0);
  REQUIRE(p.rgba.size() == static_cast<std::size_t>(p.w) * static_cast<std::size_t>(p.h));
  auto texel = [&](float x, float y) {  // the picture's pixel whose centre is nearest (x, y), as 0xRRGGBBAA
    const std::uint32_t t = p.rgba[static_cast<std::size_t>(std::floor(y) - static_cast<float>(p.y)) * static_cast<std::size_t>(p.w) +
                                   static_cast<std::size_t>(std::floor(x) - static_cast<float>(p.x))];
    return (t & 0xFF) << 24 | ((t >> 8) & 0xFF) << 16 | ((t >> 16) & 0xFF) << 8 | 0xFF;
  };
  int bars = 0, waits = 0;
  for (const SceneRect& m : s.rects) {
    if ((m.fill & 0xFF) != 0xFF || m.w < 6) continue;  // opaque marks wide enough to have an inside
    if (m.kind == SceneRect::Kind::Lifetime) {
      CHECK(texel(m.x + m.w / 2, m.y + 2.5f) == m.fill);  // above the wait strip, inside the border
      ++bars;
    }
    if (m.kind == SceneRect::Kind::Wait) {
      CHECK(texel(m.x + m.w / 2, m.y + m.h / 2) == m.fill);
      ++waits;
    }
  }
  CHECK(bars > 4);
  CHECK(waits > 4);
  // Between two lanes (each mark starts a pixel below its lane's top), the background.
  CHECK(texel(s.table_x + 10, s.lanes_y + s.lane_h + 0.5f) == pal.background);
}

TEST_CASE("look-back window: the paper's snapshot, cell by cell, and the deadlock's waiting tiles, as drawn") {
  Dir dir;
  const LookbackPalette& pal = lookback_palette("light");
  {
    const Image img = screenshot("--lookback fig6 --theme light", dir.path / "f.png");
    // Some pixel row crosses the flag cells above their letters: its colour runs are the figure's flags.
    const std::vector<int> expected = {2, 1, 1, 2, 1, 2, 0, 1};  // P A A P A P X A (0 X, 1 A, 2 P)
    bool found = false;
    for (int y = 0; y < img.h && !found; ++y) found = color_runs(img, y, {pal.flag_x, pal.flag_a, pal.flag_p}) == expected;
    CHECK(found);
  }
  {
    const Image img = screenshot("--lookback pipelined --theme light", dir.path / "d.png");
    CHECK(count_near(img, pal.flag_x, 0, img.w, 3) > 500);
    CHECK(count_near(img, pal.flag_a, 0, img.w, 3) > 500);
    CHECK(count_near(img, pal.flag_p, 0, img.w, 3) > 500);
  }
  {
    const Image img = screenshot("--lookback deadlock --theme light", dir.path / "w.png");
    // Decoupled look-back's flag row: tiles 0..15 X, 16..23 A (the eight launched first, from the
    // end, published their aggregates and wait). Just above it the life strip must be in the waiting
    // colour over exactly the A cells.
    const std::vector<std::uint32_t> flags = {pal.flag_x, pal.flag_a};
    int found_y = -1, a_x0 = -1, a_x1 = -1;
    for (int y = 0; y < img.h && found_y < 0; ++y) {
      std::vector<int> runs = color_runs(img, y, flags);
      if (runs.size() != 24 || std::count(runs.begin(), runs.begin() + 16, 0) != 16 || std::count(runs.begin() + 16, runs.end(), 1) != 8)
        continue;
      found_y = y;
      for (int x = 0; x < img.w; ++x)
        if (near(img.at(x, y), pal.flag_a, 4)) a_x0 = a_x0 < 0 ? x : a_x0, a_x1 = x;
    }
    REQUIRE(found_y >= 0);
    int strip_y = -1;
    for (int y = found_y; y > found_y - 40 && y > 0 && strip_y < 0; --y)
      if (count_near(img, pal.waiting, 0, img.w, 3, y, y + 1) > 100) strip_y = y;
    REQUIRE(strip_y >= 0);
    int w_x0 = -1, w_x1 = -1;
    for (int x = 0; x < img.w; ++x)
      if (near(img.at(x, strip_y), pal.waiting, 3)) w_x0 = w_x0 < 0 ? x : w_x0, w_x1 = x;
    CHECK(std::abs(w_x0 - a_x0) <= 3);
    CHECK(std::abs(w_x1 - a_x1) <= 3);
  }
  std::string out;
  CHECK(run_under_xvfb("gui --lookback nope --frames 2", &out) == 2);
  CHECK(out.find("unknown preset 'nope'") != std::string::npos);
}

TEST_CASE("window: hovering a hazard cell opens the tooltip that names the hazard") {
  Dir dir;
  const std::string lesson = "--algo kogge-stone-racy --n 64 --warp 32 --step 1 --theme light";  // warps of 32, as on a GPU
  const Image before = screenshot(lesson, dir.path / "a.png");
  // The first hazard-coloured pixel of the diagram, a few pixels into its cell.
  int mx = -1, my = -1;
  for (int y = 0; y < before.h && mx < 0; ++y)
    for (int x = 0; x < before.w && mx < 0; ++x)
      if (near(before.at(x, y), palette_light().cell_hazard, 3)) mx = x + 5, my = y + 5;
  REQUIRE(mx >= 0);
  const Image after = screenshot(lesson + " --mouse " + std::to_string(mx) + "," + std::to_string(my), dir.path / "b.png");
  // Below and right of the pointer the tooltip's lines appear; the hazard's description is in red.
  const int x0 = mx + 8, x1 = mx + 700, y0 = my + 12, y1 = my + 200;
  const int red_before = count_near(before, palette_light().cell_hazard, x0, x1, 12, y0, y1);
  const int red_after = count_near(after, palette_light().cell_hazard, x0, x1, 12, y0, y1);
  CAPTURE(red_before);
  CHECK(red_after > red_before + 40);
  int changed = 0;
  for (int y = y0; y < std::min(y1, after.h); ++y)
    for (int x = x0; x < std::min(x1, after.w); ++x) changed += before.at(x, y) != after.at(x, y);
  CHECK(changed > 2000);
  std::string out;
  CHECK(run_under_xvfb("gui --mouse 10 --frames 2", &out) == 2);
  CHECK(out.find("--mouse must be X,Y") != std::string::npos);
}

TEST_CASE("look-back view: a device-wide trace from a file becomes its run, a block-level one does not") {
  LookbackUi ui;
  LookbackLesson l;
  REQUIRE(lookback_preset("stall", l));
  const Trace device = record_device_scan(lookback_config(l, "decoupled-lookback"));
  CHECK_FALSE(show_in_lookback(ui, sv_test::record_interval("kogge-stone-double-buffer", 8, "in-order"), "block.json"));
  CHECK(ui.runs.empty());
  REQUIRE(show_in_lookback(ui, device, "device.json"));
  REQUIRE(ui.runs.size() == 1);
  CHECK(ui.runs[0].tiles == device.meta.grid);
  CHECK(ui.preset == "file device.json");
  CHECK((ui.time > ui.runs[0].t0 && ui.time < ui.runs[0].t1));
  // The stalled tile (3, 20000 cycles after taking its id) publishes its A that much later than tile 2.
  std::uint64_t a2 = 0, a3 = 0;
  for (const DescriptorChange& c : ui.runs[0].changes)
    if (c.field == DescriptorChange::Field::Flag && c.flag == TileFlag::A) {
      if (c.tile == 2) a2 = c.time;
      if (c.tile == 3) a3 = c.time;
    }
  REQUIRE((a2 > 0 && a3 > 0));
  CHECK(a3 >= a2 + 20000);
}

TEST_CASE("render --lookback: the deadlock's waiting tiles in PNG and SVG, and bad requests refused") {
  Dir dir;
  LookbackLesson l;
  REQUIRE(lookback_preset("deadlock", l));
  const Trace t = saved(record_device_scan(lookback_config(l, "decoupled-lookback")), dir.path / "d.json");
  REQUIRE(t.result.outcome == Outcome::Deadlock);
  const LookbackRun run = make_lookback_run(t);
  const std::string file = "'" + (dir.path / "d.json").string() + "'";
  const LookbackPalette& pal = lookback_palette("light");
  // At the end: the waiting tiles' strip cells (and the legend's chip) in the waiting colour.
  REQUIRE(run_under_xvfb("render " + file + " --lookback --time " + std::to_string(run.t1) + " --out '" +
                         (dir.path / "d.svg").string() + "'") == 0);
  std::ifstream f(dir.path / "d.svg");
  const std::string svg((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  // The life strip's cells share one y: exactly the waiting tiles are drawn there in the waiting colour
  // (the lanes' wait bars sit one per lane, the legend's chip alone).
  const std::regex rect("<rect x=\"([0-9.]+)\" y=\"([0-9.]+)\"[^>]*fill=\"" + sv::svg::color(pal.waiting) + "\"");
  std::map<std::string, int> per_y;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), rect); it != std::sregex_iterator(); ++it) ++per_y[(*it)[2]];
  CHECK(std::count_if(per_y.begin(), per_y.end(), [&](const auto& kv) { return kv.second == static_cast<int>(t.result.waiting.size()); }) == 1);
  CHECK(svg.find(">A<") != std::string::npos);
  REQUIRE(run_under_xvfb("render " + file + " --lookback --time " + std::to_string(run.t1) + " --out '" +
                         (dir.path / "d.png").string() + "'") == 0);
  const Image img = load_png(dir.path / "d.png");
  CHECK(img.w == 1400);
  CHECK(count_near(img, pal.waiting, 0, img.w, 3) > 200);
  CHECK(count_near(img, pal.flag_a, 0, img.w, 3) > 200);

  std::string out;
  CHECK(run_under_xvfb("render " + file + " --lookback --time 999999999 --out '" + (dir.path / "x.png").string() + "'", &out) == 2);
  CHECK(out.find("--time 999999999 is out of range") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path / "x.png"));
  save_trace(dir.path / "b.json", sv_test::record_interval("kogge-stone-double-buffer", 8, "in-order"));
  CHECK(run_under_xvfb("render '" + (dir.path / "b.json").string() + "' --lookback --out '" + (dir.path / "x.svg").string() + "'", &out) == 2);
  CHECK(out.find("no tile events") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path / "x.svg"));
  for (const std::string bad : {"--lookback --time -5", "--lookback --step 1", "--time 5", "--lookback --select 99"}) {
    CAPTURE(bad);
    CHECK(run_under_xvfb("render " + file + " " + bad + " --out '" + (dir.path / "x.svg").string() + "'", &out) == 2);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);  // one line
    CHECK_FALSE(fs::exists(dir.path / "x.svg"));
  }
  for (const std::string& bad : std::vector<std::string>{"--mouse 1,2,3 --frames 2", "--mouse 1,2junk --frames 2",
                                                          "--lookback fig6 --trace " + file + " --frames 2"}) {
    CAPTURE(bad);
    CHECK(run_under_xvfb("gui " + bad, &out) == 2);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  }
}

TEST_CASE("look-back model: a GPU-like trace's absolute times start from 0 and the gaps between launches fold") {
  LookbackLesson l;
  REQUIRE(lookback_preset("default", l));
  Trace t = record_device_scan(lookback_config(l, "reduce-then-scan"));
  const LookbackRun plain = make_lookback_run(t);
  CHECK(plain.folded == 0);  // the emulator runs launches back to back
  // As %globaltimer gives them: a large epoch, and a millisecond of host work before each later launch.
  for (TileEvent& e : t.tile_events) e.time += 1'700'000'000'000'000'000ull + e.pass * 1'000'000ull;
  const LookbackRun gpu = make_lookback_run(t);
  CHECK(gpu.t0 == 0);
  CHECK(gpu.folded >= 2 * 1'000'000ull - 2 * (plain.t1 / 50 + 1));
  CHECK(gpu.t1 <= plain.t1 + 2 * (plain.t1 / 50 + 1));
  // Folding keeps the order of everything: the descriptors end as they would.
  CHECK(flags_of(descriptors_at(gpu, gpu.t1)) == flags_of(descriptors_at(plain, plain.t1)));
}

TEST_CASE("look-back view: the timeline keys step from one tile event to the next, and to the ends") {
  LookbackUi ui;
  ui.preset = "fig6";
  REQUIRE(lookback_preset("fig6", ui.lesson));
  record_lookback(ui);
  REQUIRE(ui.runs.size() == 1);
  const LookbackRun& r = ui.runs.front();
  CHECK(ui.time == fig6_snapshot_time(r));  // the preset opens at the paper's instant
  std::set<std::uint64_t> times;
  for (const TileEvent& e : r.trace.tile_events) times.insert(e.time);
  const std::uint64_t at = ui.time;
  lookback_key(ui, LookbackKey::Next);
  CHECK(ui.time == *times.upper_bound(at));
  lookback_key(ui, LookbackKey::Previous);
  CHECK(ui.time == *std::prev(times.lower_bound(*times.upper_bound(at))));
  lookback_key(ui, LookbackKey::End);
  CHECK(ui.time == r.t1);
  lookback_key(ui, LookbackKey::PlayPause);  // at the end, play starts over
  CHECK(ui.playing);
  CHECK(ui.time == 0);
  lookback_key(ui, LookbackKey::Start);
  CHECK(ui.time == 0);
}

namespace {

// The divergence window's lanes, warp by warp as drawn: every pixel row crossing lane squares gives
// one colour run per lane (0 active, 1 idle in a divergent warp, 2 idle warp), cut into warps of 32;
// a band of equal rows is one row of warps.
std::vector<std::vector<int>> drawn_warps(const Image& img) {
  const WarpPalette& pal = warp_palette("light");
  std::vector<std::vector<int>> warps;
  std::vector<int> last;
  for (int y = 0; y < img.h; ++y) {
    std::vector<int> runs = color_runs(img, y, {pal.active, pal.divergent_idle, pal.idle});
    if (runs.size() < 32) runs.clear();  // the legend's swatches, not lanes
    if (!runs.empty() && runs != last)
      for (std::size_t w = 0; w + 32 <= runs.size(); w += 32) warps.emplace_back(runs.begin() + w, runs.begin() + w + 32);
    last = runs;
  }
  return warps;
}

std::vector<int> lanes(int first, int count, int second) {
  std::vector<int> v(32, second);
  std::fill(v.begin(), v.begin() + count, first);
  return v;
}

}  // namespace

TEST_CASE("divergence window: Kogge-Stone's divergent warp 0 and idle warps, Brent-Kung's idle warps, lane by lane") {
  Dir dir;
  const auto count = [](const std::vector<std::vector<int>>& warps, const std::vector<int>& pattern) {
    return std::count(warps.begin(), warps.end(), pattern);
  };
  const std::vector<int> full(32, 0), idle(32, 2);
  // Kogge-Stone n = 64 at stride 16 (step 5): warp 0's lanes 0..15 fail t >= 16 and idle, 16..31 add.
  auto warps = drawn_warps(screenshot("--algo kogge-stone --n 64 --step 5 --divergence --theme light", dir.path / "a.png"));
  CHECK(warps == std::vector<std::vector<int>>{lanes(1, 16, 0), full});
  // n = 1024: at stride 16 only warp 0 diverges; at stride 64 warps 0 and 1 idle whole, none diverges.
  warps = drawn_warps(screenshot("--algo kogge-stone --n 1024 --step 5 --divergence --theme light", dir.path / "b.png"));
  CHECK(warps.size() == 32);
  CHECK(count(warps, lanes(1, 16, 0)) == 1);
  CHECK(count(warps, full) == 31);
  warps = drawn_warps(screenshot("--algo kogge-stone --n 1024 --step 7 --divergence --theme light", dir.path / "c.png"));
  CHECK(warps.size() == 32);
  CHECK(count(warps, idle) == 2);
  CHECK(count(warps, full) == 30);
  // Brent-Kung n = 1024 at reduction stride 32 (step 6): threads 0..15 of 512 work: warp 0 diverges,
  // the other 15 warps idle whole.
  warps = drawn_warps(screenshot("--algo brent-kung --n 1024 --step 6 --divergence --theme light", dir.path / "d.png"));
  CHECK(warps.size() == 16);
  CHECK(count(warps, lanes(0, 16, 1)) == 1);
  CHECK(count(warps, idle) == 15);
  // Closed unless asked for.
  CHECK(drawn_warps(screenshot("--algo brent-kung --n 1024 --step 6 --theme light", dir.path / "e.png")).empty());
}

// ---- the pipelined kernel's warp roles (the embedded trace recorded on an H100) ----

namespace {
Trace pipelined_example() {
  const std::string_view text = sv::embedded_file("examples/pipelined-h100.json");
  REQUIRE(!text.empty());
  return trace_from_json(std::string(text));
}
}  // namespace

TEST_CASE("pipelined trace: the shipped GPU trace reads per warp role, every tile in causal order") {
  const Trace t = pipelined_example();
  CHECK(t.meta.executor.kind == "gpu");
  REQUIRE(is_pipelined_trace(t));
  CHECK(!is_pipelined_trace(lookback_run("default", "decoupled-lookback").trace));
  const PipelineRun run = make_pipeline_run(t);
  CHECK(run.stages == 4);
  CHECK(run.blocks.size() == 2);
  REQUIRE(static_cast<std::int64_t>(run.tiles.size()) == t.meta.grid);
  CHECK(run.complete == t.meta.grid);
  std::map<std::uint32_t, int> per_block;
  for (const PipelineTile& p : run.tiles) {
    CAPTURE(p.tile);
    CHECK(p.index == per_block[p.block]++);  // a block's tiles in the order it took them
    CHECK((p.taken <= p.landed && p.landed <= p.aggregate && p.aggregate <= p.inclusive && p.inclusive <= p.end));
    CHECK((p.look <= p.inclusive && p.held <= p.store && p.inclusive <= p.store));
    CHECK(stages_in_use(run, p.block, p.taken) <= run.stages);
  }
  // The phases' medians are of the complete tiles and each lies within the median life.
  double sum = 0;
  for (double v : run.median_ns) {
    CHECK(v > 0);
    CHECK(v <= run.median_life_ns);
    sum += v;
  }
  CHECK(sum > 0.5 * run.median_life_ns);
  CHECK(pipeline_summary(run).find("medians of 20 tiles") != std::string::npos);
  // A tile without its Held event is no longer complete, and is left out of the medians.
  Trace cut = t;
  std::erase_if(cut.tile_events, [](const TileEvent& e) { return e.kind == TileEventKind::Held && e.tile == 5; });
  CHECK(make_pipeline_run(cut).complete == t.meta.grid - 1);
}

TEST_CASE("pipelined scene: each tile's marks on its block's role lanes, the phase bar in proportion") {
  const LookbackRun r = make_lookback_run(pipelined_example());
  const PipelineRun& run = r.pipeline;
  REQUIRE(run.complete == r.tiles);
  PipelineSceneOptions o;
  o.width = 1400;
  o.blocks = 2;
  const LookbackScene s = build_pipeline_scene(run, static_cast<std::uint64_t>(run.t1), lookback_palette("light"), o);
  // The bar: four parts, left to right, as wide as their medians' shares.
  std::vector<const SceneRect*> bar;
  for (const SceneRect& c : s.rects)
    if (c.kind == SceneRect::Kind::Legend && c.label.find('%') != std::string::npos) bar.push_back(&c);
  REQUIRE(bar.size() == kPipePhases);
  double total = 0;
  for (double v : run.median_ns) total += v;
  for (int p = 0; p < kPipePhases; ++p) {
    CHECK(bar[static_cast<std::size_t>(p)]->label.rfind(pipe_phase_name(static_cast<PipePhase>(p)), 0) == 0);
    CHECK(bar[static_cast<std::size_t>(p)]->w / (o.width - s.table_x - 0.5f * o.em) ==
          doctest::Approx(run.median_ns[static_cast<std::size_t>(p)] / total).epsilon(0.01));
    if (p) CHECK(bar[static_cast<std::size_t>(p)]->x == doctest::Approx(bar[p - 1]->x + bar[p - 1]->w));
  }
  // Lanes: block b's rows start at lanes_y + (header) + b * (rows + gap); a tile's marks lie on the
  // load and reduce rows, on look-back row index % 2 and store row index % 4, labelled by its id.
  std::map<std::int64_t, std::set<int>> rows_of;
  for (const SceneRect& c : s.rects) {
    if (c.tile < 0 || c.kind == SceneRect::Kind::Legend) continue;
    CHECK(c.x >= s.table_x - 1);
    CHECK(c.x + c.w <= o.width + 1);
    const PipelineTile& p = run.tiles[static_cast<std::size_t>(c.tile)];
    const int b = p.block == run.blocks[0] ? 0 : 1;
    const float top = s.lanes_y + 1.2f * o.em + static_cast<float>(b) * (kPipeLaneRows * s.lane_h + 0.4f * o.em + 1.2f * o.em);
    rows_of[c.tile].insert(static_cast<int>((c.y + c.h / 2 - top) / s.lane_h));
  }
  REQUIRE(static_cast<std::int64_t>(rows_of.size()) == r.tiles);
  for (const auto& [tile, rows] : rows_of) {
    CAPTURE(tile);
    const int i = run.tiles[static_cast<std::size_t>(tile)].index;
    CHECK(rows == std::set<int>{0, 1, 2 + i % 2, 4 + i % 4});
  }
  // The stages lane never draws more than the lane's height (all of a block's stages in use).
  for (const SceneRect& c : s.rects)
    if (c.tile < 0 && c.kind == SceneRect::Kind::Lifetime) CHECK(c.h <= s.lane_h - 2 + 1e-3f);
}

TEST_CASE("window: the pipelined preset shows where a tile's time goes, four phases in one bar") {
  Dir dir;
  const Image img = screenshot("--lookback pipelined --theme light", dir.path / "p.png", config_env(), "1920x1080");
  const LookbackPalette& pal = lookback_palette("light");
  const std::uint32_t phase[kPipePhases] = {pal.flag_x, pal.flag_a, pal.flag_p, pal.lifetime};
  // A row of pixels holding, left to right, runs of the four phases' colours (each at least 20 px,
  // at most 3 px of border between them): the bar. Rows as runs of (class, length), class -1 other.
  int rows = 0;
  for (int y = 0; y < img.h; ++y) {
    std::vector<std::pair<int, int>> runs;
    for (int x = 0; x < img.w; ++x) {
      int c = -1;
      for (int p = 0; p < kPipePhases; ++p)
        if (near(img.at(x, y), phase[p], 4)) c = p;
      if (!runs.empty() && runs.back().first == c) ++runs.back().second;
      else runs.push_back({c, 1});
    }
    for (std::size_t k = 0; k < runs.size(); ++k) {
      int next = 0;
      std::size_t j = k;
      while (j < runs.size() && next < kPipePhases) {
        if (runs[j].first == next && runs[j].second >= 20) ++next, ++j;
        else if (next > 0 && runs[j].first == -1 && runs[j].second <= 3) ++j;
        else break;
      }
      if (next == kPipePhases) {
        ++rows;
        break;
      }
    }
  }
  CHECK(rows >= 3);  // the bar is 1.2 em tall; its labels cut the runs of the rows they cross
  CHECK(rows <= 30);
}

TEST_CASE("look-back scene: a wrong aggregate or inclusive prefix is outlined in the stale colour with a '!', and the legend names it") {
  const LookbackPalette& pal = lookback_palette("light");
  auto wrong_cells = [&](const LookbackRun& r) {
    const LookbackScene s = build_lookback_scene(r, static_cast<std::uint64_t>(r.t1), pal, SceneOptions{});
    int marked = 0, wrong = 0;
    const auto states = descriptors_at(r, r.t1);
    for (const SceneRect& c : s.rects) {
      if (c.kind != SceneRect::Kind::Inclusive || c.tile < 0) continue;
      const auto& v = states[static_cast<std::size_t>(c.tile)].inclusive;
      const bool is_wrong = v && *v != r.expected_inclusive[static_cast<std::size_t>(c.tile)];
      wrong += is_wrong;
      marked += is_wrong && c.border == pal.stale && !c.label.empty() && c.label.back() == '!';
      if (!is_wrong) CHECK(c.label.find('!') == std::string::npos);
    }
    bool legend = false;
    for (const SceneText& t : s.texts) legend |= t.text.find("wrong value") != std::string::npos;
    CHECK(legend);
    return std::pair(wrong, marked);
  };
  // Fence off: some tile passes a stale value on, and every wrong prefix is marked.
  const auto [wrong, marked] = wrong_cells(lookback_run("stale", "decoupled-lookback"));
  CHECK(wrong > 0);
  CHECK(marked == wrong);
  // The default run is right: nothing marked.
  CHECK(wrong_cells(lookback_run("default", "decoupled-lookback")).first == 0);
}

TEST_CASE("render: a diagram wider than a slide wraps into bands 1920 px wide, its values at full size") {
  Dir dir;
  auto render = [&](std::int64_t n, const std::string& name) {
    save_trace(dir.path / (name + ".json"), record_block_scan(sv_test::config("kogge-stone", n, OpKind::Sum, ValueType::I32)));
    REQUIRE(run_under_xvfb("render '" + (dir.path / (name + ".json")).string() + "' --out '" + (dir.path / (name + ".png")).string() + "'") == 0);
    return load_png(dir.path / (name + ".png"));
  };
  // n = 8 keeps its own width; n = 40 (3119 px drawn one to one) and n = 100 fit a 1920 px slide.
  const Image small = render(8, "s"), mid = render(40, "m"), wide = render(100, "w");
  CHECK(small.w < 1920);
  CHECK(mid.w == 1920);
  CHECK(wide.w == 1920);
  // n = 100 wraps: its rows twice, so about twice n = 40's height (same steps but one more), and no
  // blank half: the last row of cells (or the legend under it) reaches the bottom fifth.
  CHECK(wide.h > 18 * mid.h / 10);
  const std::uint32_t bg = palette_light().background;
  int last_ink = 0;
  for (int y = 0; y < wide.h; ++y)
    for (int x = 0; x < wide.w; x += 3)
      if (!near(wide.at(x, y), bg, 10)) last_ink = y;
  CHECK(last_ink > wide.h * 4 / 5);
}
