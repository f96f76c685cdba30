// The CPU emulator of one thread block: every thread is a coroutine (emulator/coroutine.hpp), every shared or
// global access and every barrier is a scheduling point, and the whole run is recorded into a Trace.
//
// Lanes of a warp advance in lockstep, one warp instruction at a time: a warp instruction resumes
// all lanes waiting to start, else all lanes waiting to read, else all lanes waiting to write, so
// all reads of an instruction happen before its writes, as on SIMT hardware. Which warp issues the
// next instruction is the Schedule's choice. A barrier releases when every live thread reached one.
// The warp width is the block's (32 unless a warp-level kernel asks for another): a shuffle is one
// warp instruction that every live lane of the warp must reach; the scheduler exchanges the values.
//
// [SECTION] values and accessors handed to kernels (EmuVal, EmuRef, EmuArray)
// [SECTION] EmuExec, the execution context a kernel runs in
// [SECTION] BlockEmulator, the scheduler and recorder
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/hd.hpp"
#include "core/ops.hpp"
#include "core/payload.hpp"
#include "emulator/coroutine.hpp"
#include "emulator/schedule.hpp"
#include "trace/trace.hpp"

namespace sv {

// A kernel did something the emulator cannot continue from (out-of-bounds access, reading a cell
// never written). The message names the thread, buffer, index and source line; `kind`
// ("out-of-bounds", "uninitialized-read", ...; empty when unclassified), `line` and `column` say it
// for tools (the report card of a student's kernel).
struct EmulationError : std::runtime_error {
  using std::runtime_error::runtime_error;
  EmulationError(const std::string& what, std::string kind_, unsigned line_, unsigned column_ = 0)
      : std::runtime_error(what), kind(std::move(kind_)), line(line_), column(column_) {}
  std::string kind;
  unsigned line = 0;
  unsigned column = 0;
};

class BlockEmulator;
class EmuExec;

// Which lane a shuffle reads: l - d (__shfl_up_sync), l + d (__shfl_down_sync), lane d
// (__shfl_sync) or l ^ d (__shfl_xor_sync); a lane whose source is outside its warp keeps its own value.
// Vote: every lane gets the warp's votes (a WarpVote): __ballot_sync, __any_sync, __all_sync, __activemask.
enum class ShuffleKind : std::uint8_t { Up, Down, Index, Xor, Vote };

// What a vote gives every lane of its warp: bit l of `votes` is set when lane l voted non-zero, bit l
// of `present` when lane l took part (a lane that has exited takes part in nothing).
struct WarpVote {
  std::uint32_t votes = 0;
  std::uint32_t present = 0;
};

// ============================================================================================
// [SECTION] values and accessors
// ============================================================================================

// A value in a thread's register, with where it came from (for the dataflow arrows).
template <class T>
struct EmuVal {
  T v{};
  Origin origin;
};

// A reference to one cell; reading or writing it is a scheduling point. Only usable as a temporary
// (`s(i) = ...`, `V v = s(i)`), so `auto r = s(i)` cannot silently defer the read.
template <class T>
class EmuRef {
 public:
  EmuRef(EmuExec* x, int buffer, std::int64_t index, unsigned line) : x_(x), buffer_(buffer), index_(index), line_(line) {}
  EmuRef(const EmuRef&) = delete;
  operator EmuVal<T>() &&;
  void operator=(const EmuVal<T>& v) &&;
  void operator=(EmuRef&& other) &&;
  template <class U>
  void operator=(EmuRef<U>&& other) && = delete;

 private:
  EmuExec* x_;
  int buffer_;
  std::int64_t index_;
  unsigned line_;
};

template <class T>
class EmuArray {
 public:
  EmuArray(EmuExec* x, int buffer) : x_(x), buffer_(buffer) {}
  EmuRef<T> operator()(std::int64_t index, unsigned line = SV_CALLER_LINE) const { return EmuRef<T>(x_, buffer_, index, line); }
  int buffer() const { return buffer_; }

 private:
  EmuExec* x_;
  int buffer_;
};

// ============================================================================================
// [SECTION] EmuExec
// ============================================================================================

class EmuExec {
 public:
  template <class T>
  using val = EmuVal<T>;

  EmuExec(BlockEmulator* emu, int lane) : emu_(emu), lane_(lane) {}

  std::int32_t thread() const { return lane_; }
  std::int32_t block() const;
  void sync(unsigned line = SV_CALLER_LINE);
  void fence(unsigned line);  // __threadfence(): recorded, nothing waits
  void step(Phase phase, std::int64_t param, unsigned line = SV_CALLER_LINE);
  // A step without a barrier of the kernel's own: the threads are aligned here (no event recorded).
  void unsynced_step(Phase phase, std::int64_t param, unsigned line = SV_CALLER_LINE);

