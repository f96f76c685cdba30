// A kernel of the user's own in the window, used as a student uses it under Xvfb: opened with
// --kernel, saved again in another editor (the window follows), saved broken (the last good run
// stays, the error at its line), typed into and run with Ctrl+Enter, a race drawn red, the report
// card's hazard with both lines, picked to its step, a .cu dropped on the window. What the window
// shows is read back from --report-kernel (the panel), --report-source (the source pane's lit lines)
// and --report-layout (the diagram's cells, the status line), and from the screenshot's pixels.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "gui/draw/canvas.hpp"
#include "gui/panels/kernel_editor.hpp"
#include "gui/model/layout_report.hpp"
#include "gui_test.hpp"

using namespace gui_test;
using sv::gui::KernelStart;
using sv::gui::kernel_starts;
using sv::gui::LaidRect;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

fs::path asset(const std::string& name) { return fs::path(SCANVIZ_SOURCE_DIR) / "assets" / "kernels" / name; }

// The first line (from 1) of `text` that contains `what`; 0 when none.
std::uint32_t line_of(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::uint32_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(what) != std::string::npos) return n;
  }
  return 0;
}

// `text` with the first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// What the window printed after its last frame, and its layout report.
struct Shown {
  int code = 0;
  std::string out;
  nlohmann::json layout;

  // The value after "PREFIX" on the first line that starts with it.
  std::string line(const std::string& prefix) const {
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
      if (l.rfind(prefix, 0) == 0) return l.substr(prefix.size());
    return "<no line " + prefix + ">";
  }
  // Every line that starts with "PREFIX", the prefix taken off.
  std::vector<std::string> lines(const std::string& prefix) const {
    std::vector<std::string> found;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
      if (l.rfind(prefix, 0) == 0) found.push_back(l.substr(prefix.size()));
    return found;
  }
  std::vector<std::uint32_t> lit() const {
    std::vector<std::uint32_t> lines;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);)
      if (l.rfind("lit ", 0) == 0) lines.push_back(static_cast<std::uint32_t>(std::stoul(l.substr(4))));
    return lines;
  }
  // The lesson's diagram cells as drawn (none where no diagram was drawn).
  nlohmann::json cells() const {
    const auto canvases = layout.value("canvases", nlohmann::json::array());
    return canvases.empty() ? nlohmann::json::array() : canvases[0].value("cells", nlohmann::json::array());
  }
  int race_cells() const {
    int n = 0;
    for (const auto& c : cells()) n += c["race"].get<bool>();
    return n;
  }
  std::optional<LaidRect> chrome(const std::string& name) const {
    if (!layout["chrome"].contains(name)) return std::nullopt;
    const auto& c = layout["chrome"][name];
    return LaidRect{c["x"], c["y"], c["w"], c["h"]};
  }
};

Shown open(const std::string& args, const Dir& dir, int frames = 24) {
  Shown s;
  const fs::path report = dir.path / "layout.json";
  fs::remove(report);
  s.code = run_under_xvfb("gui --frames " + std::to_string(frames) + " --size 1400x800 --theme light --report-kernel --report-source "
                          "--report-layout '" + report.string() + "' " + args, &s.out);
  if (s.code == 0) {
    std::ifstream in(report);
    s.layout = nlohmann::json::parse(in);
  }
  return s;
}

}  // namespace

