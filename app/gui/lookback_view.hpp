// The look-back view: a device-wide scan's tiles talking to each other. A row of descriptors (flag
// X/A/P, aggregate, inclusive prefix) as they stand at a chosen time; for the selected tile, arrows
// to the predecessors it inspected and what it saw; one lane per resident slot of each SM with every
// tile's lifetime and its waiting marked. Side by side for chained, decoupled look-back and
// reduce-then-scan on the same input, with the emulator's switches as toggles and presets (the seed
// paper's Fig. 6 snapshot, the static-id deadlock, the stale read of fence=off, a stalled tile).
//
// The model (LookbackRun, descriptors_at, build_lookback_scene) is plain data, so the tests check
// what is drawn; lookback_window draws a scene with ImGui's draw list.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/lookback.hpp"
#include "emulator/record.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

// One tile's lifetime in one launch, on the lane (a resident slot of its SM) it ran in.
struct TileSpan {
  std::int64_t tile = -1;
  std::uint16_t pass = 0, sm = 0;
  int lane = 0;
  std::uint64_t start = 0, end = 0;
  bool ended = false;
  bool first_level = true;  // a launch over the descriptors' tiles (not the recursion on the tile sums)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> waits;  // [began, ended) of each wait; UINT64_MAX: never ended (deadlock)
};

// A change of one descriptor field, in time order, at the time other tiles can see it: the tile's
// flag, its aggregate or its inclusive prefix. reduce-then-scan has no descriptors: its tile sums act as aggregates (known when a tile of
// the reduce launch ends) and its scanned sums as inclusive prefixes (known when the last launch starts).
struct DescriptorChange {
  std::uint64_t time = 0;
  std::int64_t tile = -1;
  enum class Field : std::uint8_t { Flag, Aggregate, Inclusive } field = Field::Flag;
  TileFlag flag = TileFlag::X;
  Payload value;
};

// A trace prepared for the view (computed once per trace).
struct LookbackRun {
  Trace trace;
  Outcome outcome = Outcome::Correct;
  LookbackSummary summary;              // of the single-pass launch (the last launch with tile events)
  std::int64_t tiles = 0;               // descriptors shown: the first level's tiles
  std::vector<TileSpan> spans;          // every tile of every launch
  int lanes = 0;
  std::vector<int> lane_sm;             // lane -> SM
  std::vector<DescriptorChange> changes;  // by time
  std::uint64_t t0 = 0, t1 = 0;         // the tile events' time range: from 0, gaps between launches folded
  std::uint64_t folded = 0;             // time removed between launches (a GPU trace's host work)
  bool derived_descriptors = false;     // reduce-then-scan: from the tile sums, not from descriptors
  std::uint64_t visible_after = 0;      // emulator: a store is seen this long after its event (the latency)
};
LookbackRun make_lookback_run(Trace trace);

enum class TileLife : std::uint8_t { NotStarted, Running, Waiting, Done };

struct DescriptorState {
  TileFlag flag = TileFlag::X;
  std::optional<Payload> aggregate, inclusive;
  TileLife life = TileLife::NotStarted;
  std::int64_t waiting_for = -1;  // the predecessor it waits on, when waiting
};
// Every descriptor as it stands at `time` (changes at exactly `time` included).
std::vector<DescriptorState> descriptors_at(const LookbackRun& run, std::uint64_t time);

// The inspections `tile` made up to `time` (of the single-pass launch), most recent window last.
std::vector<TileInspection> inspections_until(const LookbackRun& run, std::int64_t tile, std::uint64_t time);

// Colours as 0xRRGGBBAA, by theme.
struct LookbackPalette {
  std::uint32_t background, text, text_dim, grid, flag_x, flag_a, flag_p, cell, lifetime, waiting, arrow, stale, cursor,
      selected;
};
const LookbackPalette& lookback_palette(const std::string& theme);

// What is drawn, in pixels relative to the scene's top-left corner.
struct SceneRect {
  float x = 0, y = 0, w = 0, h = 0;
  std::uint32_t fill = 0, border = 0;  // border 0: none
  std::string label;
  std::int64_t tile = -1;  // the tile it stands for (-1: a run of merged cells or decoration)
  enum class Kind : std::uint8_t { Flag, Aggregate, Inclusive, Lifetime, Wait, Cursor, Legend } kind = Kind::Flag;
  std::uint32_t label_color = 0x141414FF;
  float border_w = 1;
};
struct SceneArrow {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, bend = 0;  // bend: the arc's height (pixels, upward when > 0)
  std::uint32_t color = 0;
  std::string label;  // what the inspection saw: "A 2", "P 8"
  std::int64_t target = -1;
  bool stale = false;
};
struct SceneText {
  float x = 0, y = 0;
  std::uint32_t color = 0;
  std::string text;
  bool centred = false;  // on x (tile numbers over their column); else starting at x
};
struct LookbackScene {
  std::vector<SceneRect> rects;
  std::vector<SceneArrow> arrows;
  std::vector<SceneText> texts;
  float width = 0, height = 0;
  float table_x = 0, cell_w = 0, flag_y = 0, row_h = 0;  // the descriptor table's geometry (hit tests)
  float lanes_y = 0, lane_h = 0;
  int merged_cells = 0;  // descriptor cells folded into runs because they were narrower than 2 px
  int merged_lane_marks = 0;  // lifetimes and waits on a lane merged into the mark before (they touch)
};

