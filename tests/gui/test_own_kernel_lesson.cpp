// A kernel of the user's own as the window's lesson, without a window: the lesson's controls as the
// kernel's run, every starting point of the editor recorded and judged against the sequential scan,
// the error of a kernel that does not compile with its line, the report card's worker (the newest
// kernel wins), and the followed file's stamp.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "gui/lesson/kernel_check.hpp"
#include "gui/lesson/lesson_recorder.hpp"
#include "mirror/narration.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "gui/panels/kernel_editor.hpp"
#include "gui/platform/desktop.hpp"
#include "gui/platform/file_watch.hpp"
#include "own_kernel_helpers.hpp"

using namespace sv;
using namespace sv::gui;

namespace {

// The lesson's request as the window starts it, as a sum on typed values.
RunRequest sum_lesson(std::int64_t n, bool exclusive) {
  RunRequest r = default_lesson_request();
  r.op = OpKind::Sum;
  r.n = n;
  r.exclusive = exclusive;
  r.input = "";
  r.seed = 11;
  return r;
}

// The kernel's float values as doubles.
std::vector<double> as_doubles(const std::vector<Payload>& v) {
  std::vector<double> out;
  for (const Payload& p : v) out.push_back(p.as<float>());
  return out;
}

}  // namespace

TEST_CASE("own kernel lesson: every starting point of the editor records, and the CUDA forms scan like the reference") {
  const std::vector<KernelStart>& starts = kernel_starts();
  REQUIRE(starts.size() >= 2);
  CHECK(starts[0].label.rfind("empty template", 0) == 0);
  for (const KernelStart& s : starts) {
    CAPTURE(s.label);
    const AlgorithmInfo* info = nullptr;
    for (const AlgorithmInfo& a : block_algorithms())
      if (s.label.rfind(std::string(a.name) + " (", 0) == 0) info = &a;
    const bool exclusive = info && info->cuda_form_exclusive;
    for (const std::int64_t n : {8, 13, 32, 64, 100}) {
      CAPTURE(n);
      if (n < s.min_n) continue;  // the warp-level forms are written for warps of 32
      CHECK(s.min_n == (info && info->warp_level ? 64 : 1));
      const LessonRecording r = record_own_kernel(make_own_kernel(s.name, s.text), sum_lesson(n, exclusive));
      REQUIRE_MESSAGE(r.error.empty(), r.error);
      REQUIRE(r.view);
      CHECK(r.ran_kernel->text == s.text);
      CHECK(is_own_kernel_algorithm(r.view->trace.meta.algorithm));
      const Trace& t = r.view->trace;
      REQUIRE(t.meta.type == ValueType::F32);
      if (!info) {
        // The template copies its input: every cell written, none scanned.
        CHECK(as_doubles(t.result.output) == as_doubles(t.meta.input));
      } else if (!info->racy) {
        const auto reference = reference_scan(OpKind::Sum, t.meta.type, t.meta.input, exclusive);
        CHECK(mismatches(OpKind::Sum, t.meta.type, t.meta.input, exclusive, reference, t.result.output).empty());
      }
    }
  }
}

