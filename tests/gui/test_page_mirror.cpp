// The window's side of the page's text mirror (gui/window/page_mirror.*): it is handed over only when
// what the window shows changed, its live region says a new step, a new recording and a new card once,
// and the mirror's buttons step, play and change the lesson through the window's own verbs.
#include <doctest/doctest.h>

#include <imgui.h>

#include <string>
#include <vector>

#include "gui/lesson/lesson.hpp"
#include "gui/platform/desktop.hpp"
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
  }
  std::vector<std::string> shown, said, labels;
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

}  // namespace

TEST_CASE("page mirror: handed over once a change, the live region says each new step once, the canvas named by its view") {
  ImGuiContextHere imgui;
  gui::Ui ui(false);
  racy_lesson(ui);
  MirroringPlatform page;
  gui::MirrorMemo memo;
  gui::follow_mirror(ui, memo, page);
  gui::follow_mirror(ui, memo, page);  // nothing changed: nothing handed over
  REQUIRE(page.shown.size() == 1);
  CHECK(page.shown[0] == "Step 1 of 5: load");
  CHECK(page.said[0].rfind("Lesson: kogge-stone-racy, n = 8, sum, 5 steps. Step 1 of 5: load.", 0) == 0);
  CHECK(page.labels[0].find("dataflow diagram of kogge-stone-racy, n = 8, sum. Step 1 of 5: load") != std::string::npos);
  gui::set_step(ui, 1);
  gui::follow_mirror(ui, memo, page);
  REQUIRE(page.shown.size() == 2);
  CHECK(page.said[1].rfind("Step 2 of 5: stride = 1.", 0) == 0);
  ui.playing = true;  // the Play button's state changes; no step changed, so nothing is said
  gui::follow_mirror(ui, memo, page);
  REQUIRE(page.shown.size() == 3);
  CHECK(page.said[2] == "");
  gui::set_step(ui, 4);  // the last step says the result
  gui::follow_mirror(ui, memo, page);
  CHECK(page.said[3].find("Result: wrong.") != std::string::npos);
  ui.show_lookback = true;
  gui::follow_mirror(ui, memo, page);
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
