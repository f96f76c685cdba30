// The look-back view's lesson: the presets, the emulator configuration of each algorithm, recording
// the runs and where the view starts, and the timeline's keys.
#include "gui/lesson/lookback_lesson.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iterator>
#include <stdexcept>

#include "algorithms.hpp"
#include "core/float_inputs.hpp"
#include "embedded.hpp"
#include "trace/trace_json.hpp"

namespace sv::gui {

const std::vector<std::string>& lookback_preset_names() {
  static const std::vector<std::string> names = {"default", "fig6", "deadlock", "stale", "torn", "stall", "10000-tiles",
                                                 "run-to-run", "deterministic", "pipelined"};
  return names;
}

bool lookback_preset(const std::string& name, LookbackLesson& l) {
  const auto& names = lookback_preset_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) return false;
  l = LookbackLesson{};
  if (name == "fig6") {
    // Merrill and Garland, Fig. 6: eight processors over eight partitions whose sums are 2. The
    // descriptor keeps flag, aggregate and inclusive prefix apart (64-bit values), so processor 1 can
    // have recorded its inclusive prefix while its flag still says A. The stalls make the schedule
    // the figure describes: 1 looks back late; 2 and 4 have not started looking back; 3 looks back
    // over three predecessors; 5 over two, after 3's P; 6 has not published anything; 7 waits on 6.
    for (const DeviceAlgorithmInfo* a : lookback_algorithms())  // decoupled look-back alone: the one with windows
      if (!takes_switch(*a, "window")) l.hidden.emplace(a->name);
    l.tiles = 8;
    l.wide = true;
    l.sms = 8;
    l.resident = 1;
    l.extra_stalls = "1:3000:look-back,2:10000:look-back,4:10000:look-back,5:2000:look-back,6:10000";
    l.input.assign(static_cast<std::size_t>(l.tiles * l.tile_threads * l.items), Payload::of(std::int64_t{0}));
    for (int t = 0; t < l.tiles; ++t)
      for (int k = 0; k < 2; ++k) l.input[static_cast<std::size_t>(t * l.tile_threads * l.items + k)] = Payload::of(std::int64_t{1});
  } else if (name == "deadlock") {
    l.static_ids = true;
    l.launch = 1;  // reverse: the last tiles fill every slot and wait for tiles never launched
  } else if (name == "stale") {
    l.fence_off = true;
  } else if (name == "torn") {
    l.wide = true;
    l.torn = true;
  } else if (name == "stall") {
    l.stall = true;
  } else if (name == "pipelined") {
    l.example = "examples/pipelined-h100.json";
  } else if (name == "run-to-run" || name == "deterministic") {
    // 64 blocks at once, as on a GPU: the first wave's look-backs all find their neighbour's P, the
    // later ones stop wherever the latencies of the run let a P be seen first (scanviz repeat).
    l.floats = l.twice = true;
    l.deterministic = name == "deterministic";
    l.tiles = 128;
    l.items = 4;  // deterministic=on reads 4 values a lane at once
    l.sms = 16;
    l.resident = 4;
  } else if (name == "10000-tiles") {
    l.tiles = 10000;
    l.sms = 32;
    l.resident = 2;
  }
  return true;
}

