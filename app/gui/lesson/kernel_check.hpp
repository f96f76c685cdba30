// Grades a kernel of the user's own off the frame: `scanviz check`'s report card runs the kernel over
// many sizes, inputs, schedules and lockstep widths (seconds for a block of 1024 threads,
// docs/performance.md), so the window asks for it once per run of a changed kernel and draws on while
// it works, a case at a time (cuda::CheckRun), showing how far it got and what it found so far. The
// newest kernel asked wins: one asked while another is graded waits for that one, then runs; one
// overtaken before it starts is never run. With threads the cases run on a worker; without (the web
// page) the check is a TimeSlicedJob that the frame loop runs a few milliseconds of each frame
// (work()), stopping inside a case where the slice is spent (one case of a 1024-thread block takes
// longer than a frame).
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cuda_subset/check.hpp"
#include "emulator/time_slice.hpp"
#include "gui/lesson/own_kernel.hpp"

namespace sv::gui {

// A report card and the kernel and launch it grades.
struct KernelGrade {
  std::shared_ptr<const OwnKernel> kernel;
  std::string launch;  // the lesson's launch it was graded with ("": the file's only kernel, inferred)
  cuda::CheckReport report;
  double check_ms = 0;
};

// How far a check got: its cases run of those planned, and what they found (no verdict yet).
struct GradeProgress {
  std::size_t run = 0, planned = 0;
  cuda::CheckReport partial;
};

// The report card of `k` launched as `launch` says, on the calling thread; a failure of the check
// itself (a launch that does not parse) is an "error" verdict.
KernelGrade grade_kernel(const std::shared_ptr<const OwnKernel>& k, const std::string& launch = {});

class KernelChecker {
 public:
  explicit KernelChecker(bool threads) : threads_(threads) {}
  ~KernelChecker();  // waits for a check in progress
  KernelChecker(const KernelChecker&) = delete;
  KernelChecker& operator=(const KernelChecker&) = delete;

  // Asks for the report card of `k` launched as `launch` says.
  void request(std::shared_ptr<const OwnKernel> k, std::string launch = {});
  // True from a request until its grade is taken.
  bool busy() const { return running_ != nullptr || waiting_ != nullptr; }
  // The check in progress: its cases so far (nothing when none runs).
  std::optional<GradeProgress> progress() const;
  // Without threads, once a frame: runs the check's parts until `budget_ms` are spent (at least one).
  void work(double budget_ms);
  // Once a frame: the newest grade when it is ready (and the next waiting check started).
  std::optional<KernelGrade> take();
  // The newest grade, waiting for it (a headless run's last frame shows it).
  std::optional<KernelGrade> wait();

 // One check: its run, stepped on the worker or by work(), and its progress for the frame.
  struct Grading {
    Grading(std::shared_ptr<const OwnKernel> k, std::string l);
    std::shared_ptr<const OwnKernel> kernel;
    std::string launch;
    std::optional<cuda::CheckRun> run;  // empty when the launch did not parse
    std::unique_ptr<TimeSlicedJob> slices;  // without threads: the steps, run a slice at a time
    KernelGrade grade;                  // the launch's refusal, or the finished card
    std::atomic<bool> done{false};
    double ms = 0;
    mutable std::mutex mutex;
    GradeProgress shown;
    bool step();  // one part; false (and `grade` made) once the check is over
  };

 private:
  void start_waiting();
  void run_slice(double budget_ms);  // without threads: the running check's job, for at most this long

  bool threads_;
  std::shared_ptr<Grading> running_;
  std::future<void> worker_;
  std::shared_ptr<const OwnKernel> waiting_;
  std::string waiting_launch_;
};

}  // namespace sv::gui
