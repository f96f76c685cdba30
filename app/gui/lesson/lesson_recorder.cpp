// The lesson's worker thread, or its slices without one: one job waiting at most, the newest.
#include "gui/lesson/lesson_recorder.hpp"

#include <utility>

namespace sv::gui {

LessonRecorder::LessonRecorder(Record record, bool worker, double slice_ms) : record_(std::move(record)), slice_ms_(slice_ms) {
  if (worker) worker_ = std::thread([this] { work(); });
}

LessonRecorder::~LessonRecorder() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  if (worker_.joinable()) worker_.join();
}

void LessonRecorder::request(const LessonControls& controls, bool side_by_side) {
  {
    const std::lock_guard lock(mutex_);
    ready_.reset();
    newest_ = ++requests_;
    job_ = Job{controls, side_by_side, newest_};
  }
  if (worker_.joinable()) wake_.notify_one();
}

void LessonRecorder::advance(double budget_ms) {
  if (!slices_) {
    if (!job_) return;
    sliced_ = std::move(*job_);
    job_.reset();
    slices_ = std::make_unique<TimeSlicedJob>([this] { sliced_result_ = record_(sliced_.controls, sliced_.side_by_side); });
  }
  if (!slices_->run_for(budget_ms)) return;
  slices_.reset();
  if (sliced_.id == newest_) ready_ = std::move(sliced_result_);  // else overtaken: dropped
  sliced_result_ = {};
}

void LessonRecorder::cancel() {
  const std::lock_guard lock(mutex_);
  job_.reset();
  ready_.reset();
  newest_ = 0;
}

bool LessonRecorder::pending() const {
  const std::lock_guard lock(mutex_);
  return newest_ != 0;
}

std::optional<LessonRecording> LessonRecorder::take() {
  if (!worker_.joinable()) advance(slice_ms_);
  const std::lock_guard lock(mutex_);
  if (!ready_) return std::nullopt;
  newest_ = 0;
  return std::exchange(ready_, std::nullopt);
}

std::optional<LessonRecording> LessonRecorder::wait() {
  while (!worker_.joinable() && !ready_ && (slices_ || job_)) advance(1e9);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return newest_ == 0 || ready_.has_value(); });
  if (!ready_) return std::nullopt;
  newest_ = 0;
  return std::exchange(ready_, std::nullopt);
}

void LessonRecorder::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || job_.has_value(); });
    if (stop_) return;
    const Job job = std::move(*job_);
    job_.reset();
    lock.unlock();
    LessonRecording r = record_(job.controls, job.side_by_side);
    lock.lock();
    if (job.id != newest_) {  // overtaken: dropped, and freed outside the lock
      lock.unlock();
      r = {};
      lock.lock();
      continue;
    }
    ready_ = std::move(r);
    done_.notify_all();
  }
}

}  // namespace sv::gui
