// The gather kernel: decoupled look-back's sum at small and mid n, where a tile's whole life is a few
// memory round trips, the launch and a few hundred cycles of shuffles and barriers. One block a tile,
// tile ids from the block index (blocks start in index order, as CUB's scans assume), every thread's
// values loaded at once in 16-byte vectors and held in registers; a tile publishes its aggregate A
// (gpu/tile_descriptors.cuh, under the run's epoch) and then every thread of the block reads its
// share of ALL the predecessors' descriptors at once, so the prefix comes one L2 round trip after the
// last predecessor's A, instead of a warp's window walking back over 32 descriptors a step. Each tile
// reads every descriptor before it, so the reads grow with the square of the tiles: the default runs
// it up to kGatherMaxTiles tiles (gather_policy_at; docs/performance.md, "The gather kernel at
// small n").
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/ops.hpp"
#include "gpu/device_util.cuh"
#include "gpu/tile_descriptors.cuh"

namespace sv::gpu {

// Values a thread loads in one 16-byte vector.
template <class T>
constexpr int gather_vector_items() {
  return 16 / static_cast<int>(sizeof(T));
}

// The block's exclusive scan of one value a thread (its warps' inclusive scans, then the warp sums'
// scan in warp 0): returns the thread's exclusive prefix within the block and the block's total in
// `total`. `warp_sums` holds 32 values of shared memory; two barriers.
template <class T>
__device__ __forceinline__ T gather_block_scan(T v, T& total, T* warp_sums) {
  const SumOp<T> op;
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int warps = static_cast<int>(blockDim.x / 32);
  T inclusive = v;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const T up = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive = op(inclusive, up);
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    T s = lane < warps ? warp_sums[lane] : T(0);
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const T up = __shfl_up_sync(0xffffffffu, s, d);
      if (lane >= d) s = op(s, up);
    }
    if (lane < warps) warp_sums[lane] = s;  // inclusive over the warps
  }
  __syncthreads();
  total = warp_sums[warps - 1];
  const T before = warp == 0 ? T(0) : warp_sums[warp - 1];
  T lanes_before = __shfl_up_sync(0xffffffffu, inclusive, 1);  // the lanes before, within the warp
  if (lane == 0) lanes_before = T(0);
  return op(before, lanes_before);
}

// The block's sum of one value a thread; `red` holds 32 values of shared memory not in use by the
// scan above. One barrier.
template <class T>
__device__ __forceinline__ T gather_block_sum(T v, T* red) {
  const SumOp<T> op;
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, d));
  if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = v;
  __syncthreads();
  T s = T(0);
  for (int w = 0; w < static_cast<int>(blockDim.x / 32); ++w) s = op(s, red[w]);
  return s;
}

// A thread's kVectors 16-byte vectors of the tile, values first .. first + kItems - 1: loaded and
// stored as vectors where they lie whole in n and both arrays are 16-byte aligned (the same for
// every thread of a full tile), else value by value.
template <class T, int kVectors>
struct ThreadItems {
  static constexpr int kVec = gather_vector_items<T>();
  static constexpr int kItems = kVectors * kVec;
  struct alignas(16) Vector {
    T v[kVec];
  };
  T items[kItems];
  bool vectors;

  __device__ __forceinline__ void load(const T* __restrict__ in, const T* out, std::int64_t first, std::int64_t n) {
    vectors = first + kItems <= n && ((reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) & 15) == 0;
    if (vectors) {
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        const Vector x = reinterpret_cast<const Vector*>(in + first)[k];
#pragma unroll
        for (int j = 0; j < kVec; ++j) items[k * kVec + j] = x.v[j];
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) items[j] = first + j < n ? in[first + j] : T(0);
    }
  }
  __device__ __forceinline__ T sum() const {
    T s = items[0];
#pragma unroll
    for (int j = 1; j < kItems; ++j) s = SumOp<T>{}(s, items[j]);
    return s;
  }
  // The thread's inputs as they were loaded (the ordering floor's output: a copy).
  __device__ __forceinline__ void store_unscanned(T* __restrict__ out, std::int64_t first, std::int64_t n) const {
    if (vectors) {
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        Vector x;
#pragma unroll
        for (int j = 0; j < kVec; ++j) x.v[j] = items[k * kVec + j];
        reinterpret_cast<Vector*>(out + first)[k] = x;
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j)
        if (first + j < n) out[first + j] = items[j];
    }
  }
  // The thread's outputs: `running` (the sum of everything before its first value) on.
  __device__ __forceinline__ void store(T* __restrict__ out, std::int64_t first, std::int64_t n, T running,
                                        bool exclusive) const {
    const SumOp<T> op;
    if (vectors) {
#pragma unroll
      for (int k = 0; k < kVectors; ++k) {
        Vector x;
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
          const T v = items[k * kVec + j];
          if (!exclusive) running = op(running, v);
          x.v[j] = running;
          if (exclusive) running = op(running, v);
        }
        reinterpret_cast<Vector*>(out + first)[k] = x;
      }
    } else {
#pragma unroll
      for (int j = 0; j < kItems; ++j) {
        const T v = items[j];
        if (!exclusive) running = op(running, v);
        if (first + j < n) out[first + j] = running;
        if (exclusive) running = op(running, v);
      }
    }
  }
};