  // __shfl_up_sync within warps of `width` lanes: lane l gets lane l - delta's value and origin, or
  // keeps its own when l - delta is below the warp. Not an event: the value's origin carries the arrow.
  template <class T>
  EmuVal<T> shfl_up(const EmuVal<T>& v, int delta, int width, unsigned line = SV_CALLER_LINE) {
    return shfl(ShuffleKind::Up, v, delta, width, line);
  }
  template <class T>
  EmuVal<T> shfl(ShuffleKind kind, const EmuVal<T>& v, int delta, int width, unsigned line = SV_CALLER_LINE) {
    Origin origin = v.origin;
    const Payload got = shuffle(kind, Payload::of(v.v), origin, delta, width, line);
    return {got.template as<T>(), origin};
  }
  // A warp vote: every live lane of the warp offers `vote` and waits for the others.
  WarpVote vote(bool vote, unsigned line = SV_CALLER_LINE) {
    Origin origin = Origin::none();
    return shuffle(ShuffleKind::Vote, Payload::of(static_cast<std::int64_t>(vote)), origin, 0, emu_width(), line).as<WarpVote>();
  }

  template <class T>
  EmuArray<T> shared(const char* name, std::int64_t length) {
    return EmuArray<T>(this, declare_shared(name, length));
  }
  template <class T>
  EmuArray<T> input() {
    return EmuArray<T>(this, 0);
  }
  template <class T>
  EmuArray<T> output() {
    return EmuArray<T>(this, 1);
  }

  template <class Op>
  EmuVal<typename Op::value_type> identity(Op op, unsigned = SV_CALLER_LINE) {
    return {op.identity(), Origin::none()};
  }

  // a ⊕ b; reads a then b (when they are cells), then records the operator application.
  template <class Op, class A, class B>
  EmuVal<typename Op::value_type> op(Op f, A&& a, B&& b, unsigned line = SV_CALLER_LINE) {
    using T = typename Op::value_type;
    EmuVal<T> va = std::forward<A>(a);
    EmuVal<T> vb = std::forward<B>(b);
    T result = f(va.v, vb.v);
    std::int64_t seq = record_op(Payload::of(result), va.origin, vb.origin, line);
    return {result, Origin::op(seq)};
  }

  // Used by the accessors.
  Payload read(int buffer, std::int64_t index, unsigned line);
  void write(int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line);
  // A kernel of the user's own: a read of a cell never written is no fault yet (`*undefined` says
  // so), and a write may leave its cell undefined (a value computed from such a read), so that only
  // what such a value reaches decides whether it is a bug.
  Payload read_maybe_undefined(int buffer, std::int64_t index, unsigned line, bool* undefined);
  void write_maybe_undefined(int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line, bool undefined);

  // An atomic read-modify-write of one cell (atomicAdd): issued with the warp's writes, the lanes of
  // one instruction one after another; `update` maps the cell's old value to its new value and that
  // value's origin (it may record an operation, never wait). One Write event, marked atomic.
  // Returns the old value.
  using AtomicUpdate = std::function<std::pair<Payload, Origin>(const Payload& old)>;
  Payload atomic(int buffer, std::int64_t index, const AtomicUpdate& update, unsigned line);

 private:
  int declare_shared(const char* name, std::int64_t length);
  int emu_width() const;
  Payload shuffle(ShuffleKind kind, const Payload& value, Origin& origin, int delta, int width, unsigned line);
  std::int64_t record_op(const Payload& result, Origin a, Origin b, unsigned line);

  BlockEmulator* emu_;
  int lane_;
};

template <class T>
EmuRef<T>::operator EmuVal<T>() && {
  return {x_->read(buffer_, index_, line_).template as<T>(), Origin::cell(static_cast<std::uint8_t>(buffer_), index_)};
}
template <class T>
void EmuRef<T>::operator=(const EmuVal<T>& v) && {
  x_->write(buffer_, index_, Payload::of(v.v), v.origin, line_);
}
template <class T>
void EmuRef<T>::operator=(EmuRef&& other) && {
  EmuVal<T> v = std::move(other);
  x_->write(buffer_, index_, Payload::of(v.v), v.origin, line_);
}

// ============================================================================================
// [SECTION] BlockEmulator
// ============================================================================================

class BlockEmulator {
 public:
  using Body = std::function<void(EmuExec&)>;

