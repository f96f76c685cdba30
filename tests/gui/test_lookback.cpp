// The look-back view: its model field by field (the paper's snapshot, sharing, deadlock, stale and
// torn reads, folding 10,000 tiles), its scenes and window as drawn, and the pipelined kernel's scene.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <cmath>
#include <iterator>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <tuple>

#include "../tests/helpers.hpp"
#include "gui_test.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/panels/lookback_view.hpp"
#include "gui/model/pipeline_scene.hpp"
#include "embedded.hpp"
#include "svg.hpp"
#include "emulator/record.hpp"
#include "trace/trace_json.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

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
