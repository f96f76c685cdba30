// The GPU execution context, traced: every shared and global access, operator application and
// barrier appends a fixed-size Event (with %globaltimer time and the SM id) to a bounded device
// buffer, and each step's end state of every buffer is copied out. Values carry their origin in a
// register beside them, so the dataflow arrows come from the hardware run too.
//
// A traced run adds, at each step start, one extra barrier (after copying the snapshot) so no thread
// changes shared memory before the copy is complete; it records no event, so the trace's barrier
// intervals are the kernel's own.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/hd.hpp"
#include "core/phase.hpp"
#include "gpu/device_util.cuh"
#include "gpu/trace_state.hpp"

namespace sv::gpu {

class TracedExec;

template <class T>
struct TVal {
  T v{};
  Origin origin;
};

// A reference to one cell, usable only as a temporary (as the emulator's EmuRef).
template <class T>
class TRef {
 public:
  __device__ TRef(TracedExec* x, int buffer, T* data, std::int64_t index, unsigned line)
      : x_(x), buffer_(buffer), data_(data), index_(index), line_(line) {}
  TRef(const TRef&) = delete;
  __device__ operator TVal<T>() &&;
  __device__ void operator=(const TVal<T>& v) &&;
  __device__ void operator=(TRef&& other) &&;

 private:
  TracedExec* x_;
  int buffer_;
  T* data_;
  std::int64_t index_;
  unsigned line_;
};

template <class T>
class TArray {
 public:
  __device__ TArray(TracedExec* x, int buffer, T* data) : x_(x), buffer_(buffer), data_(data) {}
  __device__ TRef<T> operator()(std::int64_t index, unsigned line = SV_CALLER_LINE) const {
    return TRef<T>(x_, buffer_, data_, index, line);
  }

 private:
  TracedExec* x_;
  int buffer_;
  T* data_;
};

class TracedExec {
 public:
  template <class T>
  using val = TVal<T>;

  __device__ TracedExec(TraceState* st, const void* input, void* output, unsigned char* smem, std::uint64_t amplify_seed)
      : st_(st), input_(input), output_(output), smem_(smem), amplify_seed_(amplify_seed) {
    base_[0] = const_cast<void*>(input);
    base_[1] = output;
    length_[0] = st->decl[0].length;
    length_[1] = st->decl[1].length;
    snapshot_end_ = st->decl[1].snapshot_offset + st->decl[1].length;
  }

  __device__ std::int32_t thread() const { return static_cast<std::int32_t>(threadIdx.x); }
  __device__ std::int32_t block() const { return static_cast<std::int32_t>(blockIdx.x); }

  __device__ void sync(unsigned line = SV_CALLER_LINE) {
    unsigned long long seq;
    append(EventKind::Barrier, line, seq);
    __syncthreads();
  }

  // Snapshot of the step that just ended (all threads are past a barrier), then the new step record.
  __device__ void step(Phase phase, std::int64_t param, unsigned line = SV_CALLER_LINE) {
    // Between the kernel's barrier and the one below no thread appends events, so the counter read
    // here is where the new step's events begin.
    const int k = steps_seen_++;
    if (k > 0) snapshot(k - 1);
    if (k >= kMaxSteps) {
      fault(TraceFault::TooManySteps, line, -1, k);
    } else if (threadIdx.x == 0) {
      const unsigned long long first = k == 0 ? 0ULL : *static_cast<volatile unsigned long long*>(&st_->counter);
      st_->step[k] = StepRecord{phase, param, line, first};
      st_->steps = k + 1;
    }
    if (k > 0) __syncthreads();
    amplify_delay(amplify_seed_, k, 65536);
  }

  // A step the kernel reaches without a barrier of its own (a warp-synchronous level): the threads
  // are aligned first, recording no event, so the step's events and snapshot are that level's.
  __device__ void unsynced_step(Phase phase, std::int64_t param, unsigned line = SV_CALLER_LINE) {
    __syncthreads();
    step(phase, param, line);
  }

  // The value and its origin move together, so the dataflow arrow crosses lanes as the value did.
  template <class T>
  __device__ TVal<T> shfl_up(const TVal<T>& v, int delta, int width, unsigned = SV_CALLER_LINE) const {
    return {shfl_up_in_group(v.v, delta, width), shfl_up_in_group(v.origin, delta, width)};
  }

  // After the kernel body: the last step's snapshot.
  __device__ void finish() {
    __syncthreads();
    if (steps_seen_ > 0) snapshot(steps_seen_ - 1);
  }

  template <class T>
  __device__ TArray<T> shared(const char* name, std::int64_t length) {
    const int b = 2 + declared_++;
    offset_ = (offset_ + alignof(T) - 1) / alignof(T) * alignof(T);
    T* data = reinterpret_cast<T*>(smem_ + offset_);
    offset_ += static_cast<std::size_t>(length) * sizeof(T);
    if (b >= kMaxBuffers) {  // an accessor that fails every bounds check, so nothing is touched
      fault(TraceFault::TooManyBuffers, 0, b, 0);
      return TArray<T>(this, -1, data);
    }
    base_[b] = data;
    length_[b] = length;
    const std::int64_t at = snapshot_end_;
    snapshot_end_ += length;
    if (threadIdx.x == 0) {
      BufferDecl& d = st_->decl[b];
      int i = 0;
      for (; name[i] && i < kBufferNameLength - 1; ++i) d.name[i] = name[i];
      d.name[i] = 0;
      d.length = length;
      d.snapshot_offset = at;
      st_->buffers = b + 1;
    }
    if (snapshot_end_ > st_->snapshot_cells) fault(TraceFault::SnapshotTooSmall, 0, b, snapshot_end_);
    elem_size_ = sizeof(T);
    return TArray<T>(this, b, data);
  }
  template <class T>
  __device__ TArray<T> input() {
    elem_size_ = sizeof(T);
    return TArray<T>(this, 0, const_cast<T*>(static_cast<const T*>(input_)));
  }
  template <class T>
  __device__ TArray<T> output() {
    elem_size_ = sizeof(T);
    return TArray<T>(this, 1, static_cast<T*>(output_));
  }

