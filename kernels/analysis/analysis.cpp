// Analyses of a Trace: metrics, hazards, dataflow edges, correctness.
#include "analysis/analysis.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "analysis/block_races.hpp"
#include "core/pause.hpp"
#include "core/values.hpp"

namespace sv {

namespace {
bool is_access(const Event& e) { return e.kind == EventKind::Read || e.kind == EventKind::Write; }
}  // namespace

// ---- metrics ----

std::string thread_ranges(const std::vector<std::uint32_t>& ids, std::string_view separator, std::string_view dash) {
  std::string out;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!out.empty()) out += separator;
    out += std::to_string(ids[i]);
    if (j > i) {
      out += dash;
      out += std::to_string(ids[j]);
    }
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

std::optional<std::uint32_t> step_block(const Trace& trace, std::size_t step) {
  if (!blocks_one_after_another(trace.meta) || step >= trace.steps.size()) return std::nullopt;
  const Step& s = trace.steps[step];
  if (s.first_event >= s.end_event || s.first_event >= trace.events.size()) return std::nullopt;
  return trace.events[s.first_event].block;
}

int step_of_event(const Trace& trace, std::uint64_t seq) {
  auto it = std::upper_bound(trace.steps.begin(), trace.steps.end(), seq,
                             [](std::uint64_t s, const Step& st) { return s < st.first_event; });
  if (it == trace.steps.begin()) return -1;
  --it;
  return seq < it->end_event ? static_cast<int>(it - trace.steps.begin()) : -1;
}

std::vector<std::uint32_t> active_threads(const Trace& trace, std::size_t step) {
  std::vector<std::uint32_t> ops, writers;
  const Step& s = trace.steps.at(step);
  for (std::uint64_t i = s.first_event; i < s.end_event && i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    if (e.kind == EventKind::Op) ops.push_back(e.thread);
    else if (e.kind == EventKind::Write) writers.push_back(e.thread);
  }
  auto& chosen = ops.empty() ? writers : ops;
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

Metrics compute_metrics(const Trace& trace) {
  Metrics m;
  m.per_buffer.resize(trace.buffers.size());
  m.per_step.resize(trace.steps.size());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> barriers_by_thread;
  for (const Event& e : trace.events) {
    if (e.kind == EventKind::Op) ++m.operations;
    if (e.kind == EventKind::Barrier) ++barriers_by_thread[{e.block, e.thread}];
    if (is_access(e) && e.buffer < m.per_buffer.size())
      ++(e.kind == EventKind::Read ? m.per_buffer[e.buffer].reads : m.per_buffer[e.buffer].writes);
  }
  for (const auto& [key, count] : barriers_by_thread) m.barriers = std::max(m.barriers, count);
  std::map<std::uint32_t, std::int64_t> steps_of_block;  // blocks one after another: each block's own depth
  for (std::size_t k = 0; k < trace.steps.size(); ++k) {
    const Step& s = trace.steps[k];
    StepMetrics& sm = m.per_step[k];
    for (std::uint64_t i = s.first_event; i < s.end_event && i < trace.events.size(); ++i) {
      const Event& e = trace.events[i];
      sm.operations += e.kind == EventKind::Op;
      sm.reads += e.kind == EventKind::Read;
      sm.writes += e.kind == EventKind::Write;
    }
    sm.active_threads = static_cast<std::int64_t>(active_threads(trace, k).size());
    if (sm.operations > 0) ++steps_of_block[step_block(trace, k).value_or(0)];
  }
  // Each launch's depth is its deepest block's (its blocks run at once on a GPU); a host run's
  // launches run one after another, so their depths add.
  const std::vector<std::uint32_t> firsts = launch_first_blocks(trace.meta);
  std::vector<std::int64_t> launch_depth(firsts.size(), 0);
  for (const auto& [block, steps] : steps_of_block) {
    const auto launch = static_cast<std::size_t>(std::upper_bound(firsts.begin(), firsts.end(), block) - firsts.begin());
    std::int64_t& d = launch_depth[launch > 0 ? launch - 1 : 0];
    d = std::max(d, steps);
  }
  for (const std::int64_t d : launch_depth) m.steps += d;
  return m;
}

// ---- hazards ----

std::string_view hazard_kind_name(HazardKind k) {
  static constexpr std::array<std::string_view, 3> names = {"RAW", "WAR", "WAW"};
  return names.at(static_cast<std::size_t>(k));
}

std::vector<Hazard> find_hazards(const Trace& trace, bool global) {
  // Replays the events: each thread's barrier count is its barrier interval; per (block, interval,
  // buffer, index) the reads and writes so far, and the value the cell had when the interval began.
  struct CellState {
    std::vector<std::uint64_t> reads, writes;  // event seqs
    bool written = false;
    Payload start_value;
  };
  using Key = std::tuple<std::uint32_t, std::int64_t, int, std::int64_t>;  // block, interval, buffer, index
  // Hashed, not ordered: nothing iterates them, and walking trees per access was most of the time
  // the window takes to show a recording of n = 1024.
  struct KeyHash {
    std::size_t operator()(const Key& k) const {
      const auto [block, interval, buffer, index] = k;
      std::uint64_t h = static_cast<std::uint64_t>(index) * 0x9e3779b97f4a7c15ULL;
      h ^= (static_cast<std::uint64_t>(interval) << 40) ^ (static_cast<std::uint64_t>(block) << 8) ^ static_cast<std::uint64_t>(buffer);
      return static_cast<std::size_t>(h ^ (h >> 29));
    }
  };
  std::unordered_map<Key, CellState, KeyHash> cells;
  cells.reserve(trace.events.size());
  auto pair_key = [](std::uint32_t block, std::uint32_t k) { return std::uint64_t{block} << 32 | k; };
  std::unordered_map<std::uint64_t, std::int64_t> interval_of;         // pair_key(block, thread)
  std::unordered_map<std::uint64_t, std::vector<Payload>> memory;  // pair_key(block, buffer): shadow
  std::set<std::tuple<Key, HazardKind, std::uint32_t, std::uint32_t>> reported;
  std::vector<Hazard> hazards;
  const std::uint32_t warp_width = static_cast<std::uint32_t>(trace.meta.warp_width());

  auto access_of = [&](const Event& e) {
    return HazardAccess{e.seq, e.block, e.thread, e.line, e.kind == EventKind::Write, e.value};
  };
  // A write and a read: RAW when the read saw the written value, WAR when it saw the value from
  // before the interval. Only when the values cannot tell (equal) does the trace order decide: on a
  // GPU the order of appended events need not be the order in which the accesses took effect.
  auto report = [&](const Key& key, const Event& a, const Event& b, const CellState& cell) {
    const Event* first = &a;
    const Event* second = &b;
    HazardKind kind = HazardKind::WAW;
    if (a.kind != b.kind) {
      const Event& w = a.kind == EventKind::Write ? a : b;
      const Event& r = a.kind == EventKind::Write ? b : a;
      const bool saw_write = r.value == w.value, saw_old = r.value == cell.start_value;
      const bool read_first = saw_write != saw_old ? saw_old : &r == &a;
      kind = read_first ? HazardKind::WAR : HazardKind::RAW;
      first = read_first ? &r : &w;
      second = read_first ? &w : &r;
    }
    if (!reported.insert({key, kind, first->thread, second->thread}).second) return;
    Hazard h;
    h.kind = kind;
    h.block = second->block;
    h.buffer = second->buffer;
    h.index = second->index;
    h.step = step_of_event(trace, std::max(first->seq, second->seq));
    h.same_warp = first->thread / warp_width == second->thread / warp_width;
    h.first = access_of(*first);
    h.second = access_of(*second);
    if (kind == HazardKind::RAW) {
      h.has_expected = true;
      h.expected = cell.start_value;
    }
    hazards.push_back(h);
  };

  // A race trace of a 1024-thread block compares many accesses a cell: a time-sliced check may give
  // the thread back every few thousand of them (core/pause.hpp).
  std::size_t work = 0;
  for (const Event& e : trace.events) {
    if (work > kPauseEvery) {
      work = 0;
      pause_point();
    }
    ++work;
    if (e.kind == EventKind::Barrier) {
      ++interval_of[pair_key(e.block, e.thread)];
      continue;
    }
    if (!is_access(e) || e.buffer >= trace.buffers.size() || (trace.buffers[e.buffer].space != Space::Shared && !global)) continue;
    const Key key{e.block, interval_of[pair_key(e.block, e.thread)], e.buffer, e.index};
    CellState& cell = cells[key];
    auto& mem = memory[pair_key(e.block, e.buffer)];
    if (mem.size() < static_cast<std::size_t>(trace.buffers[e.buffer].length))
      mem.resize(static_cast<std::size_t>(trace.buffers[e.buffer].length));
    // Two atomic read-modify-writes of one cell are no race (each sees the other's whole update);
    // an atomic against a plain read or write still is one.
    work += cell.writes.size();
    for (std::uint64_t w : cell.writes)
      if (trace.events[w].thread != e.thread && !(e.atomic && trace.events[w].atomic)) report(key, trace.events[w], e, cell);
    if (e.kind == EventKind::Write) {
      work += cell.reads.size();
      for (std::uint64_t r : cell.reads)
        if (trace.events[r].thread != e.thread) report(key, trace.events[r], e, cell);
      if (!cell.written) {
        cell.written = true;
        cell.start_value = mem[e.index];
      }
      mem[e.index] = e.value;
      cell.writes.push_back(e.seq);
    } else {
      if (!cell.written) cell.start_value = e.value;
      cell.reads.push_back(e.seq);
    }
  }
  return hazards;
}

std::string describe_hazard(const Trace& t, const Hazard& h, bool lines) {
  const std::string& buf = t.buffers[h.buffer].name;
  const std::string cell = buf + "[" + std::to_string(h.index) + "]";
  auto val = [&](const Payload& p) { return format_value(t.meta.type, p); };
  auto at = [&](const HazardAccess& a) { return lines ? " (line " + std::to_string(a.line) + ")" : std::string(); };
  // Between blocks each thread is named with its block: "thread 255 of block 0".
  auto of = [&](const HazardAccess& a) { return h.between_blocks ? " of block " + std::to_string(a.block) : std::string(); };
  std::ostringstream s;
  s << hazard_kind_name(h.kind) << " " << cell << ": ";
  switch (h.kind) {
    case HazardKind::RAW:
      s << "thread " << h.first.thread << of(h.first) << " wrote " << val(h.first.value) << at(h.first) << ", then thread "
        << h.second.thread << of(h.second) << " read it" << at(h.second);
      if (h.has_expected) s << " instead of " << val(h.expected);
      break;
    case HazardKind::WAR:
      s << "thread " << h.first.thread << of(h.first) << " read " << val(h.first.value) << at(h.first) << ", then thread "
        << h.second.thread << of(h.second) << " overwrote it with " << val(h.second.value) << at(h.second);
      break;
    case HazardKind::WAW:
      s << "threads " << h.first.thread << of(h.first) << " and " << h.second.thread << of(h.second) << " both wrote it";
      if (lines) s << " (lines " << h.first.line << " and " << h.second.line << ")";
      break;
  }
  if (h.between_blocks) s << " [between blocks: no __threadfence() and flag between]";
  if (h.same_warp) s << " [same warp]";
  return s.str();
}

// ---- dataflow ----

std::string_view edge_role_name(EdgeRole r) {
  static constexpr std::array<std::string_view, 3> names = {"left", "right", "copy"};
  return names.at(static_cast<std::size_t>(r));
}

std::vector<Edge> dataflow_edges(const Trace& trace) {
  std::vector<Edge> edges;
  // Appends the cells an origin stands for; an operand that is itself an operator result stands for
  // that result's operands (a chain like (a ⊕ b) ⊕ c held in a register).
  auto add = [&](auto& self, const Origin& o, const Event& write, EdgeRole role, int depth) -> void {
    if (o.kind == Origin::Cell) {
      Edge edge;
      edge.step = step_of_event(trace, write.seq);
      edge.thread = write.thread;
      edge.role = role;
      edge.from_buffer = o.buffer;
      edge.from_index = o.index;
      edge.to_buffer = write.buffer;
      edge.to_index = write.index;
      edge.write_seq = write.seq;
      edges.push_back(edge);
    } else if (o.kind == Origin::OpResult && depth < 64 && o.index >= 0 &&
               static_cast<std::uint64_t>(o.index) < trace.events.size()) {
      const Event& op = trace.events[o.index];
      if (op.kind != EventKind::Op) return;
      self(self, op.a, write, role == EdgeRole::Copy ? EdgeRole::Left : role, depth + 1);
      self(self, op.b, write, role == EdgeRole::Copy ? EdgeRole::Right : role, depth + 1);
    }
  };
  for (const Event& e : trace.events)
    if (e.kind == EventKind::Write) add(add, e.a, e, EdgeRole::Copy, 0);
  return edges;
}

// ---- correctness ----

Correctness check_result(const Trace& trace) {
  Correctness c;
  const std::vector<std::uint8_t> heads = judged_heads(trace.meta);  // a segmented scan's, or a kernel's block sections
  c.reference = reference_scan(trace.meta.op, trace.meta.type, trace.meta.input, trace.meta.exclusive, heads);
  c.wrong = mismatches(trace.meta.op, trace.meta.type, trace.meta.input, trace.meta.exclusive, c.reference,
                       trace.result.output, heads);
  c.outcome = trace.result.outcome == Outcome::Deadlock ? Outcome::Deadlock  // the run never finished
              : c.wrong.empty()                           ? Outcome::Correct
                                                          : Outcome::Wrong;
  return c;
}

}  // namespace sv
