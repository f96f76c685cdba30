// The GPU timing panel (a table made elsewhere, sorting, the window kept whole) and the warp
// divergence window, lane by lane.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <fstream>

#include "gui_test.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/text_colours.hpp"
#include "bench_result.hpp"
#include "chart.hpp"
#include "gpu/executor.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/panels/divergence_panel.hpp"
#include "gui/model/pipeline_scene.hpp"
#include "embedded.hpp"
#include "gui/panels/timing_panel.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

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
  if (!sv::probe_gpu().usable)  // the message is drawn in the error text's red, used nowhere else here
    CHECK(count_near(img, kTextOnLight.bad, 0, img.w, 30) > 50);
  {
    std::ofstream f(dir.path / "bad.json");
    f << "{\"format\": \"scanviz-bench\", \"version\": 7}";
  }
  std::string out;
  CHECK(run_under_xvfb("gui --bench '" + (dir.path / "bad.json").string() + "' --frames 2", &out) == 2);
  CHECK(out.find("version") != std::string::npos);
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
