// The lesson panel's controls: a trace file shown sets them, so they name what is on screen and a
// changed control records the same input again, on a worker thread whose newest request wins.
#include <doctest/doctest.h>

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../tests/helpers.hpp"
#include "algorithms.hpp"
#include "analysis/application.hpp"
#include "core/values.hpp"
#include "emulator/record.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/lesson/lesson.hpp"
#include "gui/lesson/lesson_recorder.hpp"
#include "mirror/narration.hpp"
#include "run/request.hpp"
#include "run_command.hpp"
#include "trace/trace_json.hpp"

using namespace sv;

namespace {

// Records the trace the controls describe once a trace of `c` has set them.
Trace again(const BlockRunConfig& c, gui::Lesson& l) {
  const Trace original = record_block_scan(c);
  gui::lesson_from_trace(l, original.meta);
  const std::string name(block_algorithms()[static_cast<std::size_t>(gui::algorithm_index(l))].name);
  CHECK(name == c.algorithm);
  return record_block_scan(gui::lesson_config(l, name));
}

// Records on the worker as the window does, but each recording waits until the test lets it finish,
// so what the worker is doing at each check does not depend on timing.
class HeldRecordings {
 public:
  gui::LessonRecording record(const gui::LessonControls& c, bool side_by_side) {
    {
      std::unique_lock lock(mutex_);
      started_.push_back(static_cast<int>(c.request.n.value_or(8)));
      changed_.notify_all();
      changed_.wait(lock, [&] { return released_ >= static_cast<int>(started_.size()); });
    }
    return gui::record_lesson_controls(c, side_by_side);
  }
  void wait_started(std::size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return started_.size() >= count; });
  }
  void release_all() {
    const std::lock_guard lock(mutex_);
    released_ = INT_MAX;
    changed_.notify_all();
  }
  std::vector<int> started() {
    const std::lock_guard lock(mutex_);
    return started_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<int> started_;  // n of each recording the worker began
  int released_ = 0;          // recordings allowed to finish
};

}  // namespace

TEST_CASE("lesson controls: a trace file's algorithm, sizes, operator, type and input become the controls") {
  // The default lesson is kogge-stone-double-buffer with the interval operator: every case differs.
  SUBCASE("warp-sklansky, warps of 4, n = 16, a typed int64 max") {
    BlockRunConfig c = sv_test::config("warp-sklansky", 16, OpKind::Max, ValueType::I64, "in-order", false, 0,
                                       random_input(OpKind::Max, ValueType::I64, 16, 99));
    c.warp = 4;
    gui::Lesson l;
    const Trace b = again(c, l);
    sv_test::check_same_run(record_block_scan(c), b);
    CHECK(gui::input_mode(l) == 2);
  }
  SUBCASE("brent-kung, n = 13 (not a power of two), exclusive float sum, block of 8") {
    BlockRunConfig c = sv_test::config("brent-kung", 13, OpKind::Sum, ValueType::F32, "in-order", true, 5);
    c.block = 8;
    gui::Lesson l;
    sv_test::check_same_run(record_block_scan(c), again(c, l));
  }
  SUBCASE("an input too long to type is drawn again from the trace's seed") {
    const BlockRunConfig c = sv_test::config("kogge-stone", 1024, OpKind::Product, ValueType::I32, "in-order", false, 12345);
    gui::Lesson l;
    sv_test::check_same_run(record_block_scan(c), again(c, l));
    CHECK(gui::input_mode(l) == 1);
    CHECK(l.request.seed == 12345);
  }
  SUBCASE("interval operator on sklansky") {
    const BlockRunConfig c = sv_test::config("sklansky", 8, OpKind::Interval, ValueType::Interval, "in-order", false, 1,
                                             slides_input(OpKind::Interval, ValueType::Interval, 8));
    gui::Lesson l;
    l.request.op = OpKind::Sum;
    sv_test::check_same_run(record_block_scan(c), again(c, l));
  }
  SUBCASE("stream compaction: the values tested and the predicate, not the flags, are the input") {
    BlockRunConfig c = sv_test::config("blelloch", 12, OpKind::Sum, ValueType::I32, "in-order", true);
    c.application.kind = "compact";
    c.application.predicate = "x > 3";
    c.application.values = random_input(OpKind::Sum, ValueType::I32, 12, 3);
    c.input = compaction_flags(Predicate::parse("x > 3"), ValueType::I32, c.application.values);
    gui::Lesson l;
    sv_test::check_same_run(record_block_scan(c), again(c, l));
    CHECK(gui::scan_kind(l) == 2);
    CHECK(l.request.predicate == "x > 3");
  }
  SUBCASE("allocation: the slides' requests") {
    BlockRunConfig c = sv_test::config("brent-kung", 7, OpKind::Sum, ValueType::I32, "in-order", true, 1,
                                       parse_value_list("8,6,7,5,3,0,9", ValueType::I32));
    c.application.kind = "allocate";
    gui::Lesson l;
    const Trace b = again(c, l);
    sv_test::check_same_run(record_block_scan(c), b);
    CHECK(gui::scan_kind(l) == 3);
    CHECK(format_value(ValueType::I32, b.result.output[6]) == "29");
  }
  SUBCASE("segmented: the controls say segmented, at the trace's share of heads") {
    BlockRunConfig c = sv_test::config("kogge-stone-double-buffer", 8, OpKind::Sum, ValueType::I32);
    c.flags = {1, 0, 0, 1, 0, 1, 0, 0};
    gui::Lesson l;
    gui::lesson_from_trace(l, record_block_scan(c).meta);
    CHECK(gui::scan_kind(l) == 1);
    CHECK(gui::segment_density(l) == doctest::Approx(3.0 / 8));
    CHECK(gui::lesson_config(l, c.algorithm).flags == c.flags);  // the trace's own heads, not drawn again
  }
  SUBCASE("a GPU's trace leaves the window recording where it did (a GPU trace opens where no GPU is)") {
    const BlockRunConfig c = sv_test::config("sklansky", 16, OpKind::Sum, ValueType::I32);
    TraceMeta m = record_block_scan(c).meta;
    m.executor.kind = "gpu";
    gui::Lesson l;
    gui::lesson_from_trace(l, m);
    CHECK(l.request.executor == "emulator");
    CHECK(l.request.algorithm == "sklansky");
  }
}

