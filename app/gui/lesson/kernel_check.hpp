// Grades a kernel of the user's own off the frame: `scanviz check`'s report card runs the kernel over
// many sizes, inputs, schedules and lockstep widths (a second or more here, docs/performance.md), so
// the window asks for it once per run of a changed kernel and draws on while it works. The newest
// kernel asked wins: one asked while another is graded waits for that one, then runs; one overtaken
// before it starts is never run. Without threads (the web page) a check runs when it is taken.
#pragma once

#include <future>
#include <memory>
#include <optional>

#include "cuda_subset/check.hpp"
#include "gui/lesson/own_kernel.hpp"

namespace sv::gui {

// A report card and the kernel it grades.
struct KernelGrade {
  std::shared_ptr<const OwnKernel> kernel;
  cuda::CheckReport report;
  double check_ms = 0;
};

// The report card of `k`, on the calling thread; a failure of the check itself is an "error" verdict.
KernelGrade grade_kernel(const std::shared_ptr<const OwnKernel>& k);

class KernelChecker {
 public:
  explicit KernelChecker(bool threads) : threads_(threads) {}
  ~KernelChecker();  // waits for a check in progress
  KernelChecker(const KernelChecker&) = delete;
  KernelChecker& operator=(const KernelChecker&) = delete;

  // Asks for the report card of `k`.
  void request(std::shared_ptr<const OwnKernel> k);
  // True from a request until its grade is taken.
  bool busy() const { return running_.valid() || waiting_ != nullptr; }
  // Once a frame: the newest grade when it is ready (and the next waiting check started).
  std::optional<KernelGrade> take();
  // The newest grade, waiting for it (a headless run's last frame shows it).
  std::optional<KernelGrade> wait();

 private:
  void start_waiting();

  bool threads_;
  std::future<KernelGrade> running_;
  std::shared_ptr<const OwnKernel> waiting_;
};

}  // namespace sv::gui