TEST_CASE("kernel window: a kernel opened with --kernel and saved again in another editor is followed, at the same step") {
  Dir dir;
  const std::string good = read_text(asset("pmpp_kogge_stone_double_buffer.cu"));
  const std::string racy = read_text(asset("pmpp_kogge_stone_incorrect.cu"));
  std::ofstream(dir.path / "scan.cu") << good;
  std::ofstream(dir.path / "racy.cu") << racy;
  const std::string open_args = "--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 2";

  // As opened: the double-buffered kernel, no race; the pane shows its text, step 2's lines lit.
  const Shown before = open(open_args, dir);
  REQUIRE_MESSAGE(before.code == 0, before.out);
  CHECK(before.line("source pane: ") == "scan.cu");
  CHECK(before.line("lesson kernel: ").rfind("scan.cu, shown: scan.cu, step 2 of ", 0) == 0);
  CHECK(before.race_cells() == 0);
  REQUIRE_FALSE(before.lit().empty());
  for (std::uint32_t l : before.lit()) CHECK(l <= static_cast<std::uint32_t>(std::count(good.begin(), good.end(), '\n') + 1));

  // Saved with the one-buffer kernel's text while the window runs: the window records it again,
  // stays at step 2, draws its race, and its pane lights the racy file's line.
  const Shown after = open(open_args + " --keys 'wait:4 save:" + (dir.path / "racy.cu").string() + "," +
                               (dir.path / "scan.cu").string() + "'",
                           dir);
  REQUIRE_MESSAGE(after.code == 0, after.out);
  CHECK(after.line("lesson kernel: ").rfind("scan.cu, shown: scan.cu, step 2 of ", 0) == 0);
  CHECK(after.race_cells() > 0);
  const std::vector<std::uint32_t> lit = after.lit();
  CHECK(std::count(lit.begin(), lit.end(), line_of(racy, "buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride]")) == 1);
  CHECK(after.layout["status"].get<std::string>().rfind("ran scan.cu", 0) == 0);
}

TEST_CASE("kernel window: a save that does not compile keeps the last good run on screen and shows the error at its line") {
  Dir dir;
  const std::string good = read_text(asset("pmpp_kogge_stone_double_buffer.cu"));
  const std::uint32_t bad_line = line_of(good, "__syncthreads();");
  REQUIRE(bad_line > 0);
  std::ofstream(dir.path / "scan.cu") << good;
  std::ofstream(dir.path / "broken.cu") << replaced(good, "__syncthreads();", "__syncthreads(;");
  const Shown before = open("--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 1", dir);
  REQUIRE_MESSAGE(before.code == 0, before.out);
  const Shown s = open("--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 1 --keys 'wait:3 save:" +
                           (dir.path / "broken.cu").string() + "," + (dir.path / "scan.cu").string() + "'",
                       dir);
  REQUIRE_MESSAGE(s.code == 0, s.out);
  // The editor marks the line the error names; the status line says it in the error's own words.
  CHECK(s.line("error line ").rfind(std::to_string(bad_line) + ": scan.cu:" + std::to_string(bad_line) + ":", 0) == 0);
  const std::string status = s.layout["status"];
  CHECK(status.rfind("scan.cu:" + std::to_string(bad_line) + ":", 0) == 0);
  CHECK(status.find("stays on screen") != std::string::npos);
  // The diagram and the pane are the last good run's, at the same step, as before the save.
  REQUIRE_FALSE(before.cells().empty());
  CHECK(s.cells() == before.cells());
  CHECK(s.lit() == before.lit());
  CHECK(s.line("lesson kernel: ") == before.line("lesson kernel: "));
  CHECK(s.line("lesson kernel: ").rfind("scan.cu, shown: scan.cu, step 1 of ", 0) == 0);

  // The same with the editor open and typing: it takes the file's new text (not its own copy) and
  // keeps the keys.
  std::ofstream(dir.path / "scan.cu") << good;
  const Shown typing = open("--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 1 --keys 'k wait:3 save:" +
                                (dir.path / "broken.cu").string() + "," + (dir.path / "scan.cu").string() + " wait:3'",
                            dir);
  REQUIRE_MESSAGE(typing.code == 0, typing.out);
  CHECK(typing.line("kernel editor: ").find("(edited)") == std::string::npos);
  CHECK(typing.line("kernel editor: ").find("(typing)") != std::string::npos);
  CHECK(typing.line("error line ") == s.line("error line "));
}