TEST_CASE("lesson controls: a device-wide trace leaves the block algorithm chosen") {
  const BlockRunConfig c = sv_test::config("decoupled-lookback", 4096, OpKind::Sum, ValueType::I32);
  gui::Lesson l;
  gui::set_algorithm(l, block_algorithms()[3].name);
  gui::lesson_from_trace(l, record_device_scan(c).meta);
  CHECK(gui::algorithm_index(l) == 3);
}

TEST_CASE("lesson controls: a schedule named as the command line names it sets the schedule controls, and reads back") {
  gui::Lesson l;
  const auto schedule = [&] { return gui::lesson_request(l, "kogge-stone-racy").schedule; };
  CHECK(schedule().empty());  // in order
  set_field(l.request, "schedule", "round-robin");
  CHECK(gui::schedule_index(l) == 2);
  CHECK(schedule() == "round-robin");
  set_field(l.request, "schedule", "random:5");
  CHECK(gui::schedule_index(l) == 3);
  CHECK(schedule() == "random:5");
  CHECK(gui::lesson_config(l, "kogge-stone-racy").schedule.name() == "random:5");
  // Names it does not know change nothing: an unknown kind, a seed on a kind without one.
  for (const std::string bad : {"sideways", "reverse:3", "random:x"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(set_field(l.request, "schedule", bad), RequestError);
    CHECK(schedule() == "random:5");
  }
}

TEST_CASE("lesson controls: the input and the scan named as a link names them set the controls and read back") {
  gui::Lesson l;
  // The lesson's fields in the request's printed form.
  const auto fields = [&](const std::string& algorithm = "kogge-stone") {
    std::map<std::string, std::string> f;
    for (const auto& [k, v] : request_fields(gui::lesson_request(l, algorithm))) f[k] = v;
    return f;
  };
  CHECK(fields()["input"] == "slides");
  set_field(l.request, "input", "random:9");
  CHECK(gui::input_mode(l) == 1);
  CHECK(l.request.seed == 9);
  CHECK(fields().count("input") == 0);
  CHECK(fields()["seed"] == "9");
  set_field(l.request, "input", "5,1,4,2");
  CHECK(fields()["input"] == "5,1,4,2");
  l.request.op = OpKind::Sum;
  const BlockRunConfig typed = gui::lesson_config(l, "kogge-stone");
  CHECK(typed.n == 4);
  REQUIRE(typed.input.size() == 4);
  CHECK(typed.input[2].as<std::int32_t>() == 4);
  for (const std::string& bad : std::vector<std::string>{"", "random:0", "random:x"}) {
    CAPTURE(bad.substr(0, 20));
    CHECK_THROWS_AS(set_field(l.request, "input", bad), RequestError);
    CHECK(fields()["input"] == "5,1,4,2");
  }
  set_field(l.request, "input", "random");  // the seed kept
  CHECK(fields()["seed"] == "9");

  CHECK(gui::scan_kind(l) == 0);
  set_field(l.request, "scan", "segmented:0.5");
  CHECK(gui::scan_kind(l) == 1);
  CHECK(fields()["flags"] == "random:0.5");
  set_field(l.request, "scan", "compact:x > 3");
  CHECK(fields()["app"] == "compact");
  CHECK(fields()["predicate"] == "x > 3");
  CHECK(gui::lesson_config(l, "kogge-stone").application.predicate == "x > 3");
  set_field(l.request, "scan", "compact");  // the predicate kept
  CHECK(fields()["predicate"] == "x > 3");
  set_field(l.request, "scan", "allocate");
  CHECK(gui::lesson_config(l, "kogge-stone").application.kind == "allocate");
  for (const std::string bad : {"sideways", "segmented:0", "segmented:1.5", "segmented:x", "compact:x >", "plain:1", "allocate:2"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(set_field(l.request, "scan", bad), RequestError);
    CHECK(fields()["app"] == "allocate");
    CHECK(gui::scan_kind(l) == 3);
  }
}

// Random requests become sizes the same way wherever the run is asked for: the command line's
// `--app allocate --seed S` and the window's allocation lesson on random:S give the same requests.
TEST_CASE("allocation: the same seed gives the same random requests on the command line and in the window") {
  sv_test::TempDir d;
  for (const int seed : {1, 5, 23}) {
    CAPTURE(seed);
    const sv_test::Run r = sv_test::scanviz("trace --algo kogge-stone --app allocate --n 32 --seed " + std::to_string(seed) +
                                                " --executor emulator --out a.json",
                                            d.path);
    REQUIRE(r.code == 0);
    const Trace cli = load_trace((d.path / "a.json").string());
    gui::LessonControls l;
    set_field(l.request, "scan", "allocate");
    set_field(l.request, "input", "random:" + std::to_string(seed));
    l.request.n = 32;
    const BlockRunConfig window = gui::lesson_config(l, "kogge-stone");
    REQUIRE(window.input.size() == cli.meta.input.size());
    bool negative = false;
    for (std::size_t i = 0; i < window.input.size(); ++i) {
      CAPTURE(i);
      CHECK(format_value(ValueType::I32, window.input[i]) == format_value(ValueType::I32, cli.meta.input[i]));
      negative |= random_input(OpKind::Sum, ValueType::I32, 32, static_cast<std::uint64_t>(seed))[i].as<std::int32_t>() < 0;
    }
    CHECK(negative);  // the drawn values include negative ones, which both must map alike
  }
}

TEST_CASE("lesson controls: the racy kernel at the slides' n = 8 goes wrong, and the narration names the thread and the cell") {
  gui::Lesson l;  // the defaults: n = 8, the slides' input, in-order, every thread on its own
  const Trace t = record_block_scan(gui::lesson_config(l, "kogge-stone-racy"));
  CHECK(t.meta.warp_width() == 1);
  CHECK(t.result.outcome == Outcome::Wrong);
  const TraceView v = make_trace_view(t);
  const std::string said = narrate_step(v, 1);
  CAPTURE(said);
  CHECK(said.find("Race: thread 2 read buffer_s[1] after thread 1 had overwritten it, and ") != std::string::npos);
  CHECK(said.find(" more reads saw an overwritten value.") != std::string::npos);
  // The control comes back from the trace.
  gui::Lesson back;
  gui::lesson_from_trace(back, t.meta);
  CHECK(back.request.warp == 1);
  // In a GPU's warp of 32 every read of a step precedes its writes: right, and no race to name.
  l.request.warp = 32;
  const Trace warp = record_block_scan(gui::lesson_config(l, "kogge-stone-racy"));
  CHECK(warp.meta.warp_width() == 32);
  CHECK(warp.result.outcome == Outcome::Correct);
  CHECK(narrate_step(make_trace_view(warp), 1).find("Race:") == std::string::npos);
  // The GPU runs warps of 32 whatever the control says.
  l.request.warp = 1;
  l.request.executor = "gpu";
  CHECK(gui::lesson_config(l, "kogge-stone-racy").warp == 0);
}

TEST_CASE("lesson recorder: a changed n records on the worker, the old trace stays until the new one is taken, the newest request wins") {
  gui::Lesson l;
  gui::record_lesson(l, false);
  REQUIRE(l.view);
  REQUIRE(l.view->trace.meta.n == 8);
  HeldRecordings held;
  gui::LessonRecorder recorder([&](const gui::LessonControls& c, bool side_by_side) { return held.record(c, side_by_side); });
  l.request.n = 16;
  recorder.request(l, false);
  held.wait_started(1);  // the worker records n = 16 and is held there
  l.request.n = 32;
  recorder.request(l, false);
  l.request.n = 64;
  recorder.request(l, false);  // replaces n = 32 before the worker is free to start it
  CHECK(recorder.pending());
  CHECK_FALSE(recorder.take());        // nothing is ready: the window draws what it has
  CHECK(l.view->trace.meta.n == 8);
  held.release_all();
  std::optional<gui::LessonRecording> r = recorder.wait();
  REQUIRE(r);
  REQUIRE(r->view);
  CHECK(r->view->trace.meta.n == 64);  // n = 16 finished too, overtaken: dropped
  CHECK(r->error.empty());
  CHECK(held.started() == std::vector<int>{16, 64});  // n = 32 was never recorded
  CHECK_FALSE(recorder.pending());
  CHECK_FALSE(recorder.take());
  gui::show_recording(l, std::move(*r));
  CHECK(l.view->trace.meta.n == 64);
  CHECK(l.view->trace.events.size() > 64);
}

TEST_CASE("lesson recorder: a trace file opened while a recording is on its way wins over it") {
  HeldRecordings held;
  gui::LessonRecorder recorder([&](const gui::LessonControls& c, bool side_by_side) { return held.record(c, side_by_side); });
  gui::Lesson l;
  l.request.n = 16;
  recorder.request(l, false);
  held.wait_started(1);
  recorder.cancel();
  CHECK_FALSE(recorder.pending());
  held.release_all();
  CHECK_FALSE(recorder.wait());  // the finished recording is dropped, not shown over the file
  CHECK_FALSE(recorder.take());
}

TEST_CASE("lesson recorder: a request that cannot run brings its error and leaves the traces shown") {
  gui::Lesson l;
  gui::record_lesson(l, true);  // side by side: both traces stay
  REQUIRE(l.view);
  REQUIRE(l.racy);
  gui::LessonRecorder recorder;
  l.request.input = "3,x,7";
  recorder.request(l, true);
  std::optional<gui::LessonRecording> r = recorder.wait();
  REQUIRE(r);
  CHECK_FALSE(r->error.empty());
  CHECK_FALSE(r->view);
  gui::show_recording(l, std::move(*r));
  CHECK_FALSE(l.error.empty());
  REQUIRE(l.view);
  CHECK(l.view->trace.meta.n == 8);
  CHECK(l.racy);
}

TEST_CASE("lesson: side by side pairs the lesson with the racy kernel, and the racy lesson with the double-buffered one") {
  gui::Lesson l;
  const auto algos = block_algorithms();
  auto pick = [&](const std::string& name) {
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (algos[i].name == name) gui::set_algorithm(l, algos[i].name);
  };
  pick("kogge-stone-double-buffer");
  gui::record_lesson(l, true);
  REQUIRE(l.racy);
  CHECK(l.racy->trace.meta.algorithm == "kogge-stone-racy");
  pick("kogge-stone-racy");
  gui::record_lesson(l, true);
  REQUIRE(l.view);
  REQUIRE(l.racy);
  CHECK(l.view->trace.meta.algorithm == "kogge-stone-racy");
  CHECK(l.racy->trace.meta.algorithm == "kogge-stone-double-buffer");  // not the lesson twice
  CHECK(l.racy->outcome == Outcome::Correct);
  CHECK(gui::side_by_side_partner("brent-kung") == "kogge-stone-racy");
}

TEST_CASE("lesson recorder: without a worker (the page has no threads) the frames record a request in slices, on the caller's thread") {
  std::vector<std::thread::id> threads;
  gui::LessonRecorder recorder(
      [&](const gui::LessonControls& c, bool side_by_side) {
        threads.push_back(std::this_thread::get_id());
        return gui::record_lesson_controls(c, side_by_side);
      },
      false);
  gui::Lesson l;
  l.request.n = 16;
  recorder.request(l, false);
  CHECK(threads.empty());  // not in request(): the frames run it
  CHECK(recorder.pending());
  std::optional<gui::LessonRecording> r;
  for (int frame = 0; frame < 100 && !r; ++frame) r = recorder.take();
  CHECK(threads == std::vector<std::thread::id>{std::this_thread::get_id()});
  REQUIRE(r);
  REQUIRE(r->view);
  CHECK(r->view->trace.meta.n == 16);
  CHECK_FALSE(recorder.pending());
  l.request.n = 32;
  recorder.request(l, false);
  l.request.n = 64;
  recorder.request(l, false);  // the newest replaces the one not yet started, which never runs
  r = recorder.wait();
  REQUIRE(r);
  REQUIRE(r->view);
  CHECK(r->view->trace.meta.n == 64);
  CHECK(threads.size() == 2);
  CHECK_FALSE(recorder.take());
}
