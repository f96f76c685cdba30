// Records the lesson on a worker thread, so that no frame waits for the emulator: the window keeps
// drawing the trace it has until the new one is ready and swaps it in between frames. Only the
// newest request counts: one made while another records replaces any still waiting, and a
// recording overtaken by a newer request is dropped when it finishes. Without a worker (the web page:
// WebAssembly without shared memory has no threads) the recording is a TimeSlicedJob that take() runs
// 10 ms of, once a frame: a kernel of one's own in a block of 1024 threads takes longer than a frame
// there.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "emulator/time_slice.hpp"
#include "gui/lesson/lesson.hpp"

namespace sv::gui {

class LessonRecorder {
 public:
  using Record = std::function<LessonRecording(const LessonControls&, bool side_by_side)>;

  // `record` runs on the worker thread (tests pass one they can hold); without `worker`, in slices
  // of `slice_ms` a take() and in wait().
  explicit LessonRecorder(Record record = record_lesson_controls, bool worker = true, double slice_ms = 10);
  ~LessonRecorder();  // waits for a recording in progress
  LessonRecorder(const LessonRecorder&) = delete;
  LessonRecorder& operator=(const LessonRecorder&) = delete;

  // Asks for a recording of a copy of `controls`.
  void request(const LessonControls& controls, bool side_by_side);
  // Forgets the newest request (a trace file opened in the meantime wins over it).
  void cancel();
  // True from a request until its recording is taken or cancelled.
  bool pending() const;
  // The newest request's recording when it is ready; nothing while it records (or when none is asked).
  std::optional<LessonRecording> take();
  // The newest request's recording, waiting for it: a headless run's last frame shows it.
  std::optional<LessonRecording> wait();

 private:
  struct Job {
    LessonControls controls;
    bool side_by_side = false;
    std::uint64_t id = 0;
  };
  void work();
  // Without a worker: runs the recording in progress for at most `budget_ms` (starting the waiting
  // request first where none is in progress).
  void advance(double budget_ms);

  Record record_;
  double slice_ms_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::optional<Job> job_;               // the request waiting for the worker
  std::optional<LessonRecording> ready_;  // the newest request's recording
  std::uint64_t newest_ = 0;             // id of the newest request; 0: none wanted
  std::uint64_t requests_ = 0;
  bool stop_ = false;
  // Without a worker: the recording in progress (dropped first: its frames use the two before it),
  // its request and what it made.
  Job sliced_;
  LessonRecording sliced_result_;
  std::unique_ptr<TimeSlicedJob> slices_;
  std::thread worker_;  // last: starts once the rest is set up
};

}  // namespace sv::gui