  // Appends buffers, steps, events and snapshots to `trace`. Buffer 0 is the global input (holding
  // `input`), buffer 1 the global output (length n, undefined until written).
  // With record = false nothing is appended but the steps (a block scan inside a device-wide one).
  // warp_width: lanes that advance in lockstep (a power of two from 1 to 32). stack_bytes: each thread's
  // stack (0: 64 KiB; an interpreted kernel recurses deeper than the built-in ones).
  BlockEmulator(Trace& trace, Schedule schedule, int threads, int block_id, const std::vector<Payload>& input,
                std::int64_t output_length, bool record = true, int warp_width = 32,
                std::size_t stack_bytes = 0);
  ~BlockEmulator();
  BlockEmulator(const BlockEmulator&) = delete;
  BlockEmulator& operator=(const BlockEmulator&) = delete;

  // Another global buffer after input and output (a kernel's partial sums), before run() (or while
  // run_direct runs, before any shared buffer); its index.
  int add_global(const std::string& name, std::int64_t length);
  // A global buffer's contents before run(): what the earlier blocks of a launch left there (cells
  // not `defined` read as never written).
  void set_global(int buffer, const std::vector<Payload>& values, const std::vector<std::uint8_t>& defined);

  int warp_width() const { return warp_width_; }
  // Lets run() give the thread back to a TimeSlicedJob between instructions (emulator/time_slice.hpp):
  // only for an emulator run on the job's own stack, not inside another's thread.
  void allow_pauses() { pausable_ = true; }

  // Runs `body` on every thread to completion. Throws EmulationError.
  void run(const Body& body);
  // Runs `body` on the emulator's one thread in the caller's context, without a coroutine: every
  // access happens at once (a host function, whose kernel launches run emulators of their own).
  // Global buffers may be added while it runs.
  void run_direct(const Body& body);

  const std::vector<Payload>& buffer_values(int buffer) const { return values_.at(buffer); }
  int buffers() const { return static_cast<int>(values_.size()); }
  const std::vector<std::uint8_t>& buffer_defined(int buffer) const { return defined_.at(buffer); }

 private:
  friend class EmuExec;
  enum class LaneState : std::uint8_t { Ready, Read, Write, Shuffle, Barrier, Done };
  struct Lane {
    Coroutine thread;  // the thread's own stack
    LaneState state = LaneState::Ready;
    int steps_seen = 0;
    int shared_declared = 0;
    // a shuffle: what the lane offers, from how far below it takes, and what it got
    Payload shuffle_out, shuffle_in;
    Origin shuffle_out_origin, shuffle_in_origin;
    int shuffle_delta = 0;
    ShuffleKind shuffle_kind = ShuffleKind::Up;
    unsigned shuffle_line = 0;
  };

  // lane side
  void yield(int lane, LaneState wait_for);
  Payload read(int lane, int buffer, std::int64_t index, unsigned line, bool* undefined = nullptr);
  void write(int lane, int buffer, std::int64_t index, const Payload& value, Origin origin, unsigned line, bool undefined = false);
  Payload atomic(int lane, int buffer, std::int64_t index, const EmuExec::AtomicUpdate& update, unsigned line);
  std::int64_t record_op(int lane, const Payload& result, Origin a, Origin b, unsigned line);
  void barrier(int lane, unsigned line);
  void fence(int lane, unsigned line);
  void align(int lane);
  Payload shuffle(int lane, ShuffleKind kind, const Payload& value, Origin& origin, int delta, int width, unsigned line);
  void step(int lane, Phase phase, std::int64_t param, unsigned line);
  int declare_shared(int lane, const char* name, std::int64_t length);

  // scheduler side
  void resume(int lane);
  void issue_warp_instruction(int warp);
  bool warp_at_shuffle(int warp) const;  // every live lane of the warp waits at a shuffle
  void close_step();
  Event& append(EventKind kind, int lane, unsigned line);
  void check_cell(int lane, int buffer, std::int64_t index, unsigned line, const char* what) const;
  void check_defined(int lane, int buffer, std::int64_t index, unsigned line, const char* what) const;
  [[noreturn]] void fail(int lane, const std::string& what, const char* kind = "", unsigned line = 0) const;

  Trace& trace_;
  WarpPicker picker_;
  int block_id_;
  int warp_width_;
  CoroutineStacks stacks_;  // before lanes_: the coroutines go first
  std::vector<Lane> lanes_;
  std::vector<std::vector<Payload>> values_;        // per buffer
  std::vector<std::vector<std::uint8_t>> defined_;  // per buffer
  std::uint64_t clock_ = 0;
  bool record_ = true;
  int first_shared_ = 2;  // the shared buffers follow input, output and any add_global()
  Event scratch_;  // what append() hands out when not recording
  std::string error_;
  std::exception_ptr first_error_;  // rethrown as it was when it is an EmulationError
  bool step_open_ = false;
  bool direct_ = false;  // run_direct: no coroutine to suspend
  bool pausable_ = false;
};

}  // namespace sv
