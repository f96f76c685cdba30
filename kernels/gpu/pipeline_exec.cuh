// Pipelined decoupled look-back (GPU only, sm_90 on; TilePolicy::stages; measured, not a default):
// the scan of kernels/device/decoupled_lookback.hpp (tile ids from a counter; each tile publishes its
// aggregate (A), finds its exclusive prefix from its predecessors' descriptors, publishes its
// inclusive prefix (P) and scans its tile seeded with it), on another schedule: a block of 320
// threads holds `stages` 24 KB tiles at once and each of its warps keeps one role.
//
//   load warp      once a stage is free, takes a tile id and copies the tile into it with one bulk
//                  copy (cp.async.bulk; guarded loads for a partial tile or an unaligned input);
//   reduce warps   (4) the tile's aggregate, published as A as soon as the tile has arrived, never
//                  waiting on the tile before;
//   look-back warp the block's tiles in order, each from the moment its id is known (while the tile
//                  is still on its way): the block's first tile looks back to the nearest P, 128
//                  descriptors a poll; each later one reads forward from the block's previous
//                  tile, whose inclusive prefix it knows (the last P of a run replaces it), and
//                  polls again only from the first X; then P;
//   store warps    (4) scan the tile from the stage with its exclusive prefix, store it, free the
//                  stage.
//
// Why (issue 13): on an H200 the one-tile-a-block kernel holds each 24 KB tile through its
// look-back (7.2 us of a 14.4 us life at 2^28), and by Little's law the tiles' life sets the pace.
// Here a tile's look-back overlaps its own load. Reading forward from the block's previous tile is
// the idea of CUB's warp-specialised scan for sm_100 (kernel_scan_warpspeed, which sums aggregates
// forward from the block's previous tile and publishes no P).
//
// Measured (H200, driver 580.159.04, int32 sum, median of 20, a harness timing it next to a 16-byte
// copy kernel and CUB in one process; README has scanviz bench's rows): without the look-back and
// the scan the pipeline moves 510 G items/s at 2^28 (104% of that copy kernel); with the scan and
// no look-back 508 at 2 blocks a multiprocessor but 362 at one (four store warps cannot scan 8
// stages' tiles); with both, 2 blocks of 4 stages, 436-440 (89-90% of that copy; CUB 382), the
// aggregate published 2.7 us after the id and the prefix 7.7-8 us after it. Taking the next id
// ahead, before a stage is free, left that tile X until a stage freed: 420 and a prefix 9.6 us
// after the aggregate. A look-back nearest-first to the P or the previous tile: 410. 8 rows (256
// descriptors a poll) 424; 3 blocks of 3 stages 439; 8 warps a role 180 (one block) and 240 (two).
//
// Handoffs are mbarriers in shared memory, one per stage and event; a stage's round r completes
// each barrier's phase r (parity r & 1). Stage s of round r: id (the load warp wrote the tile id),
// full (the elements arrived), reduced (the aggregate is in shared memory), prefixed (the exclusive
// prefix is), empty (the store warps have read the stage). A tile id past the last tile ends every
// role at that round. Every lane that reads or writes a stage's shared memory arrives itself (full,
// reduced, prefixed and empty count lanes): compute-sanitizer's racecheck credits an arrival to the
// arriving thread only. It reported a lane-0 arrival after a __syncwarp, or after the reduce warps'
// named barrier, as races with the next round's writes (a scratch test of six handoffs on the H200:
// a chain of two mbarriers and a bulk copy's complete_tx are credited, a __syncwarp or __shfl_sync
// before lane 0's arrival is not). Shared memory other than the stages is written by the generic
// proxy only, and a stage by the copies or, for a partial tile, by the load warp, with proxy fences
// (fence_async_shared) on both sides of those writes and before the store warps free a stage.
//
// No deadlock, whatever the blocks resident: a tile is taken only into a free stage, its copy and
// aggregate wait on nothing, and a stage frees once its tile's prefix is known, which needs the
// aggregates of earlier tiles only, all taken into stages of running blocks.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "gpu/tile_exec.cuh"