  template <class Op>
  __device__ TVal<typename Op::value_type> identity(Op op, unsigned = SV_CALLER_LINE) const {
    return {op.identity(), Origin::none()};
  }

  template <class Op, class A, class B>
  __device__ TVal<typename Op::value_type> op(Op f, A&& a, B&& b, unsigned line = SV_CALLER_LINE) {
    using T = typename Op::value_type;
    TVal<T> va = static_cast<A&&>(a);
    TVal<T> vb = static_cast<B&&>(b);
    const T result = f(va.v, vb.v);
    unsigned long long seq;
    if (Event* e = append(EventKind::Op, line, seq)) {
      e->value = Payload::of(result);
      e->a = va.origin;
      e->b = vb.origin;
    }
    return {result, Origin::op(static_cast<std::int64_t>(seq))};
  }

  // Used by TRef.
  template <class T>
  __device__ T read(int buffer, T* data, std::int64_t index, unsigned line) {
    if (!in_bounds(buffer, index, line)) return T{};
    const T v = data[index];
    unsigned long long seq;
    if (Event* e = append(EventKind::Read, line, seq)) {
      e->buffer = static_cast<std::uint8_t>(buffer);
      e->index = index;
      e->value = Payload::of(v);
    }
    return v;
  }
  template <class T>
  __device__ void write(int buffer, T* data, std::int64_t index, const TVal<T>& v, unsigned line) {
    if (!in_bounds(buffer, index, line)) return;
    data[index] = v.v;
    unsigned long long seq;
    if (Event* e = append(EventKind::Write, line, seq)) {
      e->buffer = static_cast<std::uint8_t>(buffer);
      e->index = index;
      e->value = Payload::of(v.v);
      e->a = v.origin;
    }
  }

 private:
  __device__ __noinline__ Event* append(EventKind kind, unsigned line, unsigned long long& seq) {
    seq = atomicAdd(&st_->counter, 1ULL);
    if (seq >= st_->capacity) return nullptr;
    Event* e = &st_->events[seq];
    e->seq = seq;
    e->time = global_timer_ns();
    e->kind = kind;
    e->buffer = kNoBuffer;
    e->sm = static_cast<std::uint16_t>(sm_id());
    e->block = blockIdx.x;
    e->thread = threadIdx.x;
    e->line = line;
    e->index = -1;
    e->a = Origin::none();
    e->b = Origin::none();
    e->atomic = false;  // the events' memory is not cleared
    return e;
  }

  __device__ bool in_bounds(int buffer, std::int64_t index, unsigned line) {
    if (buffer >= 0 && buffer < kMaxBuffers && index >= 0 && index < length_[buffer]) return true;
    fault(TraceFault::OutOfBounds, line, buffer, index);
    return false;
  }

  __device__ __noinline__ void fault(TraceFault f, unsigned line, int buffer, std::int64_t index) {
    if (atomicCAS(reinterpret_cast<unsigned int*>(&st_->fault), 0u, static_cast<unsigned int>(f)) == 0u) {
      st_->fault_thread = threadIdx.x;
      st_->fault_line = line;
      st_->fault_buffer = buffer;
      st_->fault_index = index;
    }
  }

  // Every thread copies a strided share of every buffer's cells.
  __device__ __noinline__ void snapshot(int k) {
    if (k >= kMaxSteps) return;
    Payload* out = st_->snapshots + static_cast<std::int64_t>(k) * st_->snapshot_cells;
    const int buffers = 2 + declared_ < kMaxBuffers ? 2 + declared_ : kMaxBuffers;
    std::int64_t at = 0;
    for (int b = 0; b < buffers; ++b) {
      const unsigned char* src = static_cast<const unsigned char*>(base_[b]);
      if (at + length_[b] > st_->snapshot_cells) return;
      for (std::int64_t i = threadIdx.x; i < length_[b]; i += blockDim.x) {
        Payload p;
        memcpy(p.bytes, src + i * elem_size_, elem_size_);
        out[at + i] = p;
      }
      at += length_[b];
    }
  }

  TraceState* st_;
  const void* input_;
  void* output_;
  unsigned char* smem_;
  std::uint64_t amplify_seed_;
  void* base_[kMaxBuffers] = {};
  std::int64_t length_[kMaxBuffers] = {};  // each thread's own copy: the declarations are written by thread 0
  std::size_t offset_ = 0;
  std::size_t elem_size_ = 0;
  std::int64_t snapshot_end_ = 0;
  int declared_ = 0;
  int steps_seen_ = 0;
};

template <class T>
__device__ TRef<T>::operator TVal<T>() && {
  return {x_->read(buffer_, data_, index_, line_), Origin::cell(static_cast<std::uint8_t>(buffer_), index_)};
}
template <class T>
__device__ void TRef<T>::operator=(const TVal<T>& v) && {
  x_->write(buffer_, data_, index_, v, line_);
}
template <class T>
__device__ void TRef<T>::operator=(TRef&& other) && {
  TVal<T> v = static_cast<TRef&&>(other);
  x_->write(buffer_, data_, index_, v, line_);
}

}  // namespace sv::gpu
