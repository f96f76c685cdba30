// The pipelined kernel's trace read per warp role.
#include "analysis/pipeline.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace sv {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

std::string micro(double ns) {
  char b[32];
  if (ns >= 1000) std::snprintf(b, sizeof b, "%.1f us", ns / 1000);
  else std::snprintf(b, sizeof b, "%.0f ns", ns);
  return b;
}

}  // namespace

const char* pipe_phase_name(PipePhase p) {
  static const char* names[kPipePhases] = {"copy in", "reduce", "look-back", "scan and store"};
  return names[static_cast<int>(p)];
}

const char* pipe_phase_help(PipePhase p) {
  static const char* help[kPipePhases] = {
      "from the load warp taking the tile's id and issuing its bulk copies to the last quarter landing in shared memory",
      "from the last quarter landing to the reduce warps publishing the tile's aggregate (A)",
      "from A to the look-back warp publishing the inclusive prefix (P): the descriptors before it, polled",
      "from P to the store group's first warp having stored its quarter: the handoff, the scan from registers, the stores"};
  return help[static_cast<int>(p)];
}

bool is_pipelined_trace(const Trace& trace) {
  for (const TileEvent& e : trace.tile_events)
    if (e.kind == TileEventKind::Landed || e.kind == TileEventKind::Held) return true;
  return false;
}

PipelineRun make_pipeline_run(const Trace& trace) {
  PipelineRun r;
  if (!is_pipelined_trace(trace)) return r;
  if (const auto s = trace.meta.options.find("stages"); s != trace.meta.options.end()) r.stages = std::atoi(s->second.c_str());
  int pass = -1;  // the launch with the roles' events
  std::int64_t tiles = 0;
  for (const TileEvent& e : trace.tile_events)
    if (e.kind == TileEventKind::Landed) pass = e.pass;
  for (const TileEvent& e : trace.tile_events)
    if (e.pass == pass) tiles = std::max(tiles, e.tile + 1);
  r.tiles.resize(static_cast<std::size_t>(tiles));
  for (std::int64_t t = 0; t < tiles; ++t) r.tiles[static_cast<std::size_t>(t)].tile = t;
  r.t0 = INT64_MAX;
  std::vector<const TileEvent*> events;
  for (const TileEvent& e : trace.tile_events)
    if (e.pass == pass) events.push_back(&e);
  std::stable_sort(events.begin(), events.end(), [](const TileEvent* a, const TileEvent* b) { return a->time < b->time; });
  std::map<std::uint32_t, int> taken_by;  // block -> tiles taken so far
  for (const TileEvent* e : events) {
    PipelineTile& t = r.tiles[static_cast<std::size_t>(e->tile)];
    const auto time = static_cast<std::int64_t>(e->time);
    r.t0 = std::min(r.t0, time);
    r.t1 = std::max(r.t1, time);
    switch (e->kind) {
      case TileEventKind::Start:
        t.taken = time;
        t.block = e->block;
        t.sm = e->sm;
        t.index = taken_by[e->block]++;
        break;
      case TileEventKind::Landed: t.landed = std::max(t.landed, time); break;
      case TileEventKind::Publish:
        if (e->target != e->tile) break;  // the pipelined kernel shares no P; a foreign publish is not this tile's
        if (e->flag == TileFlag::A) {
          t.aggregate = time;
        } else {
          t.inclusive = time;
          if (e->tile == 0) t.aggregate = time;  // tile 0 publishes P alone
        }
        break;
      case TileEventKind::LookBack: t.look = time; break;
      case TileEventKind::Wait: t.waits.push_back({time, -1}); break;
      case TileEventKind::Inspect:  // the first read of the poll that passed ends the wait
        if (!t.waits.empty() && t.waits.back().second < 0) t.waits.back().second = time;
        break;
      case TileEventKind::Held: t.held = time; break;
      case TileEventKind::Store: t.store = time; break;
      case TileEventKind::End: t.end = time; break;
      case TileEventKind::Record: break;
    }
  }
  if (r.t0 == INT64_MAX) r.t0 = 0;
  for (const auto& [block, count] : taken_by) r.blocks.push_back(block);
  std::array<std::vector<double>, kPipePhases> phase;
  std::vector<double> life;
  for (PipelineTile& t : r.tiles) {
    for (auto& w : t.waits)
      if (w.second < 0) w.second = t.inclusive >= 0 ? t.inclusive : r.t1;  // a wait the last poll ended
    t.complete = t.taken >= 0 && t.landed >= 0 && t.aggregate >= 0 && t.look >= 0 && t.inclusive >= 0 && t.held >= 0 &&
                 t.store >= 0 && t.end >= 0 && t.taken <= t.landed && t.landed <= t.aggregate && t.aggregate <= t.inclusive && t.inclusive <= t.end;
    if (!t.complete) continue;
    ++r.complete;
    const double at[] = {static_cast<double>(t.taken), static_cast<double>(t.landed), static_cast<double>(t.aggregate),
                         static_cast<double>(t.inclusive), static_cast<double>(t.end)};
    for (int p = 0; p < kPipePhases; ++p) phase[static_cast<std::size_t>(p)].push_back(at[p + 1] - at[p]);
    life.push_back(at[4] - at[0]);
  }
  for (int p = 0; p < kPipePhases; ++p) r.median_ns[static_cast<std::size_t>(p)] = median(phase[static_cast<std::size_t>(p)]);
  r.median_life_ns = median(life);
  return r;
}

std::vector<int> stages_in_use(const PipelineRun& run, std::uint32_t block, const std::vector<std::int64_t>& times) {
  std::vector<std::pair<std::int64_t, std::int64_t>> held;  // [taken, freed) of the block's tiles; -1: never freed
  for (const PipelineTile& t : run.tiles)
    if (t.block == block && t.taken >= 0) held.push_back({t.taken, t.held});
  std::vector<int> used;
  used.reserve(times.size());
  for (const std::int64_t time : times) {
    int n = 0;
    for (const auto& [taken, freed] : held) n += taken <= time && (freed < 0 || freed > time);
    used.push_back(n);
  }
  return used;
}

int stages_in_use(const PipelineRun& run, std::uint32_t block, std::int64_t time) {
  return stages_in_use(run, block, std::vector<std::int64_t>{time}).front();
}

std::string pipeline_summary(const PipelineRun& run) {
  if (run.complete == 0) return "no tile has every warp role's event";
  std::string s = "a tile's median life " + micro(run.median_life_ns) + ":";
  for (int p = 0; p < kPipePhases; ++p) {
    const double ns = run.median_ns[static_cast<std::size_t>(p)];
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%.0f%%)", run.median_life_ns > 0 ? 100 * ns / run.median_life_ns : 0.0);
    s += std::string(p ? "," : "") + " " + pipe_phase_name(static_cast<PipePhase>(p)) + " " + micro(ns) + pct;
  }
  s += " (medians of " + std::to_string(run.complete) + " tiles)";
  return s;
}

}  // namespace sv