namespace sv::gpu {

inline constexpr int kPipeWarps = 4;                                // reduce warps, and store warps
inline constexpr int kPipeThreads = (2 * kPipeWarps + 2) * 32;      // + the load and look-back warps
inline constexpr int kPipeMinBlocks = 2;                            // the register bound: blocks a multiprocessor
inline constexpr int kPipeMaxStages = 9;                            // 9 x 24 KB fit sm_90's 227 KB
inline constexpr int kPipeRows = 4;                                 // descriptors a lane reads a poll

// Elements per thread of a reduce or store warp: 24 KB tiles of 128 threads.
template <class T>
constexpr int pipe_items() {
  return 24 * 1024 / (kPipeWarps * 32) / static_cast<int>(sizeof(T));
}
template <class T>
constexpr std::int64_t pipe_tile_items() {
  return static_cast<std::int64_t>(kPipeWarps) * 32 * pipe_items<T>();
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define SV_PIPE 0
#else
#define SV_PIPE 1
#endif
inline constexpr bool kPipeBuilt = SV_PIPE;

__device__ __forceinline__ void mbar_init(unsigned long long* bar, unsigned count) {
#if SV_PIPE
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(count) : "memory");
#endif
}
__device__ __forceinline__ void mbar_arrive(unsigned long long* bar) {
#if SV_PIPE
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
#endif
}
// Waits until the phase of parity `parity` has completed.
__device__ __forceinline__ void mbar_wait(unsigned long long* bar, unsigned parity) {
#if SV_PIPE
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar)), "r"(parity)
        : "memory");
  } while (!done);
#endif
}
// The named barrier of the reduce warps (0 is __syncthreads).
__device__ __forceinline__ void reduce_warps_sync() {
  asm volatile("bar.sync 1, %0;" ::"n"(kPipeWarps * 32) : "memory");
}

template <class T>
struct PipeShared {
  unsigned long long id[kPipeMaxStages], full[kPipeMaxStages], reduced[kPipeMaxStages], prefixed[kPipeMaxStages],
      empty[kPipeMaxStages];
  long long tile[kPipeMaxStages];
  T totals[kPipeMaxStages][kPipeWarps];  // the reduce warps' segment totals
  T aggregate[kPipeMaxStages];
  T prefix[kPipeMaxStages];  // the tile's exclusive prefix
};

