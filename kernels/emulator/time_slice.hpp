// A long job run a slice at a time on one thread: the page has no threads, so it grades a kernel
// between its frames, and one case of a 1024-thread block takes longer than a frame may
// (docs/performance.md). The job runs on a stack of its own (emulator/coroutine.hpp); the block
// emulator's scheduler calls pause_point() (core/pause.hpp) every few instructions, the check
// between its parts, the analyses every few thousand events; once the slice's time is spent the
// job is suspended there and run_for() returns, to go on where it stopped at the next call.
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>

#include "core/pause.hpp"
#include "emulator/coroutine.hpp"

namespace sv {

class TimeSlicedJob {
 public:
  // The job's own stack: as deep as a thread's main stack in the page (a parse recurses).
  static constexpr std::size_t kStackBytes = std::size_t{4} << 20;

  explicit TimeSlicedJob(std::function<void()> job);
  ~TimeSlicedJob();
  TimeSlicedJob(const TimeSlicedJob&) = delete;
  TimeSlicedJob& operator=(const TimeSlicedJob&) = delete;

  // Runs the job until it ends, or until `budget_ms` have passed at one of its pause points (0:
  // the first). True once it has ended; what the job threw is thrown here, once.
  bool run_for(double budget_ms);
  bool done() const { return done_; }
  // The slices run so far, and the time spent in them.
  std::size_t slices() const { return slices_; }
  double ms() const { return ms_; }

 private:
  friend void pause_running_job();
  using Clock = std::chrono::steady_clock;

  std::function<void()> job_;
  Coroutine fiber_;
  Clock::time_point deadline_{};
  std::exception_ptr failure_;
  std::size_t slices_ = 0;
  double ms_ = 0;
  bool done_ = false;
};

// The hook a slice installs (core/pause.hpp): suspends the job running now once its slice is spent.
// A pause point must be on the job's own stack, outside any other coroutine (the emulator's
// threads): a scheduler loop, the code that runs emulators, an analysis of a finished trace.
void pause_running_job();

}  // namespace sv
