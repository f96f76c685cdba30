// The CPU emulator of device-wide scans: the scheduler of blocks on simulated multiprocessors, the
// descriptors' memory model and the deadlock detector.
#include "emulator/device_emulator.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "core/limits.hpp"

namespace sv {


namespace {
constexpr std::size_t kFiberStack = 64 * 1024;
}

// ---- EmuTileExec ----

std::int64_t EmuTileExec::block() const { return emu_->slots_[slot_].id; }

std::int64_t EmuTileExec::take_tile(const DeviceParams& p, const DeviceBuffers&) {
  emu_->yield(slot_);  // the counter is shared: take it in clock order
  auto& b = emu_->slots_[slot_];
  b.tile = p.dynamic_ids ? emu_->counter_++ : b.id;
  emu_->record(slot_, TileEventKind::Start, -1);
  b.clock += emu_->round_trip();  // the atomic's round trip
  b.clock += emu_->stall_cycles(b.tile, TileStall::At::Start);
  return b.tile;
}

void EmuTileExec::start_tile(std::int64_t tile) {
  emu_->slots_[slot_].tile = tile;
  emu_->record(slot_, TileEventKind::Start, -1);
}

void EmuTileExec::end_tile(std::int64_t) { emu_->record(slot_, TileEventKind::End, -1); }

bool EmuTileExec::spin(std::int64_t, const DeviceParams&) {
  auto& b = emu_->slots_[slot_];
  if (!b.waited) {
    TileEvent& e = emu_->record(slot_, TileEventKind::Wait, b.wait_target);
    e.time = b.last_read;
    e.flag = b.wait_flag;
    b.waited = true;
  }
  b.state = DeviceEmulator::State::Waiting;
  b.last_poll = b.last_read;
  ++b.spins;
  b.clock += static_cast<std::uint64_t>(emu_->machine_.latency);  // poll again after a round trip
  emu_->yield(slot_);
  return true;
}

Payload EmuTileExec::read(const Buf& buf, std::int64_t i) {
  auto& e = *emu_;
  if (buf.id < 0 || buf.id >= static_cast<int>(e.values_.size()) || i < 0 ||
      i >= static_cast<std::int64_t>(e.values_[buf.id].size()))
    throw EmulationError("block " + std::to_string(block()) + ": read out of bounds at element " + std::to_string(i));
  if (!e.defined_[buf.id][i])
    throw EmulationError("block " + std::to_string(block()) + ": read " + e.trace_.buffers[buf.id].name + "[" +
                         std::to_string(i) + "] before anything was written to it");
  return e.values_[buf.id][i];
}

void EmuTileExec::write(const Buf& buf, std::int64_t i, const Payload& v) { emu_->store_at(buf, i, v); }

void EmuTileExec::advance_tile_io(std::size_t elements) {
  emu_->slots_[slot_].clock += emu_->round_trip() + elements / 32;
}

void EmuTileExec::publish_payload(std::int64_t tile, TileFlag flag, const Payload& value, const DeviceParams& p,
                                  bool packable, bool wide) {
  emu_->yield(slot_);
  const std::uint64_t lat = static_cast<std::uint64_t>(emu_->machine_.latency);
  auto values = [&]() -> std::vector<DeviceEmulator::Store>& {
    auto& d = emu_->descriptors_.at(static_cast<std::size_t>(tile));
    return flag == TileFlag::A ? d.aggregates : d.inclusives;
  };
  std::uint64_t value_at = emu_->slots_[slot_].clock + lat;  // one packed word: value and flag together
  // Torn: one 16-byte store whose value half lands apart from its flag half, as two stores would.
  const bool torn = wide && p.fence && emu_->machine_.torn;
  if (!(packable && p.fence) || torn) {
    // Separate words: the value's store (a Record event), then the flag's. An event's time is when
    // its store was issued: readers see it one latency later.
    TileEvent& r = emu_->record(slot_, TileEventKind::Record, tile);
    r.flag = flag;
    r.value = value;
    if (!p.fence || torn) {  // nothing orders the two: the value lands two latencies after the flag
      value_at += 2 * lat;
      r.time = value_at - lat;
    }
    values().push_back({value_at, flag, value});
    if (p.fence && !torn) {  // the fence waits for the value's store; others run meanwhile
      emu_->slots_[slot_].clock += lat;
      emu_->yield(slot_);
    }
  } else {
    values().push_back({value_at, flag, value});
  }
  TileEvent& e = emu_->record(slot_, TileEventKind::Publish, tile);
  e.flag = flag;
  e.value = value;
  auto& b = emu_->slots_[slot_];
  const std::uint64_t flag_at = b.clock + lat;
  emu_->descriptors_.at(static_cast<std::size_t>(tile)).flags.push_back({flag_at, flag, {}});
  emu_->last_visible_ = std::max({emu_->last_visible_, flag_at, value_at});
  b.clock += 1;
}

std::vector<EmuTileExec::Seen> EmuTileExec::read_window(std::int64_t tile, std::int64_t end, std::int32_t w) {
  if (end == tile && !emu_->slots_[slot_].looked)  // its first look back (deterministic=on reads this window twice)
    emu_->slots_[slot_].clock += emu_->stall_cycles(tile, TileStall::At::LookBack);
  emu_->slots_[slot_].looked = true;
  emu_->yield(slot_);
  auto& b = emu_->slots_[slot_];
  b.state = DeviceEmulator::State::Running;
  const std::uint64_t t = b.clock;
  std::vector<Seen> seen;
  for (std::int64_t j = end - 1; j >= std::max<std::int64_t>(0, end - w); --j) {
    const auto& d = emu_->descriptors_.at(static_cast<std::size_t>(j));
    Seen s{TileFlag::X, Payload{}};
    for (const auto& st : d.flags)
      if (st.visible <= t) s.flag = st.flag;
    for (const auto& st : s.flag == TileFlag::A ? d.aggregates : d.inclusives)
      if (st.visible <= t) s.value = st.value;
    seen.push_back(s);
  }
  b.last_read = t;
  b.clock += emu_->round_trip();
  // A window is usable when it has no X (and, one predecessor wide, shows a P); else the tile waits
  // and the first blocking predecessor is what its Wait event names.
  bool usable = true;
  for (std::size_t k = 0; k < seen.size() && usable; ++k)
    if (seen[k].flag == TileFlag::X || (w == 1 && seen[k].flag != TileFlag::P)) {
      usable = false;
      b.wait_target = end - 1 - static_cast<std::int64_t>(k);
      b.wait_flag = seen[k].flag;
    }
  if (!usable) return seen;
  for (std::size_t k = 0; k < seen.size(); ++k) {
    TileEvent& e = emu_->record(slot_, TileEventKind::Inspect, end - 1 - static_cast<std::int64_t>(k));
    e.time = t;
    e.flag = seen[k].flag;
    e.value = seen[k].value;
    e.spins = b.spins;
    if (seen[k].flag == TileFlag::P) break;
  }
  b.spins = 0;
  b.waited = false;
  return seen;
}

// ---- DeviceEmulator ----

DeviceEmulator::DeviceEmulator(Trace& trace, const EmuMachine& machine, const std::vector<Payload>& input, std::int64_t n)
    : trace_(trace), machine_(machine), jitter_(machine.jitter) {
  trace_.buffers = {{"input", Space::Global, static_cast<std::int64_t>(input.size())}, {"output", Space::Global, n}};
  values_ = {input, std::vector<Payload>(static_cast<std::size_t>(n))};
  defined_ = {std::vector<std::uint8_t>(input.size(), 1), std::vector<std::uint8_t>(static_cast<std::size_t>(n), 0)};
}

DeviceEmulator::~DeviceEmulator() = default;

Buf DeviceEmulator::alloc(std::string name, std::int64_t length) {
  if (trace_.buffers.size() >= 250) throw EmulationError("more than 250 global buffers");
  trace_.buffers.push_back({std::move(name), Space::Global, length});
  values_.emplace_back(static_cast<std::size_t>(length));
  defined_.emplace_back(static_cast<std::size_t>(length), 0);
  return {nullptr, static_cast<int>(values_.size() - 1), length};
}

DeviceBuffers DeviceEmulator::single_pass_state(const DeviceParams& p) {
  descriptors_.assign(static_cast<std::size_t>(p.tiles), Descriptor{});
  counter_ = 0;
  return {};
}

void DeviceEmulator::store_at(const Buf& buf, std::int64_t i, const Payload& v) {
  if (buf.id < 0 || buf.id >= static_cast<int>(values_.size()) || i < 0 ||
      i >= static_cast<std::int64_t>(values_[buf.id].size()))
    throw EmulationError("write out of bounds at element " + std::to_string(i));
  values_[buf.id][i] = v;
  defined_[buf.id][i] = 1;
}

void DeviceEmulator::charge_block_scan(std::uint64_t elements) {
  // A block scan: the tile's load and store, and a barrier a step.
  slots_[current_].clock += 2 * static_cast<std::uint64_t>(machine_.latency) + elements / 8;
}

std::uint64_t DeviceEmulator::round_trip() {
  const auto latency = static_cast<std::uint64_t>(machine_.latency);
  if (machine_.jitter == 0) return latency;
  // splitmix64: a small generator whose every seed gives a good sequence.
  std::uint64_t z = (jitter_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return latency + (z ^ (z >> 31)) % latency;
}

std::uint64_t DeviceEmulator::stall_cycles(std::int64_t tile, TileStall::At at) const {
  std::uint64_t cycles = 0;
  for (const TileStall& s : machine_.stalls)
    if (s.tile == tile && s.at == at) cycles += static_cast<std::uint64_t>(s.cycles);
  return cycles;
}

TileEvent& DeviceEmulator::record(int slot, TileEventKind kind, std::int64_t target) {
  const Block& b = slots_[slot];
  if (trace_.tile_events.size() >= kMaxTileEvents)
    throw EmulationError("more than " + std::to_string(kMaxTileEvents) +
                         " tile events, the most a trace holds: lower --n, or raise --block or items");
  TileEvent& e = trace_.tile_events.emplace_back();
  e.time = b.clock;
  e.tile = b.tile;
  e.target = target;
  e.block = static_cast<std::uint32_t>(b.id);
  e.sm = static_cast<std::uint16_t>(b.sm);
  e.pass = pass_;
  e.kind = kind;
  return e;
}

void DeviceEmulator::yield(int slot) {
  slots_[slot].fiber.suspend();
}

void DeviceEmulator::close_step() {
  trace_.steps.back().end_event = trace_.events.size();
  auto& snap = trace_.snapshots.emplace_back(values_.size());
  for (std::size_t b = 0; b < values_.size(); ++b) snap[b] = {values_[b], defined_[b]};
}

void DeviceEmulator::run_grid(Phase phase, int level, std::int64_t grid,
                              const std::function<void(EmuTileExec&)>& body) {
  pass_ = static_cast<std::uint16_t>(trace_.steps.size());
  Step& step = trace_.steps.emplace_back();
  step.phase = phase;
  step.param = level;
  step.first_event = step.end_event = trace_.events.size();

  std::vector<std::int64_t> order(static_cast<std::size_t>(grid));
  std::iota(order.begin(), order.end(), 0);
  if (machine_.launch.kind == Schedule::Kind::Reverse) std::reverse(order.begin(), order.end());
  if (machine_.launch.kind == Schedule::Kind::Random) {
    std::mt19937_64 rng(machine_.launch.seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  const int slot_count = machine_.sms * machine_.resident;
  slots_.clear();
  slots_.resize(static_cast<std::size_t>(slot_count));
  std::vector<std::uint64_t> free_at(static_cast<std::size_t>(slot_count), now_);
  std::vector<bool> busy(static_cast<std::size_t>(slot_count), false);
  std::size_t next = 0;
  std::uint64_t finished = now_;

  auto cleanup = [&] {
    for (auto& b : slots_) b.fiber.reset();  // drops any unfinished block
  };
  for (;;) {
    for (int s = 0; s < slot_count && next < order.size(); ++s) {
      if (busy[s]) continue;
      Block& b = slots_[s];
      b.fiber.reset();
      b.tile = -1;
      b.last_poll = b.last_read = 0;
      b.spins = 0;
      b.waited = false;
      b.looked = false;
      b.state = State::Running;
      b.id = order[next++];
      b.sm = s % machine_.sms;
      b.clock = free_at[s];
      busy[s] = true;
      b.fiber.start(kFiberStack, [this, s, &body] {
        EmuTileExec x(this, s);
        body(x);
        slots_[s].state = State::Done;
      });
    }
    int pick = -1;
    bool all_stuck = true;
    for (int s = 0; s < slot_count; ++s) {
      if (!busy[s]) continue;
      const Block& b = slots_[s];
      all_stuck &= b.state == State::Waiting && b.last_poll >= last_visible_;
      if (pick < 0 || b.clock < slots_[pick].clock || (b.clock == slots_[pick].clock && b.id < slots_[pick].id))
        pick = s;
    }
    if (pick < 0) break;  // every block finished
    if (all_stuck) {
      DeadlockDetected d;
      for (int s = 0; s < slot_count; ++s)
        if (busy[s]) d.waiting.push_back(slots_[s].tile);
      std::sort(d.waiting.begin(), d.waiting.end());
      close_step();
      cleanup();
      throw d;
    }
    current_ = pick;
    try {
      slots_[pick].fiber.resume();
    } catch (const std::exception& e) {  // the block is over; the run stops with its error
      if (error_.empty()) error_ = e.what();
      slots_[pick].state = State::Done;
    }
    if (!error_.empty()) {
      cleanup();
      throw EmulationError(error_);
    }
    if (slots_[pick].state == State::Done) {
      busy[pick] = false;
      free_at[pick] = slots_[pick].clock;
      finished = std::max(finished, slots_[pick].clock);
      slots_[pick].fiber.reset();
    }
  }
  now_ = finished;  // the next launch starts when this one has finished
  close_step();
}

}  // namespace sv
