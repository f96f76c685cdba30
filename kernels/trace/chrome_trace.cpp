// Trace -> Chrome Trace Event Format. Tile traces on device lanes, the others on thread lanes.
#include "trace/chrome_trace.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/values.hpp"

namespace sv {

namespace {

using json = nlohmann::json;

// Events at one ts: spans first, the longer first (a parent opens before its children), then the
// instants and flows, which bind to spans already open.
enum Rank { kSpan = 0, kInstant = 1, kFlow = 2 };

struct Entry {
  double ts = 0;
  Rank rank = kSpan;
  double dur = 0;
  json event;
};

class Writer {
 public:
  void span(int pid, int tid, double ts, double dur, std::string name, std::string cat, json args) {
    add({ts, kSpan, dur,
         {{"ph", "X"}, {"name", std::move(name)}, {"cat", std::move(cat)}, {"pid", pid}, {"tid", tid}, {"ts", ts},
          {"dur", dur}, {"args", std::move(args)}}});
  }
  void instant(int pid, int tid, double ts, std::string name, std::string cat, json args) {
    add({ts, kInstant, 0,
         {{"ph", "i"}, {"s", "t"}, {"name", std::move(name)}, {"cat", std::move(cat)}, {"pid", pid}, {"tid", tid},
          {"ts", ts}, {"args", std::move(args)}}});
  }
  // A flow from the span enclosing `from` to the one enclosing `to` (bp "e": enclosing, not next).
  void flow(int id, std::pair<int, int> from, double from_ts, std::pair<int, int> to, double to_ts, std::string name,
            std::string cat) {
    add({from_ts, kFlow, 0,
         {{"ph", "s"}, {"id", id}, {"name", name}, {"cat", cat}, {"pid", from.first}, {"tid", from.second}, {"ts", from_ts}}});
    add({to_ts, kFlow, 0,
         {{"ph", "f"}, {"bp", "e"}, {"id", id}, {"name", std::move(name)}, {"cat", std::move(cat)}, {"pid", to.first},
          {"tid", to.second}, {"ts", to_ts}}});
  }
  // A process's metadata has no tid: there is no tid 0 to give it.
  void name_process(int pid, const std::string& name) {
    meta_.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", pid}, {"args", {{"name", name}}}});
    meta_.push_back({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", pid}, {"args", {{"sort_index", pid}}}});
  }
  void name_thread(int pid, int tid, const std::string& name, int sort_index) {
    meta_.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", pid}, {"tid", tid}, {"args", {{"name", name}}}});
    meta_.push_back(
        {{"ph", "M"}, {"name", "thread_sort_index"}, {"pid", pid}, {"tid", tid}, {"args", {{"sort_index", sort_index}}}});
  }

  json finish(const char* display_unit, json other) {
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.ts != b.ts) return a.ts < b.ts;
      if (a.rank != b.rank) return a.rank < b.rank;
      return a.dur > b.dur;
    });
    json events = json::array();
    for (json& m : meta_) events.push_back(std::move(m));
    for (Entry& e : entries_) events.push_back(std::move(e.event));
    return {{"traceEvents", std::move(events)}, {"displayTimeUnit", display_unit}, {"otherData", std::move(other)}};
  }

