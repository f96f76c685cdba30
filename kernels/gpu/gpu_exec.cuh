// The GPU execution context, untraced: accessors are plain shared and global memory, a barrier is
// __syncthreads(), step marks and source lines compile to nothing (but the optional race amplifier's
// delay). The same kernel headers the emulator runs build against this with nvcc.
#pragma once

#include <cstdint>

#include "core/hd.hpp"
#include "core/phase.hpp"
#include "gpu/device_util.cuh"

namespace sv::gpu {

template <class T>
struct Array {
  T* data;
  __device__ T& operator()(std::int64_t i, unsigned = SV_CALLER_LINE) const { return data[i]; }
};

// Shared buffers are carved, in declaration order, from the kernel's dynamic shared memory.
class UntracedExec {
 public:
  template <class T>
  using val = T;

  __device__ UntracedExec(const void* input, void* output, unsigned char* smem, std::uint64_t amplify_seed = 0)
      : input_(input), output_(output), smem_(smem), amplify_seed_(amplify_seed) {}

  __device__ std::int32_t thread() const { return static_cast<std::int32_t>(threadIdx.x); }
  __device__ std::int32_t block() const { return static_cast<std::int32_t>(blockIdx.x); }
  __device__ void sync(unsigned = SV_CALLER_LINE) const { __syncthreads(); }
  __device__ void step(Phase, std::int64_t, unsigned = SV_CALLER_LINE) { amplify_delay(amplify_seed_, steps_seen_++, 4096); }
  // Untraced, a step without the kernel's barrier is only a mark: nothing aligns the threads.
  __device__ void unsynced_step(Phase phase, std::int64_t param, unsigned line = SV_CALLER_LINE) { step(phase, param, line); }
  template <class T>
  __device__ T shfl_up(T v, int delta, int width, unsigned = SV_CALLER_LINE) const {
    return shfl_up_in_group(v, delta, width);
  }

  template <class T>
  __device__ Array<T> shared(const char*, std::int64_t length) {
    offset_ = (offset_ + alignof(T) - 1) / alignof(T) * alignof(T);
    Array<T> a{reinterpret_cast<T*>(smem_ + offset_)};
    offset_ += static_cast<std::size_t>(length) * sizeof(T);
    return a;
  }
  template <class T>
  __device__ Array<T> input() const {
    return {const_cast<T*>(static_cast<const T*>(input_))};
  }
  template <class T>
  __device__ Array<T> output() const {
    return {static_cast<T*>(output_)};
  }
  template <class Op>
  __device__ typename Op::value_type identity(Op op, unsigned = SV_CALLER_LINE) const {
    return op.identity();
  }
  // Operands by value: the loads happen at the call site, so tools (racecheck) name the kernel's line.
  template <class Op>
  __device__ typename Op::value_type op(Op f, typename Op::value_type a, typename Op::value_type b,
                                        unsigned = SV_CALLER_LINE) const {
    return f(a, b);
  }

 private:
  const void* input_;
  void* output_;
  unsigned char* smem_;
  std::uint64_t amplify_seed_;
  std::size_t offset_ = 0;
  int steps_seen_ = 0;
};

}  // namespace sv::gpu