TEST_CASE("own kernel lesson: the lesson's controls become the kernel's run, and an error names its line") {
  const auto racy = make_own_kernel("racy.cu", kernel_starts()[0].text);
  RunRequest lesson = default_lesson_request();  // the slides' input, interval, lockstep auto
  const RunRequest r = own_kernel_request(lesson, *racy);
  CHECK(r.algorithm.empty());
  CHECK(r.op == OpKind::Interval);
  CHECK(r.warp == 1);  // each thread on its own, as the slides draw a kernel
  CHECK(r.input.empty());
  lesson.op = OpKind::Max;  // a built-in lesson's operator: the kernel runs its own +
  CHECK(own_kernel_request(lesson, *racy).op == OpKind::Sum);
  CHECK(own_kernel_request(lesson, OwnKernel{"w.cu", "__shfl_up_sync"}).warp == 32);

  // The slides' input under the kernel's +: 3 6 7 4 ...
  const LessonRecording slides = record_own_kernel(racy, [] {
    RunRequest s = default_lesson_request();
    s.op = OpKind::Sum;
    return s;
  }());
  REQUIRE(slides.view);
  CHECK(as_doubles(slides.view->trace.meta.input) == std::vector<double>{3, 6, 7, 4, 8, 2, 1, 9});

  std::string broken = kernel_starts()[0].text;
  const std::size_t at = broken.find("__syncthreads();");
  REQUIRE(at != std::string::npos);
  broken.replace(at, 16, "__syncthreads(;");
  const std::uint32_t line = static_cast<std::uint32_t>(std::count(broken.begin(), broken.begin() + static_cast<long>(at), '\n') + 1);
  const LessonRecording r2 = record_own_kernel(make_own_kernel("b.cu", broken), lesson);
  CHECK_FALSE(r2.view);
  CHECK(r2.error_line == line);
  CHECK(r2.error.rfind("b.cu:" + std::to_string(line) + ":", 0) == 0);

  // A constant other than 0 cannot be symbolic: asked for intervals, the kernel runs as a sum.
  std::string one = kernel_starts()[0].text;
  const std::size_t zero = one.find(": 0.0f;");
  REQUIRE(zero != std::string::npos);
  one.replace(zero, 7, ": 1.0f;");
  RunRequest five = default_lesson_request();
  five.n = 5;  // a block of 8: threads 5..7 take the constant
  const LessonRecording r3 = record_own_kernel(make_own_kernel("one.cu", one), five);
  REQUIRE_MESSAGE(r3.error.empty(), r3.error);
  CHECK(r3.view->trace.meta.op == OpKind::Sum);
  CHECK(record_own_kernel(racy, five).view->trace.meta.op == OpKind::Interval);
}

TEST_CASE("own kernel lesson: the report card's worker grades the newest kernel asked, once") {
  const auto first = make_own_kernel("a.cu", kernel_starts()[0].text);
  const auto second = make_own_kernel("b.cu", kernel_starts()[1].text);
  for (const bool threads : {true, false}) {
    CAPTURE(threads);
    KernelChecker checker(threads);
    CHECK_FALSE(checker.busy());
    checker.request(first);
    checker.request(second);  // overtakes the first, which may already run: only the second is shown
    CHECK(checker.busy());
    const std::optional<KernelGrade> g = checker.wait();
    REQUIRE(g.has_value());
    CHECK(g->kernel == second);
    CHECK(g->report.file == "b.cu");
    CHECK_FALSE(checker.busy());
    CHECK_FALSE(checker.take().has_value());
  }
}

TEST_CASE("own kernel lesson: without threads the card is graded in slices that stop inside a case, to the same card") {
  // The page's way: work() runs the check for at most its budget; a budget of no time stops it at the
  // emulator's next pause point, so a case of a 64-thread block takes many frames.
  const auto k = make_own_kernel("ks.cu", sv_test::read_source("tests/fixtures/whole_files/ks_read_then_write_same_interval.cu"));
  const std::string launch = "prefix_sum<<<1, 64>>>(in, out, n)";
  const KernelGrade whole = grade_kernel(k, launch);
  KernelChecker checker(false);
  checker.request(k, launch);
  std::size_t frames = 0, most_cases = 0;
  std::optional<KernelGrade> g;
  while (!g && frames < 1'000'000) {
    checker.work(0);
    ++frames;
    if (const auto p = checker.progress()) most_cases = std::max(most_cases, p->run);
    g = checker.take();
  }
  REQUIRE(g.has_value());
  CHECK(whole.report.verdict == "wrong");  // the file's race
  CHECK(g->report.verdict == whole.report.verdict);
  REQUIRE(g->report.cases.size() == whole.report.cases.size());
  CHECK(frames > 4 * whole.report.cases.size());  // stopped inside cases, not only between them
  CHECK(most_cases == whole.report.cases.size());
  CHECK(g->report.hazards.size() == whole.report.hazards.size());
  for (std::size_t i = 0; i < whole.report.cases.size(); ++i) CHECK(g->report.cases[i].outcome == whole.report.cases[i].outcome);
  CHECK(g->check_ms > 0);
}