 private:
  void add(Entry e) { entries_.push_back(std::move(e)); }
  std::vector<Entry> entries_;
  std::vector<json> meta_;
};

std::string executor_text(const Trace& t) {
  if (t.meta.executor.kind == "gpu") return "GPU " + t.meta.executor.device;
  return "CPU emulator";
}

json other_data(const Trace& t, const std::string& clock) {
  return {{"source", "scanviz"},
          {"algorithm", t.meta.algorithm},
          {"n", std::to_string(t.meta.n)},
          {"executor", executor_text(t)},
          {"outcome", std::string(outcome_name(t.result.outcome))},
          {"clock", clock}};
}

// ---- device-wide traces: tiles on (multiprocessor, slot) lanes -------------------------------------

struct Tile {
  std::uint16_t pass = 0;
  std::int64_t tile = 0;
  std::uint32_t block = 0;
  std::uint16_t sm = 0;
  std::uint64_t start = 0, end = 0;
  bool started = false, ended = false;
  int tid = 0;
  std::vector<const TileEvent*> events;  // in time order
};

using TileKey = std::pair<std::uint16_t, std::int64_t>;  // (pass, tile)

std::string tile_instant_name(const TileEvent& e) {
  const std::string flag(tile_flag_name(e.flag));
  switch (e.kind) {
    case TileEventKind::Publish:
      return "publish " + flag + (e.target == e.tile ? "" : " in tile " + std::to_string(e.target) + "'s descriptor");
    case TileEventKind::Inspect: return "inspect tile " + std::to_string(e.target) + ": " + flag;
    case TileEventKind::Record: return "record " + flag + " value";
    case TileEventKind::Landed: return "landed (reduce warp)";
    case TileEventKind::Held: return "held (store group)";
    case TileEventKind::Start:
    case TileEventKind::LookBack:
    case TileEventKind::Store:
    case TileEventKind::Wait:
    case TileEventKind::End: break;
  }
  return std::string(tile_event_kind_name(e.kind));
}

// What happens inside a tile's span. The pipelined kernel's look-back warp ([its LookBack, the
// tile's P]) and store group ([Store, End]) are spans nested in the tile, one after the other; the
// look-back's waits nest in the look-back warp's span, or in the tile's in the other kernels. The
// remaining events are instants: the reduce warps' quarters overlap the look-back warp, so they
// cannot nest as spans on one lane.
template <class TsOf>
void tile_contents(Writer& w, const Trace& t, const Tile& tile, int pid, const TsOf& ts_of) {
  std::optional<std::uint64_t> look, inclusive, store;
  for (const TileEvent* e : tile.events) {
    if (e->kind == TileEventKind::LookBack && !look) look = e->time;
    if (e->kind == TileEventKind::Store && !store) store = e->time;
    if (e->kind == TileEventKind::Publish && e->flag == TileFlag::P && e->target == tile.tile && !inclusive)
      inclusive = e->time;
  }
  const json ids = {{"tile", tile.tile}, {"pass", tile.pass}};
  const auto span = [&](std::uint64_t from, std::uint64_t to, std::string name, std::string cat, json args) {
    w.span(pid, tile.tid, ts_of(from), ts_of(to) - ts_of(from), std::move(name), std::move(cat), std::move(args));
  };
  std::uint64_t wait_lo = tile.start, wait_hi = tile.end;  // where the waits nest
  if (look) {
    wait_lo = std::clamp(*look, tile.start, tile.end);
    wait_hi = std::clamp(inclusive.value_or(tile.end), wait_lo, tile.end);
    span(wait_lo, wait_hi, "look-back warp", "warp role", ids);
  }
  if (store) {
    const std::uint64_t from = std::clamp(*store, look ? wait_hi : tile.start, tile.end);
    span(from, tile.end, "store group", "warp role", ids);
  }
  // A wait lasts from its Wait event to the tile's next inspection (the poll that passed).
  std::optional<std::uint64_t> began;
  std::int64_t target = -1;
  const auto close_wait = [&](std::uint64_t at) {
    const std::uint64_t from = std::clamp(*began, wait_lo, wait_hi);
    json args = ids;
    args["target"] = target;
    span(from, std::clamp(at, from, wait_hi), "wait on tile " + std::to_string(target), "look-back", std::move(args));
    began.reset();
  };
  for (const TileEvent* e : tile.events) {
    switch (e->kind) {
      case TileEventKind::Wait:
        if (!began) {
          began = e->time;
          target = e->target;
        }
        continue;
      case TileEventKind::Start:
      case TileEventKind::End:
      case TileEventKind::LookBack:
      case TileEventKind::Store: continue;  // a span's ends
      case TileEventKind::Inspect:
        if (began) close_wait(e->time);
        break;
      default: break;
    }
    json a = ids;
    a["time"] = e->time;
    if (tile_event_has_target(e->kind)) a["target"] = e->target;
    if (e->kind == TileEventKind::Publish || e->kind == TileEventKind::Inspect || e->kind == TileEventKind::Record)
      a["flag"] = std::string(tile_flag_name(e->flag));
    if (tile_event_has_value(e->kind)) a["value"] = format_value(t.meta.type, e->value);
    if (e->kind == TileEventKind::Inspect) a["spins"] = e->spins;
    w.instant(pid, tile.tid, ts_of(e->time), tile_instant_name(*e), "tile event", std::move(a));
  }
  if (began) close_wait(wait_hi);
}

json device_trace(const Trace& t) {
  const bool gpu = t.meta.executor.kind == "gpu";
  std::uint64_t t0 = UINT64_MAX;
  for (const TileEvent& e : t.tile_events) t0 = std::min(t0, e.time);
  // GPU times are %globaltimer nanoseconds near 2^60: rebased, or a double in us would keep none.
  const auto ts_of = [&](std::uint64_t time) {
    return gpu ? static_cast<double>(time - t0) / 1000.0 : static_cast<double>(time);
  };

  std::map<TileKey, Tile> tiles;
  for (const TileEvent& e : t.tile_events) {
    Tile& tile = tiles[{e.pass, e.tile}];
    tile.pass = e.pass;
    tile.tile = e.tile;
    tile.events.push_back(&e);
  }
  for (auto& [key, tile] : tiles) {
    std::stable_sort(tile.events.begin(), tile.events.end(),
                     [](const TileEvent* a, const TileEvent* b) { return a->time < b->time; });
    tile.block = tile.events.front()->block;
    tile.sm = tile.events.front()->sm;
    for (const TileEvent* e : tile.events) {
      if (e->kind == TileEventKind::Start && !tile.started) {
        tile.started = true;
        tile.start = e->time;
        tile.block = e->block;
        tile.sm = e->sm;
      } else if (e->kind == TileEventKind::End) {
        tile.ended = true;
        tile.end = e->time;
      }
    }
    // A tile that never started or ended (a deadlock) spans the events it has.
    if (!tile.started) tile.start = tile.events.front()->time;
    if (!tile.ended) tile.end = std::max(tile.start, tile.events.back()->time);
  }

  // Each multiprocessor's tiles in start order, each on the first of its slots free by then.
  std::map<std::uint16_t, std::vector<Tile*>> by_sm;
  for (auto& [key, tile] : tiles) by_sm[tile.sm].push_back(&tile);
  Writer w;
  const int pid = 1;
  w.name_process(pid, gpu ? "GPU " + t.meta.executor.device : "CPU emulator (simulated multiprocessors)");
  int lanes = 0;
  for (auto& [sm, list] : by_sm) {
    std::stable_sort(list.begin(), list.end(), [](const Tile* a, const Tile* b) { return a->start < b->start; });
    std::vector<std::uint64_t> free_at;
    std::vector<int> slot_tid;
    for (Tile* tile : list) {
      std::size_t slot = 0;
      while (slot < free_at.size() && free_at[slot] > tile->start) ++slot;
      if (slot == free_at.size()) {
        free_at.push_back(0);
        slot_tid.push_back(++lanes);
        w.name_thread(pid, lanes, "SM " + std::to_string(sm) + " slot " + std::to_string(slot), lanes);
      }
      free_at[slot] = tile->end;
      tile->tid = slot_tid[slot];
    }
  }

  const auto launch = [&](std::uint16_t pass) {
    return pass < t.steps.size() ? t.steps[pass].label() : "launch " + std::to_string(pass);
  };
  const bool passes = t.steps.size() > 1;
  for (const auto& [key, tile] : tiles) {
    const double start = ts_of(tile.start), end = ts_of(tile.end);
    json args = {{"tile", tile.tile}, {"pass", tile.pass}, {"launch", launch(tile.pass)}, {"block", tile.block},
                 {"sm", tile.sm},     {"start", tile.start}, {"end", tile.end}, {"ended", tile.ended}};
    w.span(pid, tile.tid, start, end - start,
           (passes ? launch(tile.pass) + ": tile " : "tile ") + std::to_string(tile.tile), "tile", std::move(args));
    tile_contents(w, t, tile, pid, ts_of);
  }

  // Flows: an inspection that saw A or P read what the first publish of that flag in that
  // descriptor stored; the arrow runs from the publish to the read, the way the value went.
  std::map<std::tuple<std::uint16_t, std::int64_t, TileFlag>, const TileEvent*> first_publish;
  for (const TileEvent& e : t.tile_events)
    if (e.kind == TileEventKind::Publish) {
      const TileEvent*& p = first_publish[{e.pass, e.target, e.flag}];
      if (!p || e.time < p->time) p = &e;
    }
  int flow_id = 0;
  for (const auto& [key, tile] : tiles)
    for (const TileEvent* e : tile.events) {
      if (e->kind != TileEventKind::Inspect || e->flag == TileFlag::X) continue;
      const auto p = first_publish.find({e->pass, e->target, e->flag});
      if (p == first_publish.end() || p->second->time > e->time) continue;  // no publish before the read to point at
      const Tile& writer = tiles.at({p->second->pass, p->second->tile});
      w.flow(++flow_id, {pid, writer.tid}, ts_of(p->second->time), {pid, tile.tid}, ts_of(e->time),
             "tile " + std::to_string(e->target) + " " + std::string(tile_flag_name(e->flag)) + " read by tile " +
                 std::to_string(tile.tile),
             "look-back");
    }

  return w.finish(gpu ? "ns" : "ms",
                  other_data(t, gpu ? "GPU %globaltimer, in us since the first tile event (" + std::to_string(t0) + " ns)"
                                    : "emulator cycles, one cycle written as 1 us"));
}

// ---- other traces: threads on the step clock -------------------------------------------------------

json thread_trace(const Trace& t) {
  struct Work {
    int reads = 0, writes = 0, ops = 0, atomics = 0;
  };
  using Thread = std::pair<std::uint32_t, std::uint32_t>;  // (block, thread)
  std::vector<std::map<Thread, Work>> work(t.steps.size());
  std::vector<std::pair<std::size_t, const Event*>> barriers;  // (step, arrival), and fences
  std::map<std::uint32_t, std::uint32_t> threads;              // block -> its highest thread + 1
  for (std::size_t k = 0; k < t.steps.size(); ++k) {
    const std::uint64_t end = std::min<std::uint64_t>(t.steps[k].end_event, t.events.size());
    for (std::uint64_t i = t.steps[k].first_event; i < end; ++i) {
      const Event& e = t.events[i];
      threads[e.block] = std::max(threads[e.block], e.thread + 1);
      if (e.kind == EventKind::Barrier || e.kind == EventKind::Fence) {
        barriers.push_back({k, &e});
        continue;
      }
      Work& x = work[k][{e.block, e.thread}];
      x.reads += e.kind == EventKind::Read;
      x.writes += e.kind == EventKind::Write;
      x.ops += e.kind == EventKind::Op;
      x.atomics += e.atomic;
    }
  }
  // tids number the threads of all blocks one after another, so no tid is used in two processes
  // (viewers may take a tid for one thread wherever it appears); the names say block and thread.
  std::map<std::uint32_t, int> first_tid;
  int next = 1;
  for (const auto& [block, count] : threads) {
    first_tid[block] = next;
    next += static_cast<int>(count);
  }
  const auto lane = [&](std::uint32_t block, std::uint32_t thread) {
    return std::pair{static_cast<int>(block) + 1, first_tid.at(block) + static_cast<int>(thread)};
  };
  Writer w;
  std::set<Thread> used;
  for (std::size_t k = 0; k < work.size(); ++k)
    for (const auto& [thread, x] : work[k]) {
      used.insert(thread);
      json args = {{"block", thread.first}, {"thread", thread.second}, {"step", k}, {"line", t.steps[k].line},
                   {"reads", x.reads}, {"writes", x.writes}, {"ops", x.ops}};
      if (x.atomics) args["atomics"] = x.atomics;
      const auto [pid, tid] = lane(thread.first, thread.second);
      w.span(pid, tid, static_cast<double>(k), 1.0, t.steps[k].label(), std::string(phase_name(t.steps[k].phase)),
             std::move(args));
    }
  for (const auto& [k, e] : barriers) {
    used.insert({e->block, e->thread});
    const auto [pid, tid] = lane(e->block, e->thread);
    // A barrier ends its step; a fence (its writes seen by other blocks before its later ones) is inside it.
    const bool fence = e->kind == EventKind::Fence;
    w.instant(pid, tid, static_cast<double>(k) + (fence ? 0.5 : 1.0), fence ? "__threadfence" : "__syncthreads", fence ? "fence" : "barrier",
              {{"block", e->block}, {"thread", e->thread}, {"step", k}, {"line", e->line}, {"seq", e->seq}});
  }
  const auto warp = static_cast<std::uint32_t>(std::max(1, t.meta.warp_width()));
  for (const auto& [block, thread] : used) {
    const auto [pid, tid] = lane(block, thread);
    if (thread == used.lower_bound({block, 0})->second)
      w.name_process(pid, "block " + std::to_string(block) + " (" + executor_text(t) + ")");
    w.name_thread(pid, tid, "thread " + std::to_string(thread) + " (warp " + std::to_string(thread / warp) + ")",
                  static_cast<int>(thread) + 1);
  }
  return w.finish("ms", other_data(t, "steps: step k is [k, k + 1) us; the trace's steps have no wall time"));
}

}  // namespace

nlohmann::json chrome_trace(const Trace& trace) {
  return trace.tile_events.empty() ? thread_trace(trace) : device_trace(trace);
}

}  // namespace sv