TEST_CASE("kernel window: typed into the editor and run with Ctrl+Enter, the kernel is recorded as typed") {
  Dir dir;
  const std::string good = read_text(asset("pmpp_kogge_stone_double_buffer.cu"));
  std::ofstream(dir.path / "scan.cu") << good;
  const std::string open_args = "--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 1";
  const Shown before = open(open_args, dir);
  REQUIRE_MESSAGE(before.code == 0, before.out);
  REQUIRE_FALSE(before.lit().empty());

  // K opens the panel with the text taking the keys, the cursor at its start: a comment line typed
  // there moves every line down one, and Ctrl+Enter runs it (the file on disk is not touched).
  const Shown typed = open(open_args + " --keys 'k wait:2 text://typed enter ctrl+enter wait:4'", dir, 30);
  REQUIRE_MESSAGE(typed.code == 0, typed.out);
  std::vector<std::uint32_t> moved = before.lit();
  for (std::uint32_t& l : moved) ++l;
  CHECK(typed.lit() == moved);
  CHECK(typed.line("kernel editor: ").find("(edited)") == std::string::npos);  // it ran as it reads
  CHECK(typed.line("kernel editor: ").find("(typing)") != std::string::npos);  // and the text kept the keys
  CHECK(read_text(dir.path / "scan.cu") == good);

  // Typed wrong: the error at line 1 of the text, the last good run still shown.
  const Shown wrong = open(open_args + " --keys 'k wait:2 text:oops enter ctrl+enter wait:4'", dir, 30);
  REQUIRE_MESSAGE(wrong.code == 0, wrong.out);
  CHECK(wrong.line("error line ").rfind("1: scan.cu:1:", 0) == 0);
  CHECK(wrong.lit() == before.lit());
}

TEST_CASE("kernel window: the slides' incorrect Kogge-Stone shows its race in red, and the report card names both lines") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  const std::string text = read_text(racy);
  const std::uint32_t race_line = line_of(text, "buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride]");
  REQUIRE(race_line > 0);
  // The diagram: cells marked as a race, drawn in the race colour.
  const Image img = screenshot("--theme light --kernel '" + racy.string() + "' --n 8 --step 2", dir.path / "race.png");
  CHECK(count_near(img, sv::gui::palette_light().cell_hazard, 0, img.w) > 200);
  const Shown s = open("--kernel '" + racy.string() + "' --n 8 --step 2 --keys k", dir);
  REQUIRE_MESSAGE(s.code == 0, s.out);
  CHECK(s.race_cells() > 0);
  // The report card (graded off the frame; a counted run waits for it): wrong, a RAW hazard whose
  // write and read are both the line that adds in place.
  // (It also reads input[i] past n when n is less than a block: an out-of-bounds fault, wrong too.)
  CHECK(s.line("report card: ").rfind("wrong", 0) == 0);
  std::string hazard;
  for (const std::string& h : s.lines("hazard: "))
    if (h.rfind("RAW on buffer_s", 0) == 0) hazard = h;
  REQUIRE_FALSE(hazard.empty());
  const std::string at = "(line " + std::to_string(race_line) + ")";
  CHECK(hazard.find("wrote it " + at) != std::string::npos);
  CHECK(hazard.find("read it " + at) != std::string::npos);
}

TEST_CASE("kernel window: a report card entry clicked lights its lines and shows its run at its step") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  const std::uint32_t race_line = line_of(read_text(racy), "buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride]");
  // First where the hazard entry is drawn, then a click on it.
  const Shown first = open("--kernel '" + racy.string() + "' --n 8 --keys k", dir);
  REQUIRE_MESSAGE(first.code == 0, first.out);
  const auto entry = first.chrome("report_hazard_0");
  REQUIRE(entry.has_value());
  const std::string hazard = first.line("hazard: ");
  std::smatch m;
  REQUIRE(std::regex_search(hazard, m, std::regex("step ([0-9]+) \\(n = ([0-9]+)")));
  const std::string click = "click:" + std::to_string(static_cast<int>(entry->x + entry->w / 2)) + "," +
                            std::to_string(static_cast<int>(entry->y + entry->h / 2));
  const Shown picked = open("--kernel '" + racy.string() + "' --n 8 --keys 'k wait:4 " + click + " wait:4'", dir, 30);
  REQUIRE_MESSAGE(picked.code == 0, picked.out);
  CHECK(picked.line("marked lines:") == " " + std::to_string(race_line) + " " + std::to_string(race_line));
  CHECK(picked.line("lesson kernel: ").rfind("pmpp_kogge_stone_incorrect.cu, shown: pmpp_kogge_stone_incorrect.cu, step " + m[1].str() + " of ", 0) == 0);

  // By keyboard alone: K, Escape leaves the text, Down selects the card's first entry (the error of
  // the load, line 12, which is no run's step), Down again the hazard, Enter picks it.
  const Shown keyed = open("--kernel '" + racy.string() + "' --n 8 --keys 'k wait:2 escape down down enter wait:4'", dir, 30);
  REQUIRE_MESSAGE(keyed.code == 0, keyed.out);
  CHECK(keyed.line("marked lines:") == picked.line("marked lines:"));
  CHECK(keyed.line("lesson kernel: ") == picked.line("lesson kernel: "));
}

