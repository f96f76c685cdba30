// The look-back view's lesson: the controls that make the runs (the algorithms side by side and the
// emulator's switches), the presets, recording the runs, and the timeline's keys.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "emulator/record.hpp"
#include "gui/model/lookback_model.hpp"
#include "gui/model/lookback_scene.hpp"
#include "gui/model/run_to_run.hpp"

namespace sv::gui {

// The controls that make the runs: the algorithms side by side and the emulator's switches.
struct LookbackLesson {
  std::set<std::string> hidden;  // the look-back view's algorithms (lookback_algorithms()) not recorded
  int tiles = 24;
  int tile_threads = 32, items = 1;
  bool wide = false;        // int64 values: flag and value in separate words (the paper's descriptor)
  int input_seed = 1;
  bool static_ids = false;
  int launch = 0;           // in-order, reverse, random
  bool fence_off = false;
  bool torn = false;        // with wide: the 16-byte descriptor read as two halves (the torn switch)
  bool stall = false;
  int stall_tile = 3, stall_cycles = 20000;
  int window = 32;
  int sms = 4, resident = 2, latency = 400;
  // Float sums of uniform random inputs (else integers), and decoupled look-back run twice under
  // two jitter seeds, side by side: where each run's look-backs stopped, and the bits that differ.
  bool floats = false;
  bool twice = false;
  bool deterministic = false;  // floats: deterministic=on, the same bits whichever prefix a look-back stops at
  std::string extra_stalls;  // presets: further stalls (TILE:CYCLES[:look-back],...)
  std::vector<Payload> input;  // presets: the input (else seeded random)
  std::string example;         // presets: an embedded trace recorded on a GPU, shown instead of recording
};

// The presets: "fig6" (the seed paper's Fig. 6: eight tiles whose aggregates are 2, decoupled look-back
// alone), "deadlock" (static tile ids, reverse launch), "stale" (fence off), "torn" (64-bit values whose
// 16-byte descriptor tears), "stall" (a stalled tile),
// "10000 tiles", "run-to-run" (a float sum run twice, its bits differing), "deterministic" (the same
// with deterministic=on), "pipelined" (how a scan reaches the copy: the pipelined kernel's trace recorded on
// an H100, embedded; the emulator cannot run that kernel). Returns false for an unknown name.
bool lookback_preset(const std::string& name, LookbackLesson& lesson);
const std::vector<std::string>& lookback_preset_names();

// The emulator configuration of one algorithm of the lesson; `run` (0 or 1) picks the jitter seed of
// a lesson run twice.
BlockRunConfig lookback_config(const LookbackLesson& lesson, const std::string& algorithm, int run = 0);

// For the Fig. 6 preset: the instant the paper draws (tile 1 has recorded its inclusive prefix but
// not yet set its flag to P), or 0 when the run has no such instant.
std::uint64_t fig6_snapshot_time(const LookbackRun& run);

// The window: controls, the time slider, and one scene per algorithm, stacked, on one time axis.
struct LookbackUi {
  LookbackLesson lesson;
  std::string preset = "default";  // the last preset applied ("" when the controls were changed since)
  std::vector<LookbackRun> runs;  // one per shown algorithm, or the two runs of a lesson run twice
  std::optional<RunToRun> run_to_run;  // the two runs compared, when the lesson runs twice
  std::vector<std::uint64_t> moments;  // every tile event's time, of every run, sorted, once
  std::string error;
  double record_ms = 0;
  std::uint64_t time = 0;
  bool playing = false;
  float speed = 0.1f;             // of the time axis per second when playing
  double last_now = 0;            // the clock at the last frame (playing advances by the difference)
  bool jumps = false;             // playing moves a second's worth of time once a second (less motion)
  double next_jump = 0;           // ... the clock at the next
  std::int64_t selected = -1;
  bool dirty = true;              // record again before drawing
  bool focused = false;           // the window is in front: the timeline keys are its
  int generation = 0;             // counts recordings (the scenes' cache key)
  struct CachedScene {
    std::string key;  // what it shows (time, selection, size, theme, runs)
    LookbackScene scene;
    LanePicture lanes;
    std::uint64_t build = 0;  // scene_builds when it was built (its picture's version)
  };
  std::vector<CachedScene> scenes;  // per run
  CachedScene pipeline;             // the pipelined kernel's lanes (its picture unused)
  std::size_t scene_builds = 0;   // scenes built since the view was made (gui --report-frames)
  int pipe_first_block = 0;       // the pipelined kernel's blocks shown: from this one,
  int pipe_blocks = 2;            // this many
};
void record_lookback(LookbackUi& ui);

// The timeline keys, when the view is in front: Space plays or pauses, the arrows go to the previous
// or next tile event, Home and End to the run's start and end.
enum class LookbackKey : std::uint8_t { PlayPause, Previous, Next, Start, End };
void lookback_key(LookbackUi& ui, LookbackKey key);
// A device-wide trace opened from a file (recorded on a GPU, say) becomes the view's one run, until a
// control or preset records again. Returns false (and leaves the view as it was) for a trace without
// tile events.
bool show_in_lookback(LookbackUi& ui, const Trace& trace, const std::string& path);

}  // namespace sv::gui
