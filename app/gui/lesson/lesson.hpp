// The lesson the window shows: its controls, how they become a block-scan run, and how a trace
// file's metadata sets them.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "algorithms.hpp"
#include "emulator/record.hpp"
#include "gui/model/diagram_model.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

// What the lesson panel's controls say: a plain value, copied to the thread that records it.
struct LessonControls {
  int algorithm = static_cast<int>(block_algorithm_index(kDefaultBlockAlgorithm));  // into block_algorithms()
  int n = 8;
  int block = 0;
  int warp = 4;  // warp width of the warp-level algorithms (Merrill and Garland's Fig. 2 uses 4)
  // The other algorithms: threads the emulator advances in lockstep. 1, every thread on its own, is
  // how the slides draw a kernel (and what independent thread scheduling allows), so the racy
  // kernel's race shows at the slides' n = 8; 32 is a GPU's warp, under which it first shows at 33
  // (and what the divergence lesson counts). 0: 1 for the racy kernel, 32 for the others.
  int lanes = 0;
  int op = 4;    // interval
  int type = 0;  // numeric type when op != interval
  bool exclusive = false;
  int input_mode = 0;  // 0 slides, 1 random, 2 typed
  int input_seed = 1;
  char typed[2048] = "3,6,7,4,8,2,1,9";
  int schedule = 0;
  int schedule_seed = 7;
  int scan_kind = 0;     // 0 a plain scan, 1 segmented, 2 stream compaction, 3 allocation
  float segment_density = 0.25f;  // segmented: the chance of each element being a head (seeded)
  char predicate[128] = "x % 2 == 0";  // stream compaction
  bool gpu = false;      // record on the GPU executor instead of the emulator
  int amplify_seed = 0;  // GPU race amplifier (0 = off)
};

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
  double record_ms = 0;
};

// The controls, and the recording the window shows.
struct Lesson : LessonControls, LessonRecording {};

// The run the controls describe, for one of the block algorithms.
BlockRunConfig lesson_config(const LessonControls& l, const std::string& algorithm);

// The controls' emulator schedule as the command line writes it ("in-order", "random:7"), and the
// other way: false, changing nothing, for a name Schedule::parse does not know.
std::string schedule_text(const LessonControls& l);
bool set_schedule(LessonControls& l, std::string_view text);

// The controls' input as a link or the command line names it: "slides", "random:SEED" or the typed
// values ("3,6,7,4"); and the other way, false, changing nothing, for an empty text, a seed that is
// not a whole number from 1 to an int's largest, or values too long for the box (their values are
// checked when the lesson records them).
std::string input_text(const LessonControls& l);
bool set_input(LessonControls& l, std::string_view text);

// The controls' scan as a link names it: "plain", "segmented:DENSITY" (a head's chance, 0 to 1),
// "compact:PREDICATE" or "allocate"; and the other way (the density and predicate may be left out
// for the defaults), false, changing nothing, for what the controls cannot take.
std::string scan_text(const LessonControls& l);
bool set_scan(LessonControls& l, std::string_view text);

// A trace file shown: the controls take what it was recorded with, so the panel describes what is
// on screen and a change records the same input under the changed control. The input is typed
// when its text fits, else drawn from the trace's seed; segment heads are drawn again at the
// trace's density (the controls have no typed flags). A device-wide trace leaves the algorithm.
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