struct SceneOptions {
  float width = 1200;     // pixels
  float em = 16;          // the font's size in pixels
  std::uint64_t t_end = 0;  // the lanes' time axis runs to this (0: the run's own end); one axis for side by side
  std::int64_t selected = -1;
  std::string title;
  bool legend = true;
  bool fold_lanes = true;  // merge touching marks on a lane that would show as one (off: tests compare)
};
LookbackScene build_lookback_scene(const LookbackRun& run, std::uint64_t time, const LookbackPalette& pal,
                                   const SceneOptions& options);

// The lanes' marks (lifetimes and waits, not their labels) as one picture, one texel a pixel, over
// the scene's background: each mark fills the pixels whose centres it covers, blended in order, as
// the rasterizer fills a rect. Drawn as one quad: a lane a thousand pixels wide of marks three pixels
// tall is thousands of thin triangles, and llvmpipe pays for every 4x4 block a triangle touches.
struct LanePicture {
  int x = 0, y = 0, w = 0, h = 0;   // pixels, from the scene's top-left corner (w = 0: no lanes)
  std::vector<std::uint32_t> rgba;  // w x h, top row first, bytes in GL_RGBA order
};
LanePicture lane_picture(const LookbackScene& scene, std::uint32_t background);

// Draws a scene with the current ImGui window's draw list, its top-left corner at `origin`; with
// `lanes_drawn`, all but the lanes' marks (the caller drew their lane_picture).
void draw_lookback_scene(const LookbackScene& scene, float origin_x, float origin_y, bool lanes_drawn = false);
// The same scene as a standalone SVG document (vector export for slides).
std::string lookback_scene_svg(const LookbackScene& scene, const LookbackPalette& pal, float font_px);

// The time a scene shows by default: the middle of the run.
inline std::uint64_t default_lookback_time(const LookbackRun& r) { return r.t0 + (r.t1 - r.t0) / 2; }

// The controls that make the runs: the algorithms side by side and the emulator's switches.
struct LookbackLesson {
  bool show[3] = {true, true, true};  // chained, decoupled-lookback, reduce-then-scan
  int tiles = 24;
  int tile_threads = 32, items = 1;
  bool wide = false;        // int64 values: flag and value in separate words (the paper's descriptor)
  int input_seed = 1;
  bool static_ids = false;
  int launch = 0;           // in-order, reverse, random
  bool fence_off = false;
  bool stall = false;
  int stall_tile = 3, stall_cycles = 20000;
  int window = 32;
  int sms = 4, resident = 2, latency = 400;
  std::string extra_stalls;  // presets: further stalls (TILE:CYCLES[:look-back],...)
  std::vector<Payload> input;  // presets: the input (else seeded random)
};

// The presets: "fig6" (the seed paper's Fig. 6: eight tiles whose aggregates are 2, decoupled look-back
// alone), "deadlock" (static tile ids, reverse launch), "stale" (fence off), "stall" (a stalled tile),
// "10000 tiles". Returns false for an unknown name.
bool lookback_preset(const std::string& name, LookbackLesson& lesson);
const std::vector<std::string>& lookback_preset_names();

inline constexpr const char* kLookbackAlgorithms[3] = {"chained", "decoupled-lookback", "reduce-then-scan"};

// The emulator configuration of one algorithm of the lesson.
BlockRunConfig lookback_config(const LookbackLesson& lesson, const std::string& algorithm);

// For the Fig. 6 preset: the instant the paper draws (tile 1 has recorded its inclusive prefix but
// not yet set its flag to P), or 0 when the run has no such instant.
std::uint64_t fig6_snapshot_time(const LookbackRun& run);

// The window: controls, the time slider, and one scene per algorithm, stacked, on one time axis.
struct LookbackUi {
  LookbackLesson lesson;
  std::string preset;             // the last preset applied ("" when the controls were changed since)
  std::vector<LookbackRun> runs;  // one per shown algorithm
  std::vector<std::uint64_t> moments;  // every tile event's time, of every run, sorted, once
  std::string error;
  double record_ms = 0;
  std::uint64_t time = 0;
  bool playing = false;
  float speed = 0.1f;             // of the time axis per second when playing
  double last_now = 0;            // the clock at the last frame (playing advances by the difference)
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
  std::size_t scene_builds = 0;   // scenes built since the view was made (gui --report-frames)
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
class GlPictures;
// With `pictures`, the lanes are drawn as pictures (lane_picture) kept there.
void lookback_window_contents(LookbackUi& ui, const std::string& theme, double now_seconds, GlPictures* pictures = nullptr);

}  // namespace sv::gui