template <class Op, class Recorder>
class PipeBlock {
 public:
  using T = typename Op::value_type;
  static constexpr int Items = pipe_items<T>();
  static constexpr int V = vector_width<T>();
  static constexpr int Chunks = Items / V;
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "packed descriptors: 4- and 8-byte values");
  static_assert(Items % V == 0);

  __device__ PipeBlock(Op op, const DeviceParams& p, const DeviceBuffers& b, const typename Recorder::Args& rec,
                       TileDiag* diag, const TileKnobs& knobs, int stages, PipeShared<T>& s, T* stage)
      : op_(op), p_(p), b_(b), rec_(rec), diag_(diag), knobs_(knobs), stages_(stages), s_(s), stage_(stage) {}

  __device__ void run() {
    const int warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) {
      for (int i = 0; i < stages_; ++i) {
        mbar_init(&s_.id[i], 1);
        mbar_init(&s_.full[i], 32);
        mbar_init(&s_.reduced[i], kPipeWarps * 32);
        mbar_init(&s_.prefixed[i], 32);
        mbar_init(&s_.empty[i], kPipeWarps * 32);
      }
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp < kPipeWarps) reduce_role(warp);
    else if (warp < 2 * kPipeWarps) store_role(warp - kPipeWarps);
    else if (warp == 2 * kPipeWarps) load_role();
    else look_back_role();
  }

 private:
  __device__ T* stage_of(int s) const { return stage_ + static_cast<std::int64_t>(s) * pipe_tile_items<T>(); }
  // This lane's V elements of chunk k of warp segment w in stage s.
  __device__ const T* chunk_of(int s, int w, int k) const {
    return stage_of(s) + w * 32 * Items + (k * 32 + static_cast<int>(threadIdx.x & 31)) * V;
  }
  // Runs body(s, parity, tile) for each tile the block takes, in order: stage s of round r (parity
  // r & 1), once the load warp has written the stage's tile id; returns at the id past the last tile.
  template <class F>
  __device__ void each_tile(F&& body) {
    for (int i = 0;; ++i) {
      const int s = i % stages_;
      const unsigned parity = (i / stages_) & 1;
      mbar_wait(&s_.id[s], parity);
      const long long tile = s_.tile[s];
      if (tile >= p_.tiles) return;
      body(s, parity, tile);
    }
  }
  __device__ std::int64_t tile_begin(std::int64_t tile) const { return tile * pipe_tile_items<T>(); }
  __device__ bool full_aligned(const void* ptr, std::int64_t tile) const {
    return tile_begin(tile) + pipe_tile_items<T>() <= p_.n && (reinterpret_cast<std::uintptr_t>(ptr) & 15) == 0;
  }
  // Lane 0 of the load warp: the next tile id (its start clocked).
  __device__ long long take_id() {
    const auto tile =
        static_cast<long long>(atomicAdd(static_cast<unsigned long long*>(b_.counter.ptr), 1ULL) - knobs_.tile_base);
    if (tile < p_.tiles) rec_.start(tile);
    return tile;
  }

  // ---- load warp ------------------------------------------------------------------------------
  // A tile id is taken only once its stage is free: a tile taken ahead, waiting for a stage, stays
  // X for that long and holds up the look-back of every tile after it (H200, 2^28: 420 G items/s
  // taken ahead, the look-back 9.6 us after the aggregate).
  __device__ void load_role() {
    const int lane = threadIdx.x & 31;
    const T* in = static_cast<const T*>(b_.in.ptr);
    for (int i = 0;; ++i) {
      const int s = i % stages_;
      const int round = i / stages_;
      if (round > 0) mbar_wait(&s_.empty[s], (round - 1) & 1);
      long long tile = 0;
      if (lane == 0) {
        tile = take_id();
        s_.tile[s] = tile;
        mbar_arrive(&s_.id[s]);
      }
      tile = __shfl_sync(kFullMask, tile, 0);
      if (tile >= p_.tiles) return;
      if (full_aligned(in, tile)) {
        if (lane == 0)  // its arrival, with the bytes to wait for
          bulk_load(stage_of(s), in + tile_begin(tile), static_cast<unsigned>(pipe_tile_items<T>() * sizeof(T)),
                    &s_.full[s], knobs_.l2_last);
        else
          mbar_arrive(&s_.full[s]);
      } else {  // the last, partial tile or an unaligned input: element by element, the identity past n
        T* dst = stage_of(s);
        fence_async_shared();  // after an earlier round's bulk copy into this stage
        for (std::int64_t j = lane; j < pipe_tile_items<T>(); j += 32) {
          const std::int64_t g = tile_begin(tile) + j;
          dst[j] = g < p_.n ? in[g] : op_.identity();
        }
        fence_async_shared();  // before a later round's bulk copy into it
        mbar_arrive(&s_.full[s]);
      }
    }
  }

  // ---- reduce warps ---------------------------------------------------------------------------
  __device__ void reduce_role(int w) {
    const int lane = threadIdx.x & 31;
    each_tile([&](int s, unsigned parity, long long tile) {
      mbar_wait(&s_.full[s], parity);
      // The lane's elements in any order, then the warp's lanes: every operator of 4- and 8-byte
      // values is commutative (the symbolic interval, which is not, takes the tile kernels).
      T total = op_.identity();
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        unpack16(*reinterpret_cast<const uint4*>(chunk_of(s, w, k)), v);
#pragma unroll
        for (int j = 0; j < V; ++j) total = op_(total, v[j]);
      }
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) total = op_(total, shfl_down(total, d));
      if (lane == 0) s_.totals[s][w] = total;
      reduce_warps_sync();
      if (w == 0 && lane == 0) {
        T aggregate = s_.totals[s][0];
#pragma unroll
        for (int k = 1; k < kPipeWarps; ++k) aggregate = op_(aggregate, s_.totals[s][k]);
        s_.aggregate[s] = aggregate;
        if (tile > 0) {
          store_packed_descriptor(b_.descriptors.ptr, tile, descriptor_flag_word(knobs_.epoch, TileFlag::A), aggregate);
          rec_.publish(tile, TileFlag::A, aggregate);
        }
      }
      mbar_arrive(&s_.reduced[s]);  // every lane: each has read the stage
    });
  }

  // ---- look-back warp -------------------------------------------------------------------------
  __device__ void look_back_role() {
    const int lane = threadIdx.x & 31;
    long long known = -1;       // the block's previous tile
    T known_inclusive = op_.identity();  // and its inclusive prefix
    each_tile([&](int s, unsigned parity, long long tile) {
      const T exclusive = tile == 0    ? op_.identity()
                          : known < 0  ? look_back(tile)
                                       : look_forward(tile, known, known_inclusive);
      mbar_wait(&s_.reduced[s], parity);
      const T inclusive = op_(exclusive, s_.aggregate[s]);
      if (lane == 0) {
        store_packed_descriptor(b_.descriptors.ptr, tile, descriptor_flag_word(knobs_.epoch, TileFlag::P), inclusive);
        rec_.publish(tile, TileFlag::P, inclusive);
        s_.prefix[s] = exclusive;
      }
      mbar_arrive(&s_.prefixed[s]);  // every lane: each has read the stage's id and aggregate
      known = tile;
      known_inclusive = inclusive;
    });
  }

  // The exclusive prefix of the block's first tile (> 0): windows of 32 * kPipeRows predecessors,
  // nearest first (lane l of row r reads tile end-1-(32r+l)), to the nearest P. A window with an X
  // before its nearest P is polled again, with the tile kernels' backoff and bounded wait.
  __device__ T look_back(long long tile) {
    const int lane = threadIdx.x & 31;
    T exclusive = op_.identity();
    std::uint64_t wait_start = 0;
    unsigned sleep_ns = 0;
    for (long long end = tile;;) {
      TileFlag flag[kPipeRows];
      T value[kPipeRows];
#pragma unroll
      for (int r = 0; r < kPipeRows; ++r) {
        const long long target = end - 1 - (32 * r + lane);
        flag[r] = TileFlag::X;
        value[r] = op_.identity();
        if (target >= 0)
          flag[r] = descriptor_flag(knobs_.epoch, load_packed_descriptor(b_.descriptors.ptr, target, value[r]));
      }
      // The nearest P: the first row that has one, its lowest lane (32 * stop_row + stop_lane).
      int stop = 32 * kPipeRows;
      bool blocked = false;
#pragma unroll
      for (int r = kPipeRows - 1; r >= 0; --r) {
        const bool valid = end - 1 - (32 * r + lane) >= 0;
        const unsigned pmask = __ballot_sync(kFullMask, valid && flag[r] == TileFlag::P);
        if (pmask) stop = 32 * r + __ffs(pmask) - 1;
      }
#pragma unroll
      for (int r = 0; r < kPipeRows; ++r) {
        const bool valid = end - 1 - (32 * r + lane) >= 0;
        blocked |= __any_sync(kFullMask, valid && 32 * r + lane < stop && flag[r] == TileFlag::X) != 0;
      }
      if (blocked) {
        if (!spin(tile, wait_start, sleep_ns)) return exclusive;  // the error flag is set
        continue;
      }
      // The window's value: rows from the stop's (or the last) down to row 0, earlier on the left.
      T window = op_.identity();
#pragma unroll
      for (int r = kPipeRows - 1; r >= 0; --r) {
        if (32 * r > stop) continue;  // warp-uniform
        const bool used = end - 1 - (32 * r + lane) >= 0 && 32 * r + lane <= stop;
        T v = used ? value[r] : op_.identity();
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const T earlier = shfl_down(v, d);
          if (lane + d < 32) v = op_(earlier, v);
        }
        window = op_(window, shfl_idx(v, 0));
      }
      exclusive = op_(window, exclusive);
      if (stop < 32 * kPipeRows) return exclusive;
      end -= 32 * kPipeRows;
      wait_start = 0;
      sleep_ns = 0;
    }
  }

  // The exclusive prefix of `tile`, from the block's previous tile `known` (whose inclusive prefix
  // it knows) forward: a poll reads the next 32 * kPipeRows descriptors before `tile` (lane l of row
  // r: tile f+32r+l) and takes the run of them up to the first X: from its last P on (an inclusive
  // prefix, which replaces what came before), else all of it after what it has. A poll that stops
  // at an X is followed by another from there, after the backoff. The older part of the gap, ready
  // long ago, costs no waiting; only the tiles next to `tile`, taken with it, are polled again.
  __device__ T look_forward(long long tile, long long known, const T& known_inclusive) {
    const int lane = threadIdx.x & 31;
    T run = known_inclusive;
    std::uint64_t wait_start = 0;
    unsigned sleep_ns = 0;
    for (long long f = known + 1; f < tile;) {
      TileFlag flag[kPipeRows];
      T value[kPipeRows];
#pragma unroll
      for (int r = 0; r < kPipeRows; ++r) {
        const long long target = f + 32 * r + lane;
        flag[r] = TileFlag::X;
        value[r] = op_.identity();
        if (target < tile)
          flag[r] = descriptor_flag(knobs_.epoch, load_packed_descriptor(b_.descriptors.ptr, target, value[r]));
      }
      const long long count = tile - f < 32 * kPipeRows ? tile - f : 32 * kPipeRows;
      // The run: up to the first X (or all `count`); its last P.
      int len = static_cast<int>(count);
#pragma unroll
      for (int r = kPipeRows - 1; r >= 0; --r) {
        const unsigned xmask = __ballot_sync(kFullMask, 32 * r + lane < count && flag[r] == TileFlag::X);
        if (xmask) len = 32 * r + __ffs(xmask) - 1;
      }
      int last_p = -1;
#pragma unroll
      for (int r = 0; r < kPipeRows; ++r) {
        const unsigned pmask = __ballot_sync(kFullMask, 32 * r + lane < len && flag[r] == TileFlag::P);
        if (pmask) last_p = 32 * r + 31 - __clz(pmask);
      }
      if (len > 0) {
        T part = op_.identity();  // the run's values from its last P (or its start) on, in tile order
#pragma unroll
        for (int r = 0; r < kPipeRows; ++r) {
          if (32 * r >= len || 32 * r + 31 < last_p) continue;  // warp-uniform
          const int i = 32 * r + lane;
          T v = i < len && i >= last_p ? value[r] : op_.identity();
#pragma unroll
          for (int d = 1; d < 32; d *= 2) {
            const T later = shfl_down(v, d);
            if (lane + d < 32) v = op_(v, later);
          }
          part = op_(part, shfl_idx(v, 0));
        }
        run = last_p >= 0 ? part : op_(run, part);
        f += len;
        wait_start = 0;
        sleep_ns = 0;
      }
      if (len < count && !spin(tile, wait_start, sleep_ns)) break;  // the error flag is set
    }
    return run;
  }

  __device__ bool spin(long long tile, std::uint64_t& wait_start, unsigned& sleep_ns) {
    return look_back_backoff(tile, wait_start, sleep_ns, knobs_, diag_);
  }

  // ---- store warps ----------------------------------------------------------------------------
  __device__ void store_role(int w) {
    const int lane = threadIdx.x & 31;
    T* out = static_cast<T*>(b_.out.ptr);
    each_tile([&](int s, unsigned parity, long long tile) {
      mbar_wait(&s_.prefixed[s], parity);
      T run = s_.prefix[s];  // everything before this lane's elements of the current chunk
      for (int k = 0; k < w; ++k) run = op_(run, s_.totals[s][k]);
      const bool vector = full_aligned(out, tile);
      const std::int64_t seg = tile_begin(tile) + w * 32 * Items;
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        unpack16(*reinterpret_cast<const uint4*>(chunk_of(s, w, k)), v);
#pragma unroll
        for (int j = 1; j < V; ++j) v[j] = op_(v[j - 1], v[j]);
        T incl = v[V - 1];  // the lane's total, scanned across the warp
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const T left = shfl_up(incl, d);
          if (lane >= d) incl = op_(left, incl);
        }
        const T before = shfl_up(incl, 1);
        const T pre = lane == 0 ? run : op_(run, before);
        T r[V];
        if (p_.exclusive) {
          r[0] = pre;
#pragma unroll
          for (int j = 1; j < V; ++j) r[j] = op_(pre, v[j - 1]);
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j) r[j] = op_(pre, v[j]);
        }
        const std::int64_t at = seg + (k * 32 + lane) * V;
        if (vector) {
          store16<T, false>(out + at, pack16(r));
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j)
            if (at + j < p_.n) out[at + j] = r[j];
        }
        run = op_(run, shfl_idx(incl, 31));
      }
      fence_async_shared();  // the stage's generic reads before the next bulk copy into it
      mbar_arrive(&s_.empty[s]);
    });
  }

  Op op_;
  const DeviceParams& p_;
  const DeviceBuffers& b_;
  Recorder rec_;
  TileDiag* diag_;
  TileKnobs knobs_;
  int stages_;
  PipeShared<T>& s_;
  T* stage_;
};

// One launch: kPipeThreads threads a block, `stages` * 24 KB of dynamic shared memory (the host
// launches no more blocks than the device holds at once, and only on sm_90 on: built for an older
// GPU the kernel is empty).
template <class Op, class Recorder>
__global__ void __launch_bounds__(kPipeThreads, kPipeMinBlocks)
    pipe_kernel(Op op, DeviceParams p, DeviceBuffers b, typename Recorder::Args rec, TileDiag* diag, TileKnobs knobs,
                int stages) {
#if SV_PIPE
  using T = typename Op::value_type;
  __shared__ PipeShared<T> shared;
  extern __shared__ __align__(128) unsigned char sv_pipe_stage[];
  PipeBlock<Op, Recorder>(op, p, b, rec, diag, knobs, stages, shared, reinterpret_cast<T*>(sv_pipe_stage)).run();
#endif
}
#undef SV_PIPE

}  // namespace sv::gpu
