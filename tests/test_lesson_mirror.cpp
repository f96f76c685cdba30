// The lesson's text mirror as data (app/mirror/): the step lines, the buffers' values and the marks
// of each step, checked against partial sums computed here, and a racy lesson's race cells named.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "entry/record.hpp"
#include "lesson_run.hpp"
#include "mirror/mirror_text.hpp"
#include "mirror/step_mirror.hpp"

using namespace sv;

namespace {

const std::vector<long> kSlides = {3, 6, 7, 4, 8, 2, 1, 9};

// The lesson `scanviz lesson --algo ALGO --op sum` records: the window's run of the request.
TraceView lesson_of(const std::string& algorithm) {
  RunRequest r = default_lesson_request();
  r.algorithm = algorithm;
  r.op = OpKind::Sum;
  return make_trace_view(record(lesson_run(r)).trace);
}

std::vector<std::string> values_of(const MirrorRow& row) {
  std::vector<std::string> v;
  for (const MirrorCell& c : row.cells) v.push_back(c.defined ? c.value : "?");
  return v;
}

std::vector<std::string> texts(const std::vector<long>& v) {
  std::vector<std::string> out;
  for (long x : v) out.push_back(std::to_string(x));
  return out;
}

}  // namespace

TEST_CASE("lesson: Kogge-Stone's mirror on the slides' input, every step's line, values and marks against partial sums computed here") {
  const TraceView view = lesson_of("kogge-stone-double-buffer");
  // Kogge-Stone: after the step of stride d, element i holds the sum of x[i-2d+1..i]; computed here
  // step by step from the slides' values, as the slides' figure does it.
  std::vector<std::vector<long>> expected{kSlides};
  std::vector<std::string> lines{"Step 1 of 5: load"};
  for (int stride = 1; stride < 8; stride *= 2) {
    std::vector<long> next = expected.back();
    for (std::size_t i = static_cast<std::size_t>(stride); i < next.size(); ++i) next[i] += expected.back()[i - static_cast<std::size_t>(stride)];
    expected.push_back(next);
    lines.push_back("Step " + std::to_string(expected.size()) + " of 5: stride = " + std::to_string(stride));
  }
  expected.push_back(expected.back());  // the store copies the last partial sums to the output
  lines.push_back("Step 5 of 5: store");
  CHECK(expected.back() == std::vector<long>{3, 9, 16, 20, 28, 30, 31, 40});

  const LessonHeading heading = lesson_heading(view);
  CHECK(heading.steps == 5);
  CHECK(heading.title == "kogge-stone-double-buffer, n = 8, sum");
  const auto field = [&](const std::string& name) {
    for (const MirrorField& f : heading.options)
      if (f.name == name) return f.value;
    return std::string("(none)");
  };
  CHECK(field("n") == "8");
  CHECK(field("operator") == "sum (int32), inclusive");
  CHECK(field("input") == "the slides' values: 3, 6, 7, 4, 8, 2, 1, 9");
  CHECK(field("schedule").rfind("in-order on the CPU emulator", 0) == 0);

  for (int k = 0; k < 5; ++k) {
    CAPTURE(k);
    const StepMirror m = mirror_step(view, k);
    CHECK(m.step_line == lines[static_cast<std::size_t>(k)]);
    CHECK(!m.narration.empty());
    REQUIRE(!m.rows.empty());
    CHECK(m.rows[0].diagram_row);
    CHECK(values_of(m.rows[0]) == texts(expected[static_cast<std::size_t>(k)]));
    CHECK(m.announcements.empty());
    for (const MirrorCell& c : m.rows[0].cells) {
      CHECK(!c.race);
      CHECK(!c.wrong);
      // A stride step writes an operator's result where an element lies `stride` to the left, and
      // copies the others; load and store copy every cell.
      const int stride = k >= 1 && k <= 3 ? 1 << (k - 1) : 0;
      CHECK(c.written == (stride > 0 && c.index >= stride));
      CHECK(c.copied == !c.written);
    }
    CHECK(m.result.empty() == (k < 4));
    // The text opens with the step's line: what a screen reader reads first.
    CHECK(step_text(m).rfind(m.step_line + "\n", 0) == 0);
  }
  const StepMirror stride2 = mirror_step(view, 2);
  CHECK(stride2.rows[0].buffer == "buffer1_s");
  CHECK(cell_marks(stride2.rows[0].cells[1]) == "copied");
  CHECK(cell_marks(stride2.rows[0].cells[2]) == "written");
  CHECK(step_text(stride2).find("  cell 2: 16, written\n") != std::string::npos);
  CHECK(mirror_step(view, 4).result.at(0) == "Result: correct. All 8 outputs equal the sequential scan's.");
}

TEST_CASE("lesson: the racy Kogge-Stone's mirror names its race cells, each race's threads and lines, and why the result is wrong") {
  const TraceView view = lesson_of("kogge-stone-racy");
  bool raced = false;
  for (int k = 0; k < static_cast<int>(view.trace.steps.size()); ++k) {
    const StepMirror m = mirror_step(view, k);
    std::vector<std::int64_t> race_cells, raw_cells;
    for (const MirrorCell& c : m.rows.at(0).cells)
      if (c.race) race_cells.push_back(c.index);
    for (const Hazard& h : view.hazards)
      if (h.step == k && h.kind == HazardKind::RAW) raw_cells.push_back(h.index);
    std::sort(raw_cells.begin(), raw_cells.end());
    raw_cells.erase(std::unique(raw_cells.begin(), raw_cells.end()), raw_cells.end());
    CAPTURE(k);
    CHECK(race_cells == raw_cells);
    if (race_cells.empty()) continue;
    raced = true;
    REQUIRE(!m.announcements.empty());
    // Both threads and both lines of the race: "... thread 2 wrote 19 (line 35), then thread 4 read it (line 35) ..."
    const std::string& a = m.announcements[0];
    CHECK(a.rfind("Race, read after write, at buffer_s[", 0) == 0);
    CHECK(a.find(" wrote ") != std::string::npos);
    CHECK(a.find(" read it (line ") != std::string::npos);
    CHECK(step_text(m).find(", race\n") != std::string::npos);
  }
  CHECK(raced);
  const std::vector<std::string> result = lesson_result(view);
  REQUIRE(result.size() >= 2);
  CHECK(result[0].rfind("Result: wrong. ", 0) == 0);
  CHECK(result.back().rfind("Why: a race in step ", 0) == 0);
  const StepMirror last = mirror_step(view, static_cast<int>(view.trace.steps.size()) - 1);
  CHECK(std::any_of(last.rows[0].cells.begin(), last.rows[0].cells.end(), [](const MirrorCell& c) { return c.wrong && !c.expected.empty(); }));
}
