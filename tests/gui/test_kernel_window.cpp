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
#include "gui/draw/text_colours.hpp"
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

Shown open(const std::string& args, const Dir& dir, int frames = 24, const std::string& size = "1400x800") {
  Shown s;
  const fs::path report = dir.path / "layout.json";
  fs::remove(report);
  s.code = run_under_xvfb("gui --frames " + std::to_string(frames) + " --size " + size + " --theme light --report-kernel --report-source "
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
  // The panel then closes (Escape leaves the text, K), so the source pane shows the run's lines.
  const Shown typed = open(open_args + " --keys 'k wait:2 text://typed enter ctrl+enter wait:4 escape k wait:2'", dir, 34);
  REQUIRE_MESSAGE(typed.code == 0, typed.out);
  std::vector<std::uint32_t> moved = before.lit();
  for (std::uint32_t& l : moved) ++l;
  CHECK(typed.lit() == moved);
  CHECK(typed.line("kernel editor: ").find("(edited)") == std::string::npos);  // it ran as it reads
  CHECK(read_text(dir.path / "scan.cu") == good);

  // Typed wrong: the error at line 1 of the text, the last good run still shown.
  const Shown wrong = open(open_args + " --keys 'k wait:2 text:oops enter ctrl+enter wait:4 escape k wait:2'", dir, 34);
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

namespace {

// "click:X,Y" at the middle of `r`.
std::string click_at(const LaidRect& r) {
  return "click:" + std::to_string(static_cast<int>(r.x + r.w / 2)) + "," + std::to_string(static_cast<int>(r.y + r.h / 2));
}

}  // namespace

TEST_CASE("kernel window: a report card entry clicked lights its lines and shows its run at its step, an error under the editor its line") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  const std::uint32_t race_line = line_of(read_text(racy), "buffer_s[threadIdx.x] += buffer_s[threadIdx.x - stride]");
  // First where the hazard entry is drawn, then a click on it; in a window wide enough for the card
  // beside the editor, the whole height of the panel, so the entry shows without scrolling.
  const std::string wide = "1600x900";
  const Shown first = open("--kernel '" + racy.string() + "' --n 8 --keys k", dir, 24, wide);
  REQUIRE_MESSAGE(first.code == 0, first.out);
  const auto entry = first.chrome("report_hazard_0");
  REQUIRE(entry.has_value());
  const std::string hazard = first.line("hazard: ");
  std::smatch m;
  REQUIRE(std::regex_search(hazard, m, std::regex("step ([0-9]+) \\(n = ([0-9]+)")));
  const Shown picked = open("--kernel '" + racy.string() + "' --n 8 --keys 'k wait:4 " + click_at(*entry) + " wait:4'", dir, 30, wide);
  REQUIRE_MESSAGE(picked.code == 0, picked.out);
  CHECK(picked.line("marked lines:") == " " + std::to_string(race_line) + " " + std::to_string(race_line));
  CHECK(picked.line("lesson kernel: ").rfind("pmpp_kogge_stone_incorrect.cu, shown: pmpp_kogge_stone_incorrect.cu, step " + m[1].str() + " of ", 0) == 0);

  // By keyboard alone: K, Escape leaves the text, Down selects the card's first entry (the error of
  // the load, line 12, which is no run's step), Down again the hazard, Enter picks it.
  const Shown keyed = open("--kernel '" + racy.string() + "' --n 8 --keys 'k wait:2 escape down down enter wait:4'", dir, 30, wide);
  REQUIRE_MESSAGE(keyed.code == 0, keyed.out);
  CHECK(keyed.line("marked lines:") == picked.line("marked lines:"));
  CHECK(keyed.line("lesson kernel: ") == picked.line("lesson kernel: "));

  // Every error the card reports is listed under the editor at its line (the load's read past n);
  // a click on it marks that line.
  const std::uint32_t load_line = line_of(read_text(racy), "buffer_s[threadIdx.x] = input[i];");
  CHECK(first.line("error line " + std::to_string(load_line) + ": ").rfind("out-of-bounds", 0) == 0);
  const auto row = first.chrome("editor_problem_0");
  REQUIRE(row.has_value());
  const Shown clicked = open("--kernel '" + racy.string() + "' --n 8 --keys 'k wait:4 " + click_at(*row) + " wait:3'", dir, 30, wide);
  REQUIRE_MESSAGE(clicked.code == 0, clicked.out);
  CHECK(clicked.line("marked lines:") == " " + std::to_string(load_line));
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

TEST_CASE("kernel window: a whole file pasted with Ctrl+V replaces the editor's selection, and one pasted outside a text box opens as the kernel") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  const std::string text = read_text(racy);
  const auto lines = std::count(text.begin(), text.end(), '\n');
  std::ofstream(dir.path / "scan.cu") << read_text(asset("pmpp_kogge_stone_double_buffer.cu"));
  // Into the text box: Ctrl+A selects the double-buffered kernel, Ctrl+V puts the racy file (on the
  // clipboard through GLFW, as another program's copy) in its place, Ctrl+Enter runs it.
  const Shown typed = open("--kernel '" + (dir.path / "scan.cu").string() + "' --n 8 --step 2 --keys 'k wait:2 ctrl+a clip:" +
                               racy.string() + " ctrl+v wait:2 ctrl+enter wait:4'",
                           dir, 30);
  REQUIRE_MESSAGE(typed.code == 0, typed.out);
  CHECK(typed.line("kernel editor: ").rfind("scan.cu, " + std::to_string(lines) + " lines", 0) == 0);
  CHECK(typed.race_cells() > 0);
  CHECK(typed.line("report card: ").rfind("wrong", 0) == 0);
  // Outside any text box: the pasted file is the editor's text and the lesson, as a dropped file is.
  const Shown outside = open("--n 8 --step 2 --keys 'clip:" + racy.string() + " ctrl+v wait:4'", dir);
  REQUIRE_MESSAGE(outside.code == 0, outside.out);
  CHECK(outside.line("kernel editor: ").rfind("pasted.cu, " + std::to_string(lines) + " lines", 0) == 0);
  CHECK(outside.line("lesson kernel: ").rfind("pasted.cu, shown: pasted.cu", 0) == 0);
  CHECK(outside.race_cells() > 0);
}

namespace {

// A run at `size` (WxH) with the panel's report, its layout and its screenshot.
Shown shown_at(const std::string& size, const std::string& args, const Dir& dir, const fs::path& png, int frames = 12) {
  Shown s;
  const fs::path report = dir.path / "layout.json";
  fs::remove(report);
  s.code = run_under_xvfb("gui --frames " + std::to_string(frames) + " --size " + size + " --theme light --report-kernel --report-layout '" +
                              report.string() + "' --screenshot '" + png.string() + "' " + args,
                          &s.out);
  if (s.code == 0) {
    std::ifstream in(report);
    s.layout = nlohmann::json::parse(in);
  }
  return s;
}

bool overlap(const LaidRect& a, const LaidRect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

constexpr std::uint32_t kVerdictGood = sv::gui::kTextOnLight.good, kVerdictBad = sv::gui::kTextOnLight.bad;

}  // namespace

TEST_CASE("kernel window: the panel opens beside the diagram, never over it, at 1280x800 and 1920x1080") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  for (const std::string size : {"1280x800", "1920x1080"}) {
    CAPTURE(size);
    const fs::path png = dir.path / ("panel-" + size + ".png");
    const Shown s = shown_at(size, "--kernel '" + racy.string() + "' --n 8 --step 2 --keys k", dir, png);
    REQUIRE_MESSAGE(s.code == 0, s.out);
    const auto panel = s.chrome("kernel_panel"), card = s.chrome("report_card");
    REQUIRE(panel.has_value());
    REQUIRE(card.has_value());
    const auto& area = s.layout["canvases"][0]["area"];
    const LaidRect diagram{area["x"], area["y"], area["w"], area["h"]};
    CHECK_FALSE(overlap(*panel, diagram));
    // As a person sees it: the race's cells in the diagram's region, WRONG in the card's.
    const Image img = load_png(png);
    const auto x = [](float v) { return static_cast<int>(v); };
    CHECK(count_near(img, sv::gui::palette_light().cell_hazard, x(diagram.x), x(diagram.x + diagram.w), 6, x(diagram.y),
                     x(diagram.y + diagram.h)) > 200);
    CHECK(count_near(img, kVerdictBad, x(card->x), x(card->x + card->w), 12, x(card->y), x(card->y + card->h)) > 20);
    CHECK(s.line("report card: ").rfind("wrong", 0) == 0);
  }
}

TEST_CASE("kernel window: one verdict: the status line, the lesson panel and the card agree, and nothing is green beside a compile error") {
  Dir dir;
  const fs::path racy = asset("pmpp_kogge_stone_incorrect.cu");
  // The racy kernel at n = 8, lockstep 32 and in order: this run's outputs are right, the card is
  // WRONG (its other cases race); the status line and the lesson panel say the card's verdict.
  const Shown s = shown_at("1280x800", "--kernel '" + racy.string() + "' --n 8 --warp 32 --keys k", dir, dir.path / "racy.png");
  REQUIRE_MESSAGE(s.code == 0, s.out);
  CHECK(s.line("report card: ").rfind("wrong", 0) == 0);
  CHECK(s.line("verdict shown: ").rfind("WRONG;", 0) == 0);
  CHECK(s.layout["status"].get<std::string>().find("report card: WRONG") != std::string::npos);
  const Image racy_img = load_png(dir.path / "racy.png");
  const auto lesson = s.chrome("kernel_panel");
  REQUIRE(lesson.has_value());
  CHECK(count_near(racy_img, kVerdictGood, 0, static_cast<int>(lesson->x), 12) == 0);  // no green verdict left of the panel

  // The built-in lesson on screen, a kernel typed that does not compile: ERROR in red, no green.
  const fs::path png = dir.path / "error.png";
  const Shown e = shown_at("1280x800", "--n 8 --keys 'k wait:2 text:oops enter ctrl+enter wait:4'", dir, png, 20);
  REQUIRE_MESSAGE(e.code == 0, e.out);
  CHECK(e.line("verdict shown: ").rfind("ERROR;", 0) == 0);
  const Image img = load_png(png);
  CHECK(count_near(img, kVerdictGood, 0, img.w, 12) == 0);
  CHECK(count_near(img, kVerdictBad, 0, img.w / 3, 12) > 20);  // the lesson panel: the error, and ERROR
}

TEST_CASE("kernel window: a file of two kernels offers the launch its error suggests, and the launch typed runs and grades it") {
  Dir dir;
  const std::string scan = replaced(read_text(asset("pmpp_kogge_stone_double_buffer.cu")), "#define BLOCK_DIM 1024", "#define BLOCK_DIM 8");
  std::ofstream(dir.path / "two.cu") << scan << "\n__global__ void add_sums(float* out, float* sums, unsigned int n) {\n"
                                        "    if (blockIdx.x > 0) out[blockIdx.x * blockDim.x + threadIdx.x] += sums[blockIdx.x - 1];\n}\n";
  // Dropped on the window (on the command line a kernel that cannot run is an error and exit 2).
  const std::string args = "--n 8 --keys 'drop:" + (dir.path / "two.cu").string();
  const Shown first = open(args + " wait:4'", dir);
  REQUIRE_MESSAGE(first.code == 0, first.out);
  CHECK(first.line("report card: ").rfind("error", 0) == 0);
  const auto take = first.chrome("launch_take");
  REQUIRE(take.has_value());
  // One click puts the suggestion in the box, which takes the keyboard with it selected; the launch
  // typed over it and Enter run the kernel and grade it.
  const Shown taken = open(args + " wait:4 " + click_at(*take) + " wait:3 ctrl+a text:kogge_stone_double_buffer_scan_kernel<<<1,8>>>(in,out,sums,n) enter wait:4'",
                           dir, 36);
  REQUIRE_MESSAGE(taken.code == 0, taken.out);
  // Graded as launched (the file's loads read past n below a block: wrong, no longer an error).
  CHECK(taken.line("report card: ").rfind("wrong", 0) == 0);
  const std::vector<std::string> errors = taken.lines("error line ");
  CHECK(std::any_of(errors.begin(), errors.end(), [](const std::string& e) { return e.find("out-of-bounds") != std::string::npos; }));
  CHECK(taken.line("launch: ").rfind("kogge_stone_double_buffer_scan_kernel<<<1, 8", 0) == 0);
  CHECK(taken.line("lesson kernel: ").rfind("two.cu, shown: two.cu", 0) == 0);
}

TEST_CASE("kernel window: the card says why its block is not the file's") {
  Dir dir;
  // The double-buffered kernel says BLOCK_DIM 1024; checked without a launch, in blocks of 8.
  const Shown s = open("--kernel '" + asset("pmpp_kogge_stone_double_buffer.cu").string() + "' --n 8 --keys k", dir);
  REQUIRE_MESSAGE(s.code == 0, s.out);
  CHECK(s.line("note: ").rfind("blocks of 8 threads where the file says BLOCK_DIM 1024", 0) == 0);
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
