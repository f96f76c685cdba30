// A class in the window: the class model (a folder's submissions graded one at a time in the list's
// order, each with its verdict, score and first finding; a class table's rows keeping their verdicts;
// an entry picked giving its own file), and the class panel under Xvfb: a folder of three opened with
// --class, every verdict drawn in its colour, Down and Enter opening the second as the lesson's kernel,
// and three .cu files dropped at once listed as a class, G and the keys alone opening one.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "grade/class_table.hpp"
#include "grade/class_table_read.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/lesson/class_list.hpp"
#include "gui_test.hpp"

using namespace gui_test;
using sv::gui::ClassList;
using sv::gui::KernelChecker;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

const fs::path kSource = SCANVIZ_SOURCE_DIR;
const std::string kBroken = "__global__ void scan(float* in, float* out, int n) {\n  out[threadIdx.x] = in[threadIdx.x]\n}\n";

// A class of three in `dir`: alice's correct Kogge-Stone, bob's racy one (the slides' "Incorrect!"),
// carol's that does not compile; listed in that order (by name).
void write_class(const fs::path& dir) {
  fs::create_directories(dir / "carol");
  fs::copy_file(kSource / "tests/kernels/correct_kogge_stone.cu", dir / "alice.cu", fs::copy_options::overwrite_existing);
  fs::copy_file(kSource / "assets/kernels/pmpp_kogge_stone_incorrect.cu", dir / "bob.cu", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "carol" / "scan.cu") << kBroken;
  std::ofstream(dir / "notes.txt") << "not a submission\n";
}

// The value after "PREFIX" on the first line of `out` that starts with it.
std::string line(const std::string& out, const std::string& prefix) {
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);)
    if (l.rfind(prefix, 0) == 0) return l.substr(prefix.size());
  return "<no line " + prefix + ">";
}

}  // namespace

TEST_CASE("class list: a folder's submissions are graded one at a time in the list's order, each with its verdict, score and first finding") {
  Dir dir;
  write_class(dir.path / "class");
  ClassList list = sv::gui::class_from_folder((dir.path / "class").string());
  REQUIRE(list.entries.size() == 3);
  CHECK(list.entries[0].name == "alice.cu");
  CHECK(list.entries[1].name == "bob.cu");
  CHECK(list.entries[2].name == "carol/scan.cu");
  CHECK(list.graded() == 0);

  // Without threads, as the page grades: a few milliseconds at a time. Whenever a verdict arrives,
  // it is the first entry still without one: one submission at a time, in order.
  KernelChecker checker(false);
  std::vector<int> order;
  for (int frame = 0; frame < 100000 && list.graded() < 3; ++frame) {
    const std::size_t before = list.graded();
    if (list.grading >= 0) CHECK(list.entries[static_cast<std::size_t>(list.grading)].verdict.empty());
    sv::gui::grade_next(list, checker, "", 2);
    for (std::size_t i = 0; i < 3; ++i)
      if (!list.entries[i].verdict.empty() && std::find(order.begin(), order.end(), static_cast<int>(i)) == order.end()) order.push_back(static_cast<int>(i));
    CHECK(list.graded() <= before + 1);
    for (std::size_t i = 0; i < list.graded(); ++i) CHECK_FALSE(list.entries[i].verdict.empty());  // a prefix of the list
  }
  CHECK(order == std::vector<int>{0, 1, 2});
  CHECK(list.grading == -1);
  CHECK_FALSE(checker.busy());

  CHECK(list.entries[0].verdict == "correct");
  CHECK(list.entries[0].score == 10);
  CHECK(list.entries[0].first == "-");
  CHECK(list.entries[1].verdict == "wrong");
  CHECK(list.entries[1].score < 10);
  // The first finding is the card's first fault, else its first race (as the class table's).
  REQUIRE(list.entries[1].grade);
  const sv::cuda::CheckReport& bob_card = list.entries[1].grade->report;
  REQUIRE_FALSE(bob_card.hazards.empty());
  const auto fault = std::find_if(bob_card.errors.begin(), bob_card.errors.end(), [](const sv::cuda::CheckError& e) { return e.severity == "error"; });
  CHECK(list.entries[1].first.rfind(fault != bob_card.errors.end() ? fault->kind + " at line " + std::to_string(fault->line) + ": " : "RAW race on buffer_s", 0) == 0);
  CHECK(list.entries[2].verdict == "error");
  CHECK(list.entries[2].score == 0);
  CHECK(list.entries[2].first.find("syntax") == 0);
  CHECK(list.count("correct") == 1);
  CHECK(list.count("wrong") == 1);

  // Picking an entry gives that entry's own file: its text, the path to follow, its card.
  const auto bob = sv::gui::pick_entry(list, 1);
  REQUIRE(bob);
  CHECK(list.selected == 1);
  CHECK(bob->kernel->name == "bob.cu");
  CHECK(bob->kernel->text == read_text(dir.path / "class" / "bob.cu"));
  CHECK(fs::equivalent(bob->follow, dir.path / "class" / "bob.cu"));
  REQUIRE(bob->grade);
  CHECK(bob->grade->report.verdict == "wrong");
  CHECK(bob->grade->kernel == bob->kernel);
  const auto last = sv::gui::pick_entry(list, 9);  // past the end: the last one
  REQUIRE(last);
  CHECK(last->kernel->name == "carol/scan.cu");
  CHECK(last->kernel->text == kBroken);
}

