// The lesson the window shows: its controls, how they become a block-scan run, and how a trace
// file's metadata sets them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "algorithms.hpp"
#include "emulator/record.hpp"
#include "gui/model/diagram_model.hpp"
#include "gui/options.hpp"
#include "run/request.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

struct OwnKernel;  // gui/lesson/own_kernel.hpp

// What the lesson panel's controls say: a plain value, copied to the thread that records it. The
// controls edit a run request (run/request.hpp), as the command line's flags and a link's keys do;
// what is not a field of it is only what a widget remembers while another choice hides it.
struct LessonControls {
  // The lesson as asked (default_lesson_request, gui/options.hpp). `warp` is the warp width of a
  // warp-level algorithm, or for the others the threads the emulator advances in lockstep: 1, every
  // thread on its own, is how the slides draw a kernel (so the racy kernel's race shows at n = 8); 32 is a GPU's warp. Empty:
  // 1 for the racy kernel, 32 for the others. The request may hold fields its scan does not use
  // (a type under the interval operator, a predicate of a plain scan): lesson_request leaves them out.
  RunRequest request = default_lesson_request();
  // Remembered while hidden: the warp field of the other kind of algorithm (warp-level or not),
  // the typed values, the segment heads and the random schedule.
  std::optional<std::int32_t> other_warp = 4;  // Merrill and Garland's Fig. 2 draws warps of 4
  std::string typed = "3,6,7,4,8,2,1,9";
  std::string heads = "random:0.25";
  std::string random_schedule = "random:7";
  // Set: the lesson is this kernel of the user's own, run as the request says (own_kernel.hpp);
  // choosing an algorithm clears it.
  std::shared_ptr<const OwnKernel> own_kernel;
};

// The block algorithm the controls name, as the index block_algorithms() lists it (the combo's).
int algorithm_index(const LessonControls& l);
// Picks a block algorithm; the warp field swaps with other_warp when the kind of algorithm changes.
void set_algorithm(LessonControls& l, std::string_view name);
// The largest n the lesson's block takes: a block's threads times the elements each loads (two for a
// kernel of the user's own).
int max_lesson_n(const LessonControls& l);

// The combo positions of the input (0 slides, 1 seeded random, 2 typed, 3.. the float lesson's named inputs
// in float_input_names() order), the scan (0 plain,
// 1 segmented, 2 stream compaction, 3 allocation) and the schedule (schedule_kind_names()), and
// what choosing one sets; segment_density is the heads' share (drawn or typed).
int input_mode(const LessonControls& l);
void set_input_mode(LessonControls& l, int mode);
int scan_kind(const LessonControls& l);
void set_scan_kind(LessonControls& l, int kind);
double segment_density(const LessonControls& l);
int schedule_index(const LessonControls& l);
void set_schedule_index(LessonControls& l, int index);

// The request the lesson runs for `algorithm` (the lesson's own, or its side-by-side partner):
// the fields its scan does not use left out, the warp resolved for the algorithm's kind, the
// executor's own fields only. Its printed form is the lesson's text.
RunRequest lesson_request(const LessonControls& l, const std::string& algorithm);

// The kernel shown beside `lesson_algorithm` side by side: the single-buffer (racy) Kogge-Stone,
// or the double-buffered one beside the racy lesson itself.
std::string side_by_side_partner(const std::string& lesson_algorithm);

// A recording of the controls: the traces with their analyses, or the error that stopped it.
struct LessonRecording {
  std::unique_ptr<TraceView> view;
  // Side by side, the other kernel of the pair on the same input: the single-buffer (racy) kernel,
  // or, when the lesson is that one, the double-buffered kernel.
  std::unique_ptr<TraceView> racy;
  std::string error;
  std::uint32_t error_line = 0;  // the kernel's line the error names (a kernel of the user's own), else 0
  std::shared_ptr<const OwnKernel> ran_kernel;  // the kernel of the user's own the view ran, else null
  double record_ms = 0;
};

// The controls, and the recording the window shows.
struct Lesson : LessonControls, LessonRecording {};

// The run the controls describe, for one of the block algorithms: run_config of lesson_request.
BlockRunConfig lesson_config(const LessonControls& l, const std::string& algorithm);

// A trace file shown: the controls take the request it was recorded from (request_from_meta), so
// the panel describes what is on screen and a change records the same input under the changed
// control (the executor stays the controls'). A device-wide trace leaves the controls as they are.
void lesson_from_trace(LessonControls& l, const TraceMeta& m);

// Records the controls' lesson (and, side by side, the single-buffer kernel on the same input).
// Touches nothing but its arguments: the window calls it on a worker thread (lesson_recorder.hpp).
LessonRecording record_lesson_controls(const LessonControls& l, bool side_by_side);

// Shows a recording: its traces replace the lesson's, or its error is kept in l.error and the
// previous traces stay.
void show_recording(Lesson& l, LessonRecording&& r);

// Both at once, on the calling thread.
void record_lesson(Lesson& l, bool side_by_side);

}  // namespace sv::gui
