// The window's side of the page's text mirror (gui/window/page_mirror.*): it is handed over only when
// what the window shows changed, its live region says a new step, a new recording and a new card once,
// and the mirror's buttons step, play and change the lesson through the window's own verbs; the class
// panel's submissions are mirrored while it shows them.
#include <doctest/doctest.h>

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "gui/lesson/class_list.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/platform/desktop.hpp"
#include "gui/window/class_panel.hpp"
#include "gui/window/page_mirror.hpp"

using namespace sv;

namespace {

// A platform with a mirror that keeps what it was handed.
struct MirroringPlatform : gui::DesktopPlatform {
  MirroringPlatform() : DesktopPlatform(800, 600) {}
  bool has_mirror() const override { return true; }
  void show_mirror(const gui::MirrorShown& m) override {
    shown.push_back(m.step.step_line);
    said.push_back(m.announcement);
    labels.push_back(m.canvas_label);
    classes.push_back(m.class_list);
  }
  std::vector<std::string> shown, said, labels;
  std::vector<std::optional<gui::MirrorClass>> classes;
};

struct ImGuiContextHere {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGuiContext* context = ImGui::CreateContext();
  ~ImGuiContextHere() {
    ImGui::DestroyContext(context);
    ImGui::SetCurrentContext(previous);
  }
};

// The racy lesson at the slides' n = 8, recorded on this thread.
void racy_lesson(gui::Ui& ui) {
  gui::set_algorithm(ui.lesson, "kogge-stone-racy");
  ui.lesson.request.op = OpKind::Sum;
  gui::record_lesson(ui.lesson, false);
  REQUIRE(ui.lesson.view);
}

// The racy lesson in a window whose platform has a mirror, handed over once.
struct MirroredLesson {
  ImGuiContextHere imgui;
  gui::Ui ui{false};
  MirroringPlatform page;
  gui::MirrorMemo memo;
  MirroredLesson() {
    racy_lesson(ui);
    follow();
  }
  void follow() { gui::follow_mirror(ui, memo, page); }
};

}  // namespace

TEST_CASE("page mirror: handed over once a change, the live region says each new step once, the canvas named by its view") {
  MirroredLesson w;
  gui::Ui& ui = w.ui;
  MirroringPlatform& page = w.page;
  w.follow();  // nothing changed: nothing handed over
  REQUIRE(page.shown.size() == 1);
  CHECK(page.shown[0] == "Step 1 of 5: load");
  CHECK(page.said[0].rfind("Lesson: kogge-stone-racy, n = 8, sum, 5 steps. Step 1 of 5: load.", 0) == 0);
  CHECK(page.labels[0].find("dataflow diagram of kogge-stone-racy, n = 8, sum. Step 1 of 5: load") != std::string::npos);
  gui::set_step(ui, 1);
  w.follow();
  REQUIRE(page.shown.size() == 2);
  CHECK(page.said[1].rfind("Step 2 of 5: stride = 1.", 0) == 0);
  ui.playing = true;  // the Play button's state changes; no step changed, so nothing is said
  w.follow();
  REQUIRE(page.shown.size() == 3);
  CHECK(page.said[2] == "");
  gui::set_step(ui, 4);  // the last step says the result
  w.follow();
  CHECK(page.said[3].find("Result: wrong.") != std::string::npos);
  ui.show_lookback = true;
  w.follow();
  CHECK(page.labels[4].rfind("The look-back view", 0) == 0);
  CHECK(page.said[4] == "");
}

TEST_CASE("page mirror: its buttons step and play, its algorithm and n record a new lesson, and what it cannot use is ignored") {
  gui::Ui ui(false);
  racy_lesson(ui);
  CHECK(!gui::apply_mirror_actions(ui, {"next", "next", "previous"}));
  CHECK(ui.step == 1);
  CHECK(!gui::apply_mirror_actions(ui, {"last"}));
  CHECK(ui.step == 4);
  CHECK(!gui::apply_mirror_actions(ui, {"first", "play"}));
  CHECK(ui.step == 0);
  CHECK(ui.playing);
  CHECK(!gui::apply_mirror_actions(ui, {"algorithm=kogge-stone-racy", "algorithm=no-such-scan", "algorithm=decoupled-lookback",
                                        "n=eight", "n=0", "n=8", "jump"}));
  CHECK(ui.lesson.request.algorithm == "kogge-stone-racy");
  CHECK(gui::apply_mirror_actions(ui, {"algorithm=brent-kung"}));
  CHECK(ui.lesson.request.algorithm == "brent-kung");
  CHECK(gui::apply_mirror_actions(ui, {"n=16"}));
  CHECK(ui.lesson.request.n == 16);
  CHECK(gui::apply_mirror_actions(ui, {"n=100000"}));  // clamped to what a block takes
  CHECK(ui.lesson.request.n == gui::max_lesson_n(ui.lesson));
}