BlockRunConfig lookback_config(const LookbackLesson& l, const std::string& algorithm, int run) {
  BlockRunConfig c;
  c.algorithm = algorithm;
  c.block = l.tile_threads;
  c.n = static_cast<std::int64_t>(l.tiles) * l.tile_threads * l.items;
  c.op = OpKind::Sum;
  c.type = l.floats ? ValueType::F32 : l.wide ? ValueType::I64 : ValueType::I32;
  c.input_seed = static_cast<std::uint64_t>(std::max(l.input_seed, 0));
  if (static_cast<std::int64_t>(l.input.size()) == c.n) c.input = l.input;
  else if (l.floats) c.input = *float_input("uniform", c.type, static_cast<std::size_t>(c.n), c.input_seed);
  if (l.twice) c.options["jitter"] = std::to_string(1 + run);
  const DeviceAlgorithmInfo& row = *find_device_algorithm(algorithm);
  if (l.floats && l.deterministic && takes_switch(row, "deterministic")) c.options["deterministic"] = "on";
  const bool single_pass = row.single_pass;
  c.options["items"] = std::to_string(l.items);
  c.options["sms"] = std::to_string(l.sms);
  c.options["resident"] = std::to_string(l.resident);
  c.options["latency"] = std::to_string(l.latency);
  const char* launches[] = {"in-order", "reverse", "random:1"};
  c.options["launch"] = launches[std::clamp(l.launch, 0, 2)];
  if (single_pass) {
    c.options["tile-ids"] = l.static_ids ? "static" : "dynamic";
    c.options["fence"] = l.fence_off ? "off" : "on";
    if (l.torn && l.wide && !l.fence_off) c.options["torn"] = "on";
    std::string stalls = l.stall ? std::to_string(l.stall_tile) + ":" + std::to_string(l.stall_cycles) : "";
    if (!l.extra_stalls.empty()) stalls += (stalls.empty() ? "" : ",") + l.extra_stalls;
    if (!stalls.empty()) c.options["stall"] = stalls;
  }
  if (takes_switch(row, "window")) c.options["window"] = std::to_string(l.window);
  return c;
}

std::uint64_t fig6_snapshot_time(const LookbackRun& run) {
  std::int64_t recorded = -1, flagged = -1;
  for (const DescriptorChange& c : run.changes) {
    if (c.tile != 1 || c.flag != TileFlag::P) continue;
    if (c.field == DescriptorChange::Field::Inclusive) recorded = static_cast<std::int64_t>(c.time);
    if (c.field == DescriptorChange::Field::Flag) flagged = static_cast<std::int64_t>(c.time);
  }
  if (recorded < 0 || flagged <= recorded) return 0;
  return static_cast<std::uint64_t>((recorded + flagged) / 2);
}

namespace {
// Whether the run's look-back inspects windows of predecessors (decoupled look-back's): the presets
// start where such a look-back shows something.
bool looks_back_in_windows(const LookbackRun& r) {
  const DeviceAlgorithmInfo* a = find_device_algorithm(r.trace.meta.algorithm);
  return a && takes_switch(*a, "window");
}

// Every tile event's time, of every run, sorted and unique: the previous/next buttons' stops.
void collect_moments(LookbackUi& ui) {
  ui.moments.clear();
  for (const LookbackRun& r : ui.runs)
    for (const TileEvent& e : r.trace.tile_events) ui.moments.push_back(e.time);
  std::sort(ui.moments.begin(), ui.moments.end());
  ui.moments.erase(std::unique(ui.moments.begin(), ui.moments.end()), ui.moments.end());
}
}  // namespace

