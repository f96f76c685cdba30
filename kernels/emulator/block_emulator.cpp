// The CPU emulator of one thread block: coroutines, the warp scheduler, and the recording of the trace.
#include "emulator/block_emulator.hpp"

#include <algorithm>

#include "core/values.hpp"
#include "emulator/time_slice.hpp"

namespace sv {

namespace {
constexpr std::size_t kFiberStack = 64 * 1024;
}  // namespace

// ---- EmuExec: forwards to the emulator with the lane's id ----

std::int32_t EmuExec::block() const { return emu_->block_id_; }
void EmuExec::sync(unsigned line) { emu_->barrier(lane_, line); }
void EmuExec::fence(unsigned line) { emu_->fence(lane_, line); }
void EmuExec::step(Phase phase, std::int64_t param, unsigned line) { emu_->step(lane_, phase, param, line); }
void EmuExec::unsynced_step(Phase phase, std::int64_t param, unsigned line) {
  emu_->align(lane_);
  emu_->step(lane_, phase, param, line);
}
Payload EmuExec::shuffle(ShuffleKind kind, const Payload& value, Origin& origin, int delta, int width, unsigned line) {
  return emu_->shuffle(lane_, kind, value, origin, delta, width, line);
}
Payload EmuExec::read(int buffer, std::int64_t index, unsigned line) { return emu_->read(lane_, buffer, index, line); }
void EmuExec::write(int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line) {
  emu_->write(lane_, buffer, index, value, origin, line);
}
Payload EmuExec::read_maybe_undefined(int buffer, std::int64_t index, unsigned line, bool* undefined) {
  return emu_->read(lane_, buffer, index, line, undefined);
}
void EmuExec::write_maybe_undefined(int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line, bool undefined) {
  emu_->write(lane_, buffer, index, value, origin, line, undefined);
}
Payload EmuExec::atomic(int buffer, std::int64_t index, const AtomicUpdate& update, unsigned line) {
  return emu_->atomic(lane_, buffer, index, update, line);
}
int EmuExec::emu_width() const { return emu_->warp_width(); }
int EmuExec::declare_shared(const char* name, std::int64_t length) { return emu_->declare_shared(lane_, name, length); }
std::int64_t EmuExec::record_op(const Payload& result, Origin a, Origin b, unsigned line) {
  return emu_->record_op(lane_, result, a, b, line);
}

// ---- construction ----

BlockEmulator::BlockEmulator(Trace& trace, Schedule schedule, int threads, int block_id,
                             const std::vector<Payload>& input, std::int64_t output_length, bool record, int warp_width,
                             std::size_t stack_bytes)
    : trace_(trace), picker_(schedule), block_id_(block_id), warp_width_(warp_width),
      stacks_(static_cast<std::size_t>(std::max(threads, 0)), stack_bytes ? stack_bytes : kFiberStack), lanes_(static_cast<std::size_t>(threads)), record_(record) {
  if (warp_width < 1 || warp_width > 32 || (warp_width & (warp_width - 1)) != 0)
    throw std::invalid_argument("warp width " + std::to_string(warp_width) + " is not a power of two from 1 to 32");
  trace_.buffers = {{"input", Space::Global, static_cast<std::int64_t>(input.size())},
                    {"output", Space::Global, output_length}};
  values_ = {input, std::vector<Payload>(static_cast<std::size_t>(output_length))};
  defined_ = {std::vector<std::uint8_t>(input.size(), 1), std::vector<std::uint8_t>(output_length, 0)};
}

BlockEmulator::~BlockEmulator() = default;

int BlockEmulator::add_global(const std::string& name, std::int64_t length) {
  if (trace_.buffers.size() != static_cast<std::size_t>(first_shared_) || first_shared_ >= 16)
    throw std::logic_error("add_global after the run started, or too many global buffers");
  trace_.buffers.push_back({name, Space::Global, length});
  values_.emplace_back(static_cast<std::size_t>(length));
  defined_.emplace_back(static_cast<std::size_t>(length), 0);
  return first_shared_++;
}  // unfinished threads are dropped by their coroutines' destructors

void BlockEmulator::set_global(int buffer, const std::vector<Payload>& values, const std::vector<std::uint8_t>& defined) {
  if (buffer < 0 || buffer >= first_shared_ || values.size() != values_[buffer].size() || defined.size() != values.size())
    throw std::logic_error("set_global of a buffer that is not global, or of another length");
  values_[buffer] = values;
  defined_[buffer] = defined;
}

// ---- lane side ----

void BlockEmulator::yield(int lane, LaneState wait_for) {
  Lane& l = lanes_[lane];
  l.state = wait_for;
  if (!direct_) l.thread.suspend();
}

void BlockEmulator::fail(int lane, const std::string& what, const char* kind, unsigned line) const {
  throw EmulationError("thread " + std::to_string(lane) + ": " + what, kind, line);
}

void BlockEmulator::check_cell(int lane, int buffer, std::int64_t index, unsigned line, const char* what) const {
  if (buffer < 0 || buffer >= static_cast<int>(values_.size())) fail(lane, "access to an unknown buffer");
  const auto length = static_cast<std::int64_t>(values_[buffer].size());
  if (index < 0 || index >= length)
    fail(lane, std::string(what) + " " + trace_.buffers[buffer].name + "[" + std::to_string(index) +
                   "] is out of bounds (length " + std::to_string(length) + ") at line " + std::to_string(line),
         "out-of-bounds", line);
}

void BlockEmulator::check_defined(int lane, int buffer, std::int64_t index, unsigned line, const char* what) const {
  if (!defined_[buffer][index])
    fail(lane, std::string(what) + " " + trace_.buffers[buffer].name + "[" + std::to_string(index) +
                   "] before anything was written to it, at line " + std::to_string(line),
         "uninitialized-read", line);
}

Event& BlockEmulator::append(EventKind kind, int lane, unsigned line) {
  Event& e = record_ ? trace_.events.emplace_back() : (scratch_ = Event{});
  e.seq = record_ ? trace_.events.size() - 1 : 0;
  e.time = clock_;
  e.kind = kind;
  e.block = static_cast<std::uint32_t>(block_id_);
  e.thread = static_cast<std::uint32_t>(lane);
  e.line = line;
  return e;
}

Payload BlockEmulator::read(int lane, int buffer, std::int64_t index, unsigned line, bool* undefined) {
  yield(lane, LaneState::Read);
  check_cell(lane, buffer, index, line, "read of");
  if (undefined) *undefined = !defined_[buffer][index];
  else check_defined(lane, buffer, index, line, "read");
  Event& e = append(EventKind::Read, lane, line);
  e.buffer = static_cast<std::uint8_t>(buffer);
  e.index = index;
  e.value = values_[buffer][index];
  return e.value;
}

void BlockEmulator::write(int lane, int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line, bool undefined) {
  yield(lane, LaneState::Write);
  check_cell(lane, buffer, index, line, "write to");
  values_[buffer][index] = value;
  defined_[buffer][index] = undefined ? 0 : 1;
  Event& e = append(EventKind::Write, lane, line);
  e.buffer = static_cast<std::uint8_t>(buffer);
  e.index = index;
  e.value = value;
  e.a = origin;
}

Payload BlockEmulator::atomic(int lane, int buffer, std::int64_t index, const EmuExec::AtomicUpdate& update, unsigned line) {
  yield(lane, LaneState::Write);  // nothing else runs until this lane has written: the update is indivisible
  check_cell(lane, buffer, index, line, "atomic update of");
  check_defined(lane, buffer, index, line, "atomic update of");
  const Payload old = values_[buffer][index];
  const auto [value, origin] = update(old);
  values_[buffer][index] = value;
  Event& e = append(EventKind::Write, lane, line);
  e.buffer = static_cast<std::uint8_t>(buffer);
  e.index = index;
  e.value = value;
  e.a = origin;
  e.atomic = true;
  return old;
}

std::int64_t BlockEmulator::record_op(int lane, const Payload& result, Origin a, Origin b, unsigned line) {
  Event& e = append(EventKind::Op, lane, line);
  e.value = result;
  e.a = a;
  e.b = b;
  return static_cast<std::int64_t>(e.seq);
}

void BlockEmulator::barrier(int lane, unsigned line) {
  append(EventKind::Barrier, lane, line);
  yield(lane, LaneState::Barrier);
}

// A fence waits for nothing here (the emulator's memory is coherent): it is recorded, for the order of
// one block's writes as other blocks see them.
void BlockEmulator::fence(int lane, unsigned line) { append(EventKind::Fence, lane, line); }

// A barrier that records nothing: the thread waits with the others (the kernel has no barrier here).
void BlockEmulator::align(int lane) { yield(lane, LaneState::Barrier); }

Payload BlockEmulator::shuffle(int lane, ShuffleKind kind, const Payload& value, Origin& origin, int delta, int width,
                               unsigned line) {
  if (width != warp_width_)
    fail(lane, "shuffle of width " + std::to_string(width) + " at line " + std::to_string(line) +
                   " in a block emulated with warps of " + std::to_string(warp_width_) + " lanes");
  if (delta < 0 || delta >= width)
    fail(lane, "shuffle offset " + std::to_string(delta) + " outside 0.." + std::to_string(width - 1) + " at line " +
                   std::to_string(line));
  Lane& l = lanes_[lane];
  l.shuffle_out = value;
  l.shuffle_out_origin = origin;
  l.shuffle_delta = delta;
  l.shuffle_kind = kind;
  l.shuffle_line = line;
  yield(lane, LaneState::Shuffle);
  origin = l.shuffle_in_origin;
  return l.shuffle_in;
}

void BlockEmulator::step(int lane, Phase phase, std::int64_t param, unsigned line) {
  const int k = lanes_[lane].steps_seen++;
  if (k < static_cast<int>(trace_.steps.size())) {
    const Step& s = trace_.steps[k];
    if (s.phase != phase || s.param != param)
      fail(lane, "reached step " + phase_label(phase, param) + " where other threads reached " + s.label() +
                     " (step " + std::to_string(k) + ", line " + std::to_string(line) + ")");
    return;
  }
  if (step_open_) close_step();
  Step& s = trace_.steps.emplace_back();
  s.phase = phase;
  s.param = param;
  s.line = line;
  s.first_event = trace_.events.size();
  step_open_ = true;
}

void BlockEmulator::close_step() {
  trace_.steps.back().end_event = trace_.events.size();
  step_open_ = false;
  if (!record_) return;
  auto& snap = trace_.snapshots.emplace_back(values_.size());
  for (std::size_t b = 0; b < values_.size(); ++b) snap[b] = {values_[b], defined_[b]};
}

int BlockEmulator::declare_shared(int lane, const char* name, std::int64_t length) {
  const int k = lanes_[lane].shared_declared++;
  const int buffer = first_shared_ + k;  // after input, output and the added global buffers
  if (buffer < static_cast<int>(trace_.buffers.size())) {
    const BufferInfo& b = trace_.buffers[buffer];
    if (b.name != name || b.length != length)
      fail(lane, "declared shared buffer " + std::string(name) + " differently from the other threads");
    return buffer;
  }
  if (buffer >= 255) fail(lane, "declared more than 253 shared buffers");
  if (length < 0 || length > (1 << 20)) fail(lane, "shared buffer " + std::string(name) + " has an impossible length");
  trace_.buffers.push_back({name, Space::Shared, length});
  values_.emplace_back(static_cast<std::size_t>(length));
  defined_.emplace_back(static_cast<std::size_t>(length), 0);
  return buffer;
}

// ---- scheduler side ----

void BlockEmulator::resume(int lane) {
  try {
    lanes_[lane].thread.resume();
  } catch (const std::exception& e) {  // the thread is over; the run stops with the first error
    if (error_.empty()) {
      error_ = e.what();
      first_error_ = std::current_exception();
    }
    lanes_[lane].state = LaneState::Done;
  }
}

bool BlockEmulator::warp_at_shuffle(int warp) const {
  const int first = warp * warp_width_;
  const int last = std::min<int>(first + warp_width_, static_cast<int>(lanes_.size()));
  bool any = false;
  for (int i = first; i < last; ++i) {
    if (lanes_[i].state == LaneState::Done) continue;
    if (lanes_[i].state != LaneState::Shuffle) return false;
    any = true;
  }
  return any;
}

void BlockEmulator::issue_warp_instruction(int warp) {
  const int first = warp * warp_width_;
  const int last = std::min<int>(first + warp_width_, static_cast<int>(lanes_.size()));
  bool ready = false, read = false, write = false;
  for (int i = first; i < last; ++i) {
    ready |= lanes_[i].state == LaneState::Ready;
    read |= lanes_[i].state == LaneState::Read;
    write |= lanes_[i].state == LaneState::Write;
  }
  const LaneState group = ready ? LaneState::Ready
                          : read ? LaneState::Read
                          : write ? LaneState::Write
                                  : LaneState::Shuffle;
  if (group == LaneState::Shuffle) {  // every lane takes its source's value before any runs on
    WarpVote vote;
    for (int i = first; i < last; ++i) {
      if (lanes_[i].state != LaneState::Shuffle || lanes_[i].shuffle_kind != ShuffleKind::Vote) continue;
      vote.present |= 1u << (i - first);
      if (lanes_[i].shuffle_out.as<std::int64_t>() != 0) vote.votes |= 1u << (i - first);
    }
    for (int i = first; i < last; ++i) {
      Lane& l = lanes_[i];
      if (l.state != LaneState::Shuffle) continue;
      const int lane = i - first, d = l.shuffle_delta;
      int from = lane;  // the source lane: outside the warp, the lane keeps its own value
      switch (l.shuffle_kind) {
        case ShuffleKind::Up: from = lane >= d ? lane - d : lane; break;
        case ShuffleKind::Down: from = lane + d < warp_width_ ? lane + d : lane; break;
        case ShuffleKind::Index: from = d; break;
        case ShuffleKind::Xor: from = lane ^ d; break;
        case ShuffleKind::Vote:
          l.shuffle_in = Payload::of(vote);
          l.shuffle_in_origin = Origin::none();
          continue;
      }
      const int source = first + from < last && lanes_[first + from].state == LaneState::Shuffle ? first + from : i;
      l.shuffle_in = lanes_[source].shuffle_out;
      l.shuffle_in_origin = lanes_[source].shuffle_out_origin;
    }
  }
  for (int i = first; i < last && error_.empty(); ++i)
    if (lanes_[i].state == group) resume(i);
  ++clock_;
}

void BlockEmulator::run(const Body& body) {
  const int threads = static_cast<int>(lanes_.size());
  for (int i = 0; i < threads; ++i) {
    lanes_[i].thread.start(stacks_.slot(static_cast<std::size_t>(i)), [this, i, &body] {
      EmuExec x(this, i);
      body(x);
      lanes_[i].state = LaneState::Done;
    });
  }
  const int warps = (threads + warp_width_ - 1) / warp_width_;
  // A warp can issue when a lane of it is ready, or when all its live lanes wait at one shuffle. Only
  // the lanes of the warp that issued change, so only its bit is looked at again (and every warp's
  // when a barrier releases).
  WarpSet runnable(warps);
  const auto refresh = [&](int w) {
    bool can_run = false, shuffling = false;
    for (int i = w * warp_width_; i < std::min(threads, (w + 1) * warp_width_); ++i) {
      const LaneState s = lanes_[i].state;
      can_run |= s == LaneState::Ready || s == LaneState::Read || s == LaneState::Write;
      shuffling |= s == LaneState::Shuffle;
    }
    runnable.set(w, can_run || (shuffling && warp_at_shuffle(w)));
  };
  for (int w = 0; w < warps; ++w) refresh(w);
  // Every 16th step may give the thread back to a time-sliced check (time_slice.hpp): not every one,
  // since the clock read would cost more than it buys.
  for (std::uint32_t round = 0; error_.empty(); ++round) {
    if (pausable_ && round % 16 == 0) pause_point();
    if (runnable.count() == 0) {
      // Nothing can run: a lane at a shuffle waits for lanes of its warp at a barrier or finished.
      bool at_barrier = false;
      for (int i = 0; i < threads; ++i) {
        if (lanes_[i].state == LaneState::Shuffle)
          fail(i, "waits at a shuffle (line " + std::to_string(lanes_[i].shuffle_line) +
                      ") that other lanes of its warp never reach");
        at_barrier |= lanes_[i].state == LaneState::Barrier;
      }
      if (!at_barrier) break;  // every thread finished
      for (Lane& l : lanes_)
        if (l.state == LaneState::Barrier) l.state = LaneState::Ready;
      for (int w = 0; w < warps; ++w) refresh(w);
      continue;
    }
    const int w = picker_.pick(runnable);
    issue_warp_instruction(w);
    refresh(w);
  }
  if (!error_.empty()) {
    try {
      std::rethrow_exception(first_error_);
    } catch (const EmulationError&) {
      throw;
    } catch (...) {
      throw EmulationError(error_);
    }
  }
  if (step_open_) close_step();
}

void BlockEmulator::run_direct(const Body& body) {
  if (lanes_.size() != 1) throw std::logic_error("run_direct runs one thread");
  direct_ = true;
  EmuExec x(this, 0);
  body(x);
  lanes_[0].state = LaneState::Done;
  if (step_open_) close_step();
}

}  // namespace sv
