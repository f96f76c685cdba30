#include "analysis/block_races.hpp"

#include <algorithm>
#include <charconv>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/pause.hpp"

namespace sv {

std::vector<std::uint32_t> launch_first_blocks(const TraceMeta& meta) {
  std::vector<std::uint32_t> first;
  const auto it = meta.options.find("launch_blocks");
  if (it != meta.options.end()) {
    const std::string& s = it->second;
    for (std::size_t at = 0; at < s.size();) {
      const std::size_t end = std::min(s.find(',', at), s.size());
      std::uint32_t b = 0;
      if (std::from_chars(s.data() + at, s.data() + end, b).ec == std::errc{} && (first.empty() || b > first.back())) first.push_back(b);
      at = end + 1;
    }
  }
  if (first.empty() || first.front() != 0) first.insert(first.begin(), 0);
  return first;
}

namespace {

// An access as the analysis keeps it: its event and its block's fence count when it happened.
struct Access {
  std::uint64_t seq = 0;
  std::uint32_t block = 0;
  std::uint32_t fences = 0;
  bool atomic = false;
  bool set = false;
};

struct Cell {
  Access write;  // the last write
  Access read;   // the last read since it, by a block other than its writer's
};

}  // namespace

std::vector<Hazard> find_block_races(const Trace& trace) {
  std::vector<Hazard> hazards;
  if (trace.meta.grid < 2) return hazards;
  const std::vector<std::uint32_t> launches = launch_first_blocks(trace.meta);
  const auto launch_of = [&](std::uint32_t block) { return std::upper_bound(launches.begin(), launches.end(), block) - launches.begin(); };

  std::unordered_map<std::uint32_t, std::uint32_t> fences;  // block -> __threadfence() calls so far
  // (block, other) -> the most of other's fences block has seen through a flag or an atomic: every
  // access `other` made before that many fences happened before block's accesses from now on.
  std::unordered_map<std::uint64_t, std::uint32_t> seen;
  std::unordered_map<std::uint64_t, Cell> cells;
  std::set<std::tuple<HazardKind, int, std::uint32_t, std::uint32_t, bool>> reported;
  const auto pair = [](std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} << 32 | b; };
  const auto ordered = [&](const Access& earlier, std::uint32_t later_block) {
    const auto it = seen.find(pair(later_block, earlier.block));
    return it != seen.end() && it->second > earlier.fences;
  };
  const auto acquire = [&](std::uint32_t block, const Access& w) {
    std::uint32_t& s = seen[pair(block, w.block)];
    s = std::max(s, w.fences);
  };
  const auto report = [&](HazardKind kind, const Access& first, const Event& second) {
    const Event& a = trace.events[first.seq];
    if (!reported.insert({kind, second.buffer, a.line, second.line, a.block < second.block}).second || hazards.size() >= 64) return;
    Hazard h;
    h.kind = kind;
    h.block = second.block;
    h.buffer = second.buffer;
    h.index = second.index;
    h.step = step_of_event(trace, second.seq);
    h.between_blocks = true;
    h.first = HazardAccess{a.seq, a.block, a.thread, a.line, a.kind == EventKind::Write, a.value};
    h.second = HazardAccess{second.seq, second.block, second.thread, second.line, second.kind == EventKind::Write, second.value};
    hazards.push_back(h);
  };

  std::size_t work = 0;
  for (const Event& e : trace.events) {
    if (++work > kPauseEvery) {  // a time-sliced check gives the thread back (core/pause.hpp)
      work = 0;
      pause_point();
    }
    if (e.kind == EventKind::Fence) {
      ++fences[e.block];
      continue;
    }
    if ((e.kind != EventKind::Read && e.kind != EventKind::Write) || e.buffer >= trace.buffers.size() ||
        trace.buffers[e.buffer].space != Space::Global)
      continue;
    Cell& cell = cells[std::uint64_t{e.buffer} << 40 | static_cast<std::uint64_t>(e.index)];
    const Access now{e.seq, e.block, fences[e.block], e.atomic, true};
    const Access& w = cell.write;
    const bool other_block = w.set && w.block != e.block && launch_of(w.block) == launch_of(e.block);
    // What the access read (a read, or an atomic's old value): the last write, another block's.
    if (other_block && (e.kind == EventKind::Read || e.atomic) && !ordered(w, e.block)) {
      if ((w.atomic && e.atomic) || w.fences > 0) acquire(e.block, w);  // a ticket, or a flag raised after a fence
      else report(HazardKind::RAW, w, e);
    }
    if (e.kind == EventKind::Read) {
      if (!w.set || w.block != e.block) cell.read = now;
      continue;
    }
    if (other_block && !(w.atomic && e.atomic) && !ordered(w, e.block)) report(HazardKind::WAW, w, e);
    const Access& r = cell.read;
    if (r.set && r.block != e.block && launch_of(r.block) == launch_of(e.block) && !e.atomic && !ordered(r, e.block))
      report(HazardKind::WAR, r, e);
    cell.write = now;
    cell.read = Access{};
  }
  return hazards;
}

}  // namespace sv
