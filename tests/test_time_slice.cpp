// A long job run a slice at a time (emulator/time_slice.hpp): the page's report card is graded this
// way between frames, so a slice must stop inside an emulated block and the job must end as if it
// had run at once.
#include <doctest/doctest.h>

#include <stdexcept>

#include "analysis/analysis.hpp"
#include "analysis/block_races.hpp"
#include "core/pause.hpp"
#include "emulator/time_slice.hpp"
#include "own_kernel_helpers.hpp"

using namespace sv;

namespace {

// Runs `job` to its end with slices of `budget_ms`; the slices it took.
std::size_t run_sliced(TimeSlicedJob& job, double budget_ms) {
  std::size_t calls = 0;
  while (!job.run_for(budget_ms)) ++calls;
  return calls + 1;
}

}  // namespace

TEST_CASE("time slice: a slice of no time stops at the job's next pause point, and the job ends as if run at once") {
  int passed = 0;
  TimeSlicedJob job([&] {
    for (int i = 0; i < 1000; ++i) {
      ++passed;
      pause_point();
    }
  });
  CHECK_FALSE(job.run_for(0));
  CHECK(passed >= 1);
  CHECK(passed < 1000);
  const std::size_t more = run_sliced(job, 0);
  CHECK(passed == 1000);
  CHECK(job.done());
  CHECK(job.slices() == more + 1);
  CHECK(job.slices() > 10);  // the clock is read every few pause points, and each read stops a slice of no time
  CHECK(job.run_for(0));     // over: nothing runs again
  CHECK(passed == 1000);
}

TEST_CASE("time slice: a long budget runs the job to its end in one slice, and pause points outside a job do nothing") {
  int passed = 0;
  for (int i = 0; i < 100; ++i) pause_point();  // no job runs: returns at once
  TimeSlicedJob job([&] {
    for (int i = 0; i < 1000; ++i) {
      ++passed;
      pause_point();
    }
  });
  CHECK(job.run_for(60'000));
  CHECK(passed == 1000);
  CHECK(job.slices() == 1);
}

TEST_CASE("time slice: what the job throws after a pause is thrown by the slice it happens in, and the job is over") {
  bool past = false;
  TimeSlicedJob job([&] {
    pause_point();
    pause_point();
    throw std::runtime_error("the check failed");
    past = true;
  });
  CHECK_FALSE(job.run_for(0));
  CHECK_THROWS_WITH_AS(run_sliced(job, 0), "the check failed", std::runtime_error);
  CHECK(job.done());
  CHECK_FALSE(past);
  CHECK(job.run_for(0));
}

TEST_CASE("time slice: an emulated block of the user's kernel stops between instructions and records the same trace") {
  // Kogge-Stone of the tree's CUDA kernels in 4 blocks of 256 threads, lockstep 1: thousands of
  // scheduler steps, so a slice of no time ends many times inside a block.
  const cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone.cu", 1000, 256, "random:3", 1);
  const cuda::KernelRun whole = cuda::record_kernel_launch(c);
  cuda::KernelRun sliced;
  TimeSlicedJob job([&] { sliced = cuda::record_kernel_launch(c); });
  const std::size_t slices = run_sliced(job, 0);
  CHECK(slices > 100);
  REQUIRE(sliced.trace.events.size() == whole.trace.events.size());
  bool same = true;
  for (std::size_t i = 0; i < whole.trace.events.size(); ++i) {
    const Event& a = whole.trace.events[i];
    const Event& b = sliced.trace.events[i];
    same = same && a.kind == b.kind && a.thread == b.thread && a.block == b.block && a.index == b.index && a.value == b.value;
  }
  CHECK(same);
  CHECK(sliced.trace.steps.size() == whole.trace.steps.size());
  CHECK(sliced.output_written == whole.output_written);
}

TEST_CASE("time slice: a job dropped before its end unwinds its frames") {
  struct Mark {
    bool* gone;
    ~Mark() { *gone = true; }
  };
  bool gone = false;
  {
    TimeSlicedJob job([&] {
      Mark m{&gone};
      for (;;) pause_point();
    });
    CHECK_FALSE(job.run_for(0));
    CHECK_FALSE(gone);
  }
  CHECK(gone);
}

TEST_CASE("time slice: the hazard analyses of a race trace give the thread back every few thousand accesses, and find the same hazards") {
  // The racy Kogge-Stone in one block of 1024 threads, lockstep 1: a trace of tens of thousands of
  // accesses whose hazards took a frame of their own in the page before the analyses paused.
  const cuda::KernelRunConfig c = sv_test::kernel_config("kernels/block/cuda/kogge_stone_racy.cu", 1024, 1024, "random:5", 1);
  const Trace trace = cuda::record_kernel_launch(c).trace;
  REQUIRE(trace.events.size() > 4 * kPauseEvery);
  const std::vector<Hazard> whole = find_hazards(trace, true);
  REQUIRE_FALSE(whole.empty());
  std::vector<Hazard> sliced;
  TimeSlicedJob hazards([&] { sliced = find_hazards(trace, true); });
  CHECK(run_sliced(hazards, 0) > trace.events.size() / (2 * kPauseEvery));
  REQUIRE(sliced.size() == whole.size());
  for (std::size_t i = 0; i < whole.size(); ++i) {
    CHECK(sliced[i].index == whole[i].index);
    CHECK(sliced[i].first.seq == whole[i].first.seq);
    CHECK(sliced[i].second.seq == whole[i].second.seq);
  }
  // Between blocks: the same kernel in four blocks (what it finds there matters less than that the
  // pass over the launch's events pauses).
  const cuda::KernelRunConfig grid = sv_test::kernel_config("kernels/block/cuda/kogge_stone_racy.cu", 4096, 1024, "random:5", 1);
  const Trace launch = cuda::record_kernel_launch(grid).trace;
  REQUIRE(launch.meta.grid == 4);
  std::size_t between_blocks = 0;
  TimeSlicedJob races([&] { between_blocks = find_block_races(launch).size(); });
  CHECK(run_sliced(races, 0) > launch.events.size() / (2 * kPauseEvery));
  CHECK(between_blocks == find_block_races(launch).size());
}
