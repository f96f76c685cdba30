// Records the lesson on a worker thread, so that no frame waits for the emulator: the window keeps
// drawing the trace it has until the new one is ready and swaps it in between frames. Only the
// newest request counts: one made while another records replaces any still waiting, and a
// recording overtaken by a newer request is dropped when it finishes. Without a worker (the web page:
// WebAssembly without shared memory has no threads) a request records at once, on the caller's thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "gui/lesson/lesson.hpp"

namespace sv::gui {

class LessonRecorder {
 public:
  using Record = std::function<LessonRecording(const LessonControls&, bool side_by_side)>;

  // `record` runs on the worker thread (tests pass one they can hold); without `worker`, in request().
  explicit LessonRecorder(Record record = record_lesson_controls, bool worker = true);
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

  Record record_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::optional<Job> job_;               // the request waiting for the worker
  std::optional<LessonRecording> ready_;  // the newest request's recording
  std::uint64_t newest_ = 0;             // id of the newest request; 0: none wanted
  std::uint64_t requests_ = 0;
  bool stop_ = false;
  std::thread worker_;  // last: starts once the rest is set up
};

}  // namespace sv::gui
