// The offscreen pictures drawn by the real OpenGL code under Xvfb, with pixels that prove the
// picture: PNG, the GIF's frames, the scale, wide diagrams in bands, the charts, Export's names.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "../tests/helpers.hpp"
#include "gui_test.hpp"
#include "gui/draw/render.hpp"
#include "gui/draw/canvas.hpp"
#include "chart.hpp"
#include "gui/model/diagram_model.hpp"
#include "emulator/record.hpp"
#include "trace/trace_json.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

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