void record_lookback(LookbackUi& ui) {
  const auto start = std::chrono::steady_clock::now();
  ui.runs.clear();
  ui.error.clear();
  if (!ui.lesson.example.empty()) {
    try {
      const std::string_view text = embedded_file(ui.lesson.example);
      if (text.empty()) throw std::runtime_error("this build has no " + ui.lesson.example);
      ui.runs.push_back(make_lookback_run(trace_from_json(std::string(text))));
    } catch (const std::exception& e) {
      ui.error = ui.lesson.example + ": " + e.what();
    }
  }
  ui.run_to_run.reset();
  for (int run = 0; run < 2 && ui.lesson.twice && ui.lesson.example.empty(); ++run) {
    try {
      ui.runs.push_back(make_lookback_run(record_device_scan(lookback_config(ui.lesson, "decoupled-lookback", run))));
    } catch (const std::exception& e) {
      ui.error += "decoupled-lookback, run " + std::to_string(run + 1) + ": " + e.what() + "\n";
    }
  }
  if (ui.runs.size() == 2 && ui.lesson.twice) ui.run_to_run = compare_runs(ui.runs[0], ui.runs[1]);
  for (const DeviceAlgorithmInfo* a : lookback_algorithms()) {
    const std::string name(a->name);
    if (!ui.lesson.example.empty() || ui.lesson.twice || ui.lesson.hidden.count(name)) continue;
    try {
      ui.runs.push_back(make_lookback_run(record_device_scan(lookback_config(ui.lesson, name))));
    } catch (const std::exception& e) {
      ui.error += name + ": " + e.what() + "\n";
    }
  }
  collect_moments(ui);
  ui.record_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  ui.dirty = false;
  ++ui.generation;
  // Start where there is something to see: the paper's instant, or the middle of decoupled look-back.
  ui.time = 0;
  for (const LookbackRun& r : ui.runs) {
    if (ui.preset == "fig6" && looks_back_in_windows(r) && fig6_snapshot_time(r)) {
      ui.time = fig6_snapshot_time(r);
      ui.selected = 3;  // the paper's processor 3: a look-back window of three predecessors
      return;
    }
  }
  for (const LookbackRun& r : ui.runs) {
    if (!looks_back_in_windows(r) && ui.time != 0) continue;
    ui.time = default_lookback_time(r);
    // Select the tile that looked back furthest before that moment: its arrows say the most.
    std::size_t most = 0;
    for (const TileSummary& t : r.summary.tiles) {
      const std::size_t seen = inspections_until(r, t.tile, ui.time).size();
      if (seen > most) most = seen, ui.selected = t.tile;
    }
  }
  if (ui.preset == "deadlock" && !ui.runs.empty()) ui.time = ui.runs.front().t1;
  if (ui.run_to_run && !ui.run_to_run->moved.empty()) {  // the first tile whose look-back stopped elsewhere, once both have
    ui.selected = ui.run_to_run->moved.front();
    ui.time = 0;
    for (const LookbackRun& r : ui.runs) {
      if (static_cast<std::size_t>(ui.selected) >= r.summary.tiles.size()) continue;
      const TileSummary& t = r.summary.tiles[static_cast<std::size_t>(ui.selected)];
      if (t.p_at >= 0) ui.time = std::max(ui.time, static_cast<std::uint64_t>(t.p_at));
    }
  }
  if (ui.preset == "stale")  // the first tile that read a stale value, at the moment it read it
    for (const LookbackRun& r : ui.runs) {
      if (!looks_back_in_windows(r)) continue;
      std::uint64_t first = UINT64_MAX;
      for (const TileSummary& t : r.summary.tiles)
        for (const TileInspection& i : t.inspections)
          if (i.stale && i.time < first) first = i.time, ui.selected = t.tile, ui.time = i.time;
    }
}

bool show_in_lookback(LookbackUi& ui, const Trace& trace, const std::string& path) {
  if (trace.tile_events.empty()) return false;
  ui.runs.clear();
  ui.runs.push_back(make_lookback_run(trace));
  ui.error.clear();
  ui.dirty = false;
  ui.preset = "file " + path;
  collect_moments(ui);
  ++ui.generation;
  ui.time = default_lookback_time(ui.runs.front());
  ui.selected = -1;
  return true;
}

namespace {
std::uint64_t runs_end(const LookbackUi& ui) {
  std::uint64_t end = 0;
  for (const LookbackRun& r : ui.runs) end = std::max(end, r.t1);
  return end;
}
}  // namespace

void lookback_key(LookbackUi& ui, LookbackKey key) {
  const auto& m = ui.moments;
  switch (key) {
    case LookbackKey::PlayPause:
      if (!ui.playing && ui.time >= runs_end(ui)) ui.time = 0;
      ui.playing = !ui.playing;
      break;
    case LookbackKey::Previous: {
      auto it = std::lower_bound(m.begin(), m.end(), ui.time);
      if (it != m.begin()) ui.time = *std::prev(it);
      break;
    }
    case LookbackKey::Next: {
      auto it = std::upper_bound(m.begin(), m.end(), ui.time);
      if (it != m.end()) ui.time = *it;
      break;
    }
    case LookbackKey::Start: ui.time = 0; break;
    case LookbackKey::End: ui.time = runs_end(ui); break;
  }
}

}  // namespace sv::gui
