// The report card's worker (kernel_check.hpp).
#include "gui/lesson/kernel_check.hpp"

#include <chrono>
#include <utility>

namespace sv::gui {

KernelGrade grade_kernel(const std::shared_ptr<const OwnKernel>& k) {
  const auto start = std::chrono::steady_clock::now();
  KernelGrade g;
  g.kernel = k;
  try {
    g.report = cuda::check_kernel(k->name, k->text);
  } catch (const std::exception& e) {
    g.report = {};
    g.report.file = k->name;
    g.report.verdict = "error";
    g.report.errors.push_back({"runtime", 0, 0, e.what()});
  }
  g.check_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return g;
}

KernelChecker::~KernelChecker() {
  if (running_.valid()) running_.wait();
}

void KernelChecker::request(std::shared_ptr<const OwnKernel> k) {
  waiting_ = std::move(k);
  if (!running_.valid()) start_waiting();
}

void KernelChecker::start_waiting() {
  if (!waiting_) return;
  running_ = std::async(threads_ ? std::launch::async : std::launch::deferred, grade_kernel, std::exchange(waiting_, nullptr));
}

std::optional<KernelGrade> KernelChecker::take() {
  if (!running_.valid()) return std::nullopt;
  if (threads_ && running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return std::nullopt;
  KernelGrade g = running_.get();
  start_waiting();
  if (running_.valid()) return std::nullopt;  // overtaken: the newer kernel's grade is on its way
  return g;
}

std::optional<KernelGrade> KernelChecker::wait() {
  std::optional<KernelGrade> g;
  while (running_.valid()) {
    running_.wait();
    g = take();
  }
  return g;
}

}  // namespace sv::gui