TEST_CASE("own kernel lesson: without a worker a kernel of one's own in a block of 1024 threads records over several frames") {
  LessonRecorder recorder(record_lesson_controls, false, 0);  // a slice of no time: to the next pause point
  Lesson l;
  l.own_kernel = make_own_kernel("kogge_stone.cu", sv_test::read_source("kernels/block/cuda/kogge_stone.cu"));
  l.request.n = 1024;
  l.request.block = 1024;
  l.request.warp = 1;
  recorder.request(l, false);
  std::optional<LessonRecording> r;
  int frames = 0;
  while (!r && frames < 100000) {
    r = recorder.take();
    ++frames;
  }
  REQUIRE(r);
  REQUIRE(r->view);
  CHECK(r->error.empty());
  CHECK(r->view->trace.meta.n == 1024);
  CHECK(frames > 100);  // 1024 threads in lockstep 1: thousands of scheduler steps, a pause every 16
}

TEST_CASE("own kernel lesson: a followed file is seen changed once per save, by its time or its size") {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / ("scanviz-watch-" + std::to_string(::getpid()) + ".cu");
  std::ofstream(path) << "one";
  DesktopPlatform desktop(100, 100);
  FileWatch w;
  watch_file(w, desktop, path.string(), 0);
  CHECK_FALSE(file_changed(w, desktop, 1.0));
  std::ofstream(path) << "three";  // another size
  CHECK_FALSE(file_changed(w, desktop, 1.0 + kFileWatchSeconds / 2));  // not due yet
  CHECK(file_changed(w, desktop, 1.0 + kFileWatchSeconds));
  CHECK_FALSE(file_changed(w, desktop, 2.0));  // seen once
  fs::last_write_time(path, fs::last_write_time(path) + std::chrono::seconds(5));  // same size, saved again
  CHECK(file_changed(w, desktop, 3.0, true));
  fs::remove(path);
  CHECK_FALSE(file_changed(w, desktop, 4.0, true));  // gone (an editor between its write and its rename): no change
  std::ofstream(path) << "three";
  CHECK(file_changed(w, desktop, 5.0, true));  // back with another time
  fs::remove(path);
}

TEST_CASE("own kernel lesson: a launch of blocks run one after another names each step's block in the narration") {
  cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 24, 8);
  const TraceView v = make_trace_view(cuda::record_kernel_launch(c).trace);
  REQUIRE(v.trace.meta.grid == 3);
  std::set<std::uint32_t> named;
  for (std::size_t k = 0; k < v.trace.steps.size(); ++k) {
    const std::uint32_t block = v.trace.events[v.trace.steps[k].first_event].block;
    CHECK(narrate_step(v, static_cast<int>(k)).rfind("Block " + std::to_string(block) + " of 3. ", 0) == 0);
    named.insert(block);
  }
  CHECK(named == std::set<std::uint32_t>{0, 1, 2});
  // The diagram's rows say it too.
  const Diagram m = build_diagram(v, static_cast<int>(v.trace.steps.size()) - 1, palette_light());
  for (const DiagramRow& row : m.rows)
    CHECK(row.label.rfind("block " + std::to_string(v.trace.events[v.trace.steps[static_cast<std::size_t>(row.step)].first_event].block) + ", ", 0) == 0);
  c.n = 8;  // one block: nothing to tell apart
  const TraceView one = make_trace_view(cuda::record_kernel_launch(c).trace);
  CHECK(narrate_step(one, 1).rfind("Block", 0) == std::string::npos);
}
