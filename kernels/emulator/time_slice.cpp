// TimeSlicedJob (emulator/time_slice.hpp).
#include "emulator/time_slice.hpp"

#include <utility>

namespace sv {

namespace {

// The job whose slice runs now on this thread.
thread_local TimeSlicedJob* running = nullptr;

}  // namespace

TimeSlicedJob::TimeSlicedJob(std::function<void()> job) : job_(std::move(job)) {
  // What the job throws, the coroutine keeps and its resume() throws (emulator/coroutine.hpp).
  fiber_.start(kStackBytes, [this] {
    job_();
    done_ = true;
  });
}

TimeSlicedJob::~TimeSlicedJob() { fiber_.reset(); }

bool TimeSlicedJob::run_for(double budget_ms) {
  if (done_) return true;
  const auto start = Clock::now();
  deadline_ = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(budget_ms));
  TimeSlicedJob* const outer = std::exchange(running, this);
  const PauseHook outer_hook = set_pause_hook(&pause_running_job);
  try {
    fiber_.resume();
  } catch (...) {
    failure_ = std::current_exception();
    done_ = true;
  }
  set_pause_hook(outer_hook);
  running = outer;
  ++slices_;
  ms_ += std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  if (!failure_) return done_;
  std::rethrow_exception(std::exchange(failure_, nullptr));
}

void pause_running_job() {
  TimeSlicedJob* const job = running;
  if (!job || TimeSlicedJob::Clock::now() < job->deadline_) return;
  running = nullptr;  // not this job's until run_for resumes it
  job->fiber_.suspend();
  running = job;
}

}  // namespace sv