// A thread's wait for descriptor `d` of this epoch: polls until it holds A or P, sleeping between
// polls from 32 ns doubling up to 256 ns; after kSpinLimitNs it notes the tile in `diag` and returns
// the identity (the host reports it).
template <class T>
__device__ __forceinline__ T gather_wait(const void* descriptors, std::int64_t d, unsigned epoch, TileDiag* diag) {
  T value{};
  unsigned sleep_ns = 0;
  std::uint64_t start = 0;
  while (descriptor_flag(epoch, load_packed_descriptor<T>(descriptors, d, value)) == TileFlag::X) {
    const std::uint64_t now = global_timer_ns();
    if (start == 0) {
      start = now;
    } else if (now - start > kSpinLimitNs) {
      if (atomicCAS(&diag->failed, 0u, 1u) == 0u) {
        diag->tile = static_cast<long long>(blockIdx.x);
        diag->waited_ns = now - start;
      }
      return T(0);
    }
    sleep_ns = sleep_ns == 0 ? 32 : (sleep_ns < 256 ? 2 * sleep_ns : 256);
    __nanosleep(sleep_ns);
  }
  return value;
}

// What a launch of the gather kernel does with its tiles: decoupled look-back's scan, or one of the
// benchmark's two baselines. alone: each tile scanned on its own, nothing published or read (its time
// is the loads, the block's scan and the stores). ordered: the ordering floor, each tile's input
// stored unscanned, but only after the tile published its flag and read every earlier tile's (the
// dependency any single-pass scan of these tiles pays, without the scan's own work: one block sum
// makes the flag wait for the loads, one more the stores for every thread's reads).
enum class GatherRun : unsigned { scan, alone, ordered };

// kVectors 16-byte vectors a thread (tile = blockDim.x x kVectors x gather_vector_items<T>() values),
// grid = tiles.
template <class T, int kVectors>
__global__ void __launch_bounds__(1024) gather_kernel(const T* __restrict__ in, T* __restrict__ out, std::int64_t n,
                                                      bool exclusive, void* descriptors, unsigned epoch, TileDiag* diag,
                                                      GatherRun what) {
  __shared__ T warp_sums[32], red[32];
  const SumOp<T> op;
  const std::int64_t tile = blockIdx.x;
  const std::int64_t first = (tile * blockDim.x + threadIdx.x) * ThreadItems<T, kVectors>::kItems;
  ThreadItems<T, kVectors> x;
  x.load(in, out, first, n);
  T total, within = T(0);
  if (what == GatherRun::ordered) total = gather_block_sum(x.sum(), warp_sums);
  else within = gather_block_scan(x.sum(), total, warp_sums);
  // The tile's A, as soon as the block's total is known (the barriers above made it known to all).
  if (what != GatherRun::alone && threadIdx.x == 0 && tile + 1 < gridDim.x)
    store_packed_descriptor<T>(descriptors, tile, descriptor_flag_word(epoch, TileFlag::A), total);
  // Every predecessor's A, a thread's share each.
  T before = T(0);
  if (what != GatherRun::alone)
    for (std::int64_t d = threadIdx.x; d < tile; d += blockDim.x) before = op(before, gather_wait<T>(descriptors, d, epoch, diag));
  before = gather_block_sum(before, red);
  if (what == GatherRun::ordered) {
    x.store_unscanned(out, first, n);
    return;
  }
  x.store(out, first, n, op(before, within), exclusive);
}

}  // namespace sv::gpu
