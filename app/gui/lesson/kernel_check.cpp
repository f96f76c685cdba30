// The report card's worker (kernel_check.hpp).
#include "gui/lesson/kernel_check.hpp"

#include <chrono>
#include <utility>

#include "run/launch.hpp"

namespace sv::gui {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// A report card of the verdict "error": the check could not run (`kind` says why, `message` how).
cuda::CheckReport refused(const std::string& file, const std::string& kind, const std::string& message) {
  cuda::CheckReport r;
  r.file = file;
  r.verdict = "error";
  r.errors.push_back({kind, 0, 0, message});
  return r;
}

}  // namespace

KernelChecker::Grading::Grading(std::shared_ptr<const OwnKernel> k, std::string l)
    : kernel(std::move(k)), launch(std::move(l)), grade{kernel, launch, {}, 0} {
  try {
    cuda::CheckOptions options;
    if (!launch.empty()) options.launch = parse_launch(launch);
    run.emplace(kernel->name, kernel->text, options);
  } catch (const std::exception& e) {
    grade.report = refused(kernel->name, "launch", e.what());
    done = true;
  }
}

KernelGrade grade_kernel(const std::shared_ptr<const OwnKernel>& k, const std::string& launch) {
  KernelChecker::Grading g(k, launch);
  while (g.step()) {
  }
  return std::move(g.grade);
}

bool KernelChecker::Grading::step() {
  if (done) return false;
  const auto start = Clock::now();
  bool more = false;
  try {
    more = run && run->step();
    if (run) {
      const std::lock_guard<std::mutex> lock(mutex);
      shown = {run->cases_run(), run->cases_planned(), run->partial()};
    }
    if (!more && run) grade.report = run->finish();
  } catch (const std::exception& e) {
    grade.report = refused(kernel->name, "runtime", e.what());
    more = false;
  }
  ms += ms_since(start);
  if (!more) {
    grade.check_ms = ms;
    done = true;
  }
  return more;
}

KernelChecker::~KernelChecker() {
  if (worker_.valid()) worker_.wait();
}

void KernelChecker::request(std::shared_ptr<const OwnKernel> k, std::string launch) {
  waiting_ = std::move(k);
  waiting_launch_ = std::move(launch);
  if (!running_) start_waiting();
}

void KernelChecker::start_waiting() {
  if (!waiting_) return;
  auto g = std::make_shared<Grading>(std::exchange(waiting_, nullptr), std::exchange(waiting_launch_, {}));
  running_ = g;
  if (g->done) return;
  if (threads_) {
    worker_ = std::async(std::launch::async, [g] {
      while (g->step()) {
      }
    });
  } else {
    Grading* const raw = g.get();  // the job is the grading's own, and goes first
    g->slices = std::make_unique<TimeSlicedJob>([raw] {
      while (raw->step()) {
      }
    });
  }
}

void KernelChecker::run_slice(double budget_ms) {
  Grading& g = *running_;
  try {
    if (!g.slices->run_for(budget_ms)) return;
  } catch (const std::exception& e) {  // step() keeps what the check throws: this is the job's own failure
    g.grade.report = refused(g.kernel->name, "runtime", e.what());
    g.done = true;
  }
  g.grade.check_ms = g.slices->ms();  // the slices' own time, not the frames drawn between them
}

std::optional<GradeProgress> KernelChecker::progress() const {
  if (!running_) return std::nullopt;
  const std::lock_guard<std::mutex> lock(running_->mutex);
  return running_->shown;
}

void KernelChecker::work(double budget_ms) {
  if (threads_ || !running_ || running_->done) return;
  run_slice(budget_ms);
}

std::optional<KernelGrade> KernelChecker::take() {
  if (!running_ || !running_->done) return std::nullopt;
  if (worker_.valid()) worker_.get();
  KernelGrade g = std::move(running_->grade);
  running_.reset();
  start_waiting();
  if (running_) return std::nullopt;  // overtaken: the newer kernel's grade is on its way
  return g;
}

std::optional<KernelGrade> KernelChecker::wait() {
  std::optional<KernelGrade> g;
  while (running_) {
    if (worker_.valid()) worker_.wait();
    while (running_->slices && !running_->done) run_slice(1e9);
    while (running_->step()) {
    }
    g = take();
  }
  return g;
}

}  // namespace sv::gui