TEST_CASE("class list: a class table keeps the verdicts graded on the command line, finds its files beside it, and a bad table is one line") {
  Dir dir;
  write_class(dir.path / "class");
  std::vector<sv::grade::ClassRow> rows(3);
  rows[0] = {"class/alice.cu", "correct", 10, 10, "-", "kogge-stone", {}, {}, 1.5};
  rows[1] = {"class/bob.cu", "wrong", 7, 10, "RAW race on buffer_s (shared), lines 16 and 16", "-", {}, {}, 2};
  rows[2] = {"class/dave.cu", "error", 0, 10, "crashed: signal 11", "-", {}, {}, 0.1};
  std::ofstream(dir.path / "class.csv") << sv::grade::class_csv(rows);

  ClassList list = sv::gui::class_from_table((dir.path / "class.csv").string());
  REQUIRE(list.entries.size() == 3);
  CHECK(list.graded() == 3);
  CHECK(list.entries[1].verdict == "wrong");
  CHECK(list.entries[1].score == 7);
  CHECK(list.entries[1].first == rows[1].first);
  CHECK(list.entries[2].problem.find("not found") != std::string::npos);
  // Nothing is graded again.
  KernelChecker checker(false);
  sv::gui::grade_next(list, checker, "", 1);
  CHECK_FALSE(checker.busy());
  CHECK(list.grading == -1);
  // bob's file is found beside the table, though the working folder is elsewhere.
  const auto bob = sv::gui::pick_entry(list, 1);
  REQUIRE(bob);
  CHECK(bob->kernel->text == read_text(dir.path / "class" / "bob.cu"));
  CHECK_FALSE(bob->grade);
  CHECK_FALSE(sv::gui::pick_entry(list, 2));  // dave's is missing: nothing to open

  for (const std::string& bad : {std::string("name,verdict\nx,correct\n"), std::string("file,verdict,score,max_score,first_finding,matches,seconds\nx.cu,fine,1,2,-,-,0\n"),
                                 std::string("file,verdict,score,max_score,first_finding,matches,seconds\n")}) {
    std::string what;
    try {
      (void)sv::grade::read_class_csv(bad, "t.csv");
    } catch (const std::invalid_argument& e) {
      what = e.what();
    }
    CHECK(what.rfind("t.csv", 0) == 0);
    CHECK(what.find('\n') == std::string::npos);
  }
  CHECK_THROWS_AS(sv::gui::open_class_path((dir.path / "class" / "notes.txt").string()), std::invalid_argument);
  fs::create_directories(dir.path / "empty");
  CHECK_THROWS_WITH_AS(sv::gui::class_from_folder((dir.path / "empty").string()), doctest::Contains("without .cu files"), std::invalid_argument);
}

