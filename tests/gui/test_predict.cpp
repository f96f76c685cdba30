// Predict the next step in the window, answered through scripted key presses that go through the
// GLFW backend's callbacks: right and wrong answers, the score, the held timeline, the racy kernel.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "../tests/helpers.hpp"
#include "analysis/predict.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/model/diagram_model.hpp"

#define STBI_ONLY_PNG
#include <stb_image.h>

using namespace sv;
namespace fs = std::filesystem;

namespace {

struct Shot {
  int code = -1;
  std::string out;
  int w = 0, h = 0;
  std::vector<unsigned char> rgba;
  // Pixels within `tolerance` of the colour in the rectangle [x0, x1) x [y0, y1).
  int count(std::uint32_t rgb, int x0, int y0, int x1, int y1, int tolerance = 30) const {
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(h, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(w, x1); ++x) {
        const unsigned char* p = &rgba[(static_cast<std::size_t>(y) * w + x) * 4];
        n += std::abs(p[0] - int(rgb >> 16 & 0xFF)) <= tolerance && std::abs(p[1] - int(rgb >> 8 & 0xFF)) <= tolerance &&
             std::abs(p[2] - int(rgb & 0xFF)) <= tolerance;
      }
    return n;
  }
};

// 1200x700, 60 frames, the script's keys fed from the third frame; stdout has the graded answers.
Shot run_gui(const std::string& args, const std::string& keys) {
  const fs::path dir = fs::temp_directory_path() / ("scanviz-predict-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path png = dir / "shot.png", log = dir / "out.txt";
  const std::string cmd = "XDG_CONFIG_HOME='" + dir.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' '" SCANVIZ_EXE
                          "' gui --frames 60 --size 1200x700 --theme light " + args + " --keys '" + keys + "' --screenshot '" +
                          png.string() + "' >'" + log.string() + "' 2>&1";
  Shot s;
  const int status = std::system(cmd.c_str());
  s.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream f(log);
  std::stringstream text;
  text << f.rdbuf();
  s.out = text.str();
  int channels = 0;
  if (unsigned char* data = stbi_load(png.c_str(), &s.w, &s.h, &channels, 4)) {
    s.rgba.assign(data, data + static_cast<std::size_t>(s.w) * s.h * 4);
    stbi_image_free(data);
  }
  fs::remove_all(dir);
  return s;
}

constexpr std::uint32_t kRightText = gui::kTextOnLight.good >> 8, kWrongText = gui::kTextOnLight.bad >> 8;  // the panel's Right. / Wrong. colours
// The predict window's place in a 1200x700 window (half the width, the lower half of the diagram),
// from its left edge, so that a line's first word ("Right.", "Wrong.") is counted whole.
constexpr int kX0 = 290, kX1 = 900, kY0 = 320, kY1 = 700;

// The keys that pick choice `pick(q)` for each question of the step, then Enter.
template <class Pick>
std::string picks(const std::vector<PredictQuestion>& qs, Pick pick) {
  std::string keys;
  for (const PredictQuestion& q : qs) keys += " " + std::to_string(pick(q) + 1);
  return keys + " enter";
}

const TraceView& lesson() {  // the window's default lesson: double-buffered Kogge-Stone, n = 8, x0..x7
  static const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone-double-buffer", 8));
  return v;
}

}  // namespace

TEST_CASE("predict window: right answers picked with number keys score, show Right. and reveal the step") {
  const auto qs = predict_questions(lesson().trace, lesson().hazards, 1, lesson().row_buffer[1]);
  REQUIRE(qs.size() == 2);
  const Shot s = run_gui("", "p" + picks(qs, [](const PredictQuestion& q) { return q.correct; }));
  REQUIRE(s.code == 0);
  CHECK(s.out.find("predict: step 1 ?1 right, score 2/2") != std::string::npos);
  CHECK(s.out.find("predict: step 1 ?2 right, score 2/2") != std::string::npos);
  REQUIRE(s.w == 1200);
  CHECK(s.count(kRightText, kX0, kY0, kX1, kY1) > 40);
  CHECK(s.count(kWrongText, kX0, kY0, kX1, kY1) == 0);
  // The timeline moved on to step 1: its operator applications are drawn as active cells.
  CHECK(s.count(gui::palette_light().cell_active >> 8, 290, 40, 840, 320, 3) > 500);
}

TEST_CASE("predict window: wrong answers, typed or picked, show Wrong. and the score stays 0") {
  const auto qs = predict_questions(lesson().trace, lesson().hazards, 1, lesson().row_buffer[1]);
  REQUIRE(qs.size() == 2);
  // The second picked with Tab and a number key, the first typed (a distractor's text) after Shift+Tab.
  const PredictQuestion& q1 = qs[0];
  const std::string wrong1 = q1.choices[static_cast<std::size_t>(q1.correct + 1) % q1.choices.size()];
  const int wrong2 = (qs[1].correct + 1) % static_cast<int>(qs[1].choices.size());
  const Shot s = run_gui("", "p tab " + std::to_string(wrong2 + 1) + " shift+tab e text:" + wrong1 + " enter");
  REQUIRE(s.code == 0);
  CHECK(s.out.find("predict: step 1 ?1 wrong, score 0/2") != std::string::npos);
  CHECK(s.out.find("predict: step 1 ?2 wrong, score 0/2") != std::string::npos);
  CHECK(s.count(kWrongText, kX0, kY0, kX1, kY1) > 80);
  CHECK(s.count(kRightText, kX0, kY0, kX1, kY1) == 0);
}

TEST_CASE("predict window: the timeline waits for an answer, and a bad script is refused") {
  const Shot held = run_gui("", "p right right end space wait:10");
  REQUIRE(held.code == 0);
  CHECK(held.out.find("predict:") == std::string::npos);
  // Still at the load step: no operator application is drawn.
  CHECK(held.count(gui::palette_light().cell_active >> 8, 290, 40, 840, 320, 3) == 0);
  const Shot bad = run_gui("", "p alt+q");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("--keys: 'alt+q' is not a key") != std::string::npos);
}

TEST_CASE("predict window: on the racy kernel the stale read is asked and explained with the hazard") {
  const TraceView v = make_trace_view(sv_test::record_interval("kogge-stone-racy", 64));
  const auto qs = predict_questions(v.trace, v.hazards, 1, v.row_buffer[1]);
  REQUIRE(qs.size() == 3);
  REQUIRE(qs[0].kind == QuestionKind::Stale);
  // Both stale-read questions picked right; the cell's value typed, as the trace formats it.
  const std::string keys = "p " + std::to_string(qs[0].correct + 1) + " " + std::to_string(qs[1].correct + 1) +
                           " e text:" + format_value(v.trace.meta.type, qs[2].answer) + " enter";
  const Shot s = run_gui("--algo kogge-stone-racy --n 64 --warp 32", keys);  // the questions' trace: warps of 32
  REQUIRE(s.code == 0);
  CHECK(s.out.find("predict: step 1 ?1 right") != std::string::npos);
  CHECK(s.out.find("predict: step 1 ?3 right, score 3/3") != std::string::npos);
  // The window scrolls on to the next step's question, which leaves the first of the three lines
  // above the region: the other two "Right." are in it whole (about 30 pixels each), and no red.
  CHECK(s.count(kRightText, kX0, kY0, kX1, kY1) > 45);
  CHECK(s.count(kWrongText, kX0, kY0, kX1, kY1) == 0);
}
