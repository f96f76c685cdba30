// `scanviz gui`'s options as the window checks them: each records the lesson it names, and what it
// cannot take is one line and exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <filesystem>

#include "../tests/helpers.hpp"
#include "../tests/skips.hpp"
#include "gui_test.hpp"
#include "gpu/executor.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/panels/timing_panel.hpp"
#include "emulator/record.hpp"
#include "trace/trace_json.hpp"

using namespace sv;
using namespace sv::gui;
using namespace gui_test;
namespace fs = std::filesystem;

TEST_CASE("gui: the lessons take --warp (a warp width, or the others' lockstep), and a bad width is one line, exit 2") {
  std::string out;
  CHECK(run_under_xvfb("gui --algo warp-raking --n 16 --warp 4 --frames 3", &out) == 0);
  const std::pair<const char*, const char*> bad[] = {
      {"gui --algo warp-raking --n 16 --warp 3 --frames 2", "warp width 3 is not a power of two from 2 to 32"},
      {"gui --algo warp-sklansky --n 16 --warp 32 --frames 2", "warp width 32 exceeds the block"},
      {"gui --algo warp-sklansky --n 16 --warp 0 --frames 2", "--warp: warp width 0 is not a power of two from 2 to 32"},
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
  one_line("--executor: unknown executor 'cpu' (auto, gpu or emulator)");
  CHECK(run_under_xvfb("gui --amplify 3 --frames 2", &out) == 2);
  one_line("--amplify 3 applies to the GPU executor only (--executor gpu)");
  CHECK(run_under_xvfb("gui --executor gpu --amplify -1 --frames 2", &out) == 2);
  one_line("--amplify: '-1' is not a whole number");
  CHECK(run_under_xvfb("gui --measure 2^29 --frames 2", &out) == 2);
  one_line("--measure: the timing panel measures powers of two from 2^10 to 2^28, not 536870912");
  CHECK(run_under_xvfb("gui --measure 1000 --frames 2", &out) == 2);
  one_line("not 1000");
  CHECK(run_under_xvfb("gui --op xor --frames 2", &out) == 2);
  one_line("--op: unknown operator 'xor'");
}

TEST_CASE("gui: without a usable GPU, the GPU lesson and measuring are refused in one line" *
          sv_test::skip_unless([] { return !probe_gpu().usable; }, "a usable GPU is here: --executor gpu and --measure run "
                                                    "(scripts/gpu-check.sh gui shows them)")) {
  std::string out;
  CHECK(run_under_xvfb("gui --executor gpu --frames 2", &out) == 2);
  CHECK(out.find("--executor gpu: no usable CUDA device (") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  CHECK(run_under_xvfb("gui --measure 2^20 --frames 2", &out) == 2);
  CHECK(out.find("--measure: no usable CUDA device (") != std::string::npos);
  CHECK(std::count(out.begin(), out.end(), '\n') == 1);
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

TEST_CASE("gui: --schedule records the lesson under that schedule, and an unknown one is one line, exit 2") {
  Dir dir;
  // The racy kernel at the slides' n = 8, every thread on its own: in order it goes wrong; the
  // lesson's own recording says how it goes under each schedule.
  for (const std::string schedule : {"in-order", "reverse", "round-robin", "random:5"}) {
    CAPTURE(schedule);
    gui::Lesson l;
    set_field(l.request, "schedule", schedule);
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