TEST_CASE("kernel window: by keyboard alone, Page Down and Page Up pick the starting points in turn and run them") {
  Dir dir;
  const std::vector<KernelStart>& starts = kernel_starts();
  REQUIRE(starts.size() >= 3);
  // K, Escape out of the text: Page Down picks the empty template, Page Down again the list's
  // second entry (a picked one takes the keyboard back into the text, hence Escape before each key),
  // Page Up then the one before it; each one picked runs.
  const Shown down = open("--n 8 --keys 'k wait:2 escape pagedown wait:3 escape pagedown wait:4'", dir, 30);
  REQUIRE_MESSAGE(down.code == 0, down.out);
  CHECK(down.line("kernel editor: ").rfind(starts[1].name + ", ", 0) == 0);
  CHECK(down.line("lesson kernel: ").rfind(starts[1].name + ", shown: " + starts[1].name, 0) == 0);
  const Shown up = open("--n 8 --keys 'k wait:2 escape pagedown wait:3 escape pagedown wait:3 escape pageup wait:4'", dir, 30);
  REQUIRE_MESSAGE(up.code == 0, up.out);
  CHECK(up.line("kernel editor: ").rfind(starts[0].name + ", ", 0) == 0);
  // From the text the keys are the text's: Page Down there moves the cursor, picks nothing.
  const Shown typing = open("--n 8 --keys 'k wait:2 pagedown wait:3'", dir, 30);
  REQUIRE_MESSAGE(typing.code == 0, typing.out);
  CHECK(typing.line("lesson kernel: ").rfind("none", 0) == 0);
}

TEST_CASE("kernel window: a .cu dropped on the window opens in the editor and runs") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  const Shown s = open("--n 8 --step 2 --keys 'drop:" + racy.string() + " wait:4'", dir);
  REQUIRE_MESSAGE(s.code == 0, s.out);
  CHECK(s.line("kernel editor: ").rfind("pmpp_kogge_stone_incorrect.cu, ", 0) == 0);
  CHECK(s.line("lesson kernel: ").rfind("pmpp_kogge_stone_incorrect.cu, shown: pmpp_kogge_stone_incorrect.cu", 0) == 0);
  CHECK(s.chrome("kernel_panel").has_value());
  CHECK(s.race_cells() > 0);
}

TEST_CASE("kernel window: a bad kernel or bad options on the command line are one line and exit 2") {
  Dir dir;
  std::ofstream(dir.path / "broken.cu") << "__global__ void k(float* in, float* out, unsigned n) {\n  out[0] = in[0]\n}\n";
  const std::string kernel = asset("pmpp_kogge_stone_incorrect.cu").string();
  for (const std::string& args :
       {"--kernel '" + (dir.path / "missing.cu").string() + "'", "--kernel '" + dir.path.string() + "'",
        "--kernel '" + (dir.path / "broken.cu").string() + "'", "--kernel '" + kernel + "' --algo sklansky",
        "--kernel '" + kernel + "' --op max", "--kernel '" + kernel + "' --block 2000"}) {
    CAPTURE(args);
    std::string out;
    CHECK(run_under_xvfb("gui --frames 2 " + args, &out) == 2);
    CHECK(std::count(out.begin(), out.end(), '\n') == 1);
  }
}