TEST_CASE("page mirror: a report card is said once it is graded, not from the cases checked so far, and once a card") {
  gui::MirrorShown m;
  m.own_kernel = true;
  cuda::CheckReport card;
  card.hazards.resize(2);
  m.card = &card;
  m.card_state = "WRONG";  // a case found wrong part way: the verdict shows, the card is not done
  gui::MirrorMemo memo;
  CHECK(gui::mirror_announcement(m, nullptr, "", memo) == "");
  CHECK(gui::mirror_announcement(m, nullptr, "scan.cu|120", memo) == "Report card: WRONG, 2 hazards, 0 faults.");
  memo.card = "scan.cu|120";
  CHECK(gui::mirror_announcement(m, nullptr, "scan.cu|120", memo) == "");
  card.hazards.resize(1);
  card.errors.resize(1);
  CHECK(gui::mirror_announcement(m, nullptr, "scan.cu|250", memo) == "Report card: WRONG, 1 hazard, 1 fault.");
}

TEST_CASE("page mirror: the class panel's submissions, each with its verdict, score and first finding, said when opened and once when graded") {
  MirroredLesson w;
  gui::Ui& ui = w.ui;
  MirroringPlatform& page = w.page;
  REQUIRE(page.classes.size() == 1);
  CHECK_FALSE(page.classes[0]);  // no class panel, no class
  // A correct Kogge-Stone, the slides' racy one and a file gone before it was read, dropped at once.
  const std::string source = SCANVIZ_SOURCE_DIR;
  gui::open_dropped_class(ui, {source + "/tests/kernels/correct_kogge_stone.cu", source + "/assets/kernels/pmpp_kogge_stone_incorrect.cu",
                               source + "/tests/kernels/no-such-kernel.cu"}, false);
  w.follow();
  REQUIRE(page.classes.size() == 2);
  REQUIRE(page.classes[1]);
  const gui::MirrorClass& opened = *page.classes[1];
  REQUIRE(opened.entries.size() == 3);
  CHECK(opened.source == "3 dropped files");
  CHECK(opened.entries[0].name == "correct_kogge_stone.cu");
  CHECK(opened.entries[0].score == "");
  CHECK_FALSE(opened.graded);
  CHECK(page.said[1] == "Class opened: 3 dropped files, 3 submissions, grading them one at a time.");

  gui::take_class_grades(ui, true);  // every submission graded, as a counted run's last frame waits
  w.follow();
  REQUIRE(page.classes.size() == 3);
  REQUIRE(page.classes[2]);
  const gui::MirrorClass& graded = *page.classes[2];
  CHECK(graded.graded);
  CHECK(graded.entries[0].state == "correct");
  CHECK(graded.entries[1].state == "WRONG");
  CHECK(graded.entries[2].state == "ERROR");
  CHECK(graded.entries[0].first == "-");
  CHECK(graded.entries[1].first.find("line") != std::string::npos);  // the race's lines
  CHECK(graded.entries[2].first.find("no-such-kernel.cu") != std::string::npos);
  for (const gui::MirrorClassEntry& e : graded.entries) CHECK(e.score.find('/') != std::string::npos);
  CHECK(page.said[2] == "Class graded: " + graded.summary + ".");
  CHECK(graded.summary.find("1 correct, 1 wrong, 1 error") != std::string::npos);
  w.follow();  // nothing changed
  CHECK(page.classes.size() == 3);

  // Picking the racy one marks it open; the class is not said again.
  REQUIRE(gui::pick_entry(ui.submissions.list, 1));
  w.follow();
  REQUIRE(page.classes.size() == 4);
  REQUIRE(page.classes[3]);
  CHECK(page.classes[3]->entries[1].opened);
  CHECK_FALSE(page.classes[3]->entries[0].opened);
  CHECK(page.said[3].find("Class") == std::string::npos);
  ui.submissions.show = false;  // G hides the panel: the class leaves the mirror
  w.follow();
  REQUIRE(page.classes.size() == 5);
  CHECK_FALSE(page.classes[4]);
}