TEST_CASE("class panel: a folder of three opened with --class lists every verdict in its colour, and Down and Enter open the second as the lesson's kernel") {
  Dir dir;
  write_class(dir.path / "class");
  const fs::path report = dir.path / "layout.json", png = dir.path / "class.png";
  std::string out;
  const int code = run_under_xvfb("gui --frames 24 --size 1400x800 --theme light --class '" + (dir.path / "class").string() +
                                      "' --report-class --report-kernel --report-layout '" + report.string() + "' --screenshot '" + png.string() +
                                      "' --keys 'down enter'",
                                  &out);
  REQUIRE_MESSAGE(code == 0, out);
  CHECK(line(out, "class: ").rfind((dir.path / "class").string() + ", 3 submissions, 3 graded, panel shown", 0) == 0);
  CHECK(line(out, "entry 0: ") == "alice.cu: correct, 10 of 10: -");
  CHECK(line(out, "entry 1: ").rfind("bob.cu: wrong, ", 0) == 0);
  CHECK(line(out, "entry 2: ").rfind("carol/scan.cu: error, 0 of 10: syntax", 0) == 0);
  CHECK(line(out, "selected: ") == "1 bob.cu");
  CHECK(line(out, "lesson kernel: ").rfind("bob.cu, shown: bob.cu", 0) == 0);
  CHECK(line(out, "report card: ").rfind("wrong", 0) == 0);

  std::ifstream in(report);
  const nlohmann::json layout = nlohmann::json::parse(in);
  CHECK(layout["status"].get<std::string>().find("bob.cu") != std::string::npos);
  const Image img = load_png(png);
  // Each verdict's cell holds text of its colour and none of the other: green "correct", red
  // "WRONG" and "ERROR" (the window's text colours on the light theme).
  const std::uint32_t green = sv::gui::kTextOnLight.good, red = sv::gui::kTextOnLight.bad;
  const auto pixels = [&](int row, std::uint32_t colour) {
    const auto& c = layout["chrome"]["class_verdict_" + std::to_string(row)];
    REQUIRE(c.is_object());
    const int x = c["x"].get<int>(), y = c["y"].get<int>();
    return count_near(img, colour, x, x + c["w"].get<int>(), 40, y, y + c["h"].get<int>());
  };
  CHECK(pixels(0, green) > 10);
  CHECK(pixels(0, red) == 0);
  CHECK(pixels(1, red) > 10);
  CHECK(pixels(1, green) == 0);
  CHECK(pixels(2, red) > 10);
  REQUIRE(layout["chrome"].contains("class_panel"));
}

TEST_CASE("class panel: several .cu files dropped at once are a class, reached by G and the keys alone, and a bad --class is one line and exit code 2") {
  Dir dir;
  write_class(dir.path / "class");
  const fs::path c = dir.path / "class";
  std::string out;
  // Dropped, then G hides the panel (Down and Enter, pressed then, do nothing) and G again shows it
  // with the keys its: Down and Enter open the second. Were G deaf, they would open the third.
  const int code = run_under_xvfb("gui --frames 24 --size 1200x700 --report-class --report-kernel --keys 'drop:" + (c / "bob.cu").string() + "," +
                                      (c / "alice.cu").string() + "," + (c / "carol" / "scan.cu").string() + " g down enter g down enter'",
                                  &out);
  REQUIRE_MESSAGE(code == 0, out);
  CHECK(line(out, "class: ").rfind("3 dropped files, 3 submissions, 3 graded, panel shown", 0) == 0);
  CHECK(line(out, "entry 0: ").rfind("bob.cu: wrong", 0) == 0);  // in the order dropped
  CHECK(line(out, "entry 1: ").rfind("alice.cu: correct", 0) == 0);
  CHECK(line(out, "entry 2: ").rfind("scan.cu: error", 0) == 0);
  CHECK(line(out, "selected: ") == "1 alice.cu");
  CHECK(line(out, "lesson kernel: ").rfind("alice.cu, shown: alice.cu", 0) == 0);

  std::string refused;
  CHECK(run_under_xvfb("gui --frames 2 --class '" + (c / "notes.txt").string() + "'", &refused) == 2);
  CHECK(refused.find("scanviz: --class: ") != std::string::npos);
  CHECK(std::count(refused.begin(), refused.end(), '\n') == 1);
}
