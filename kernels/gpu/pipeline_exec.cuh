// Pipelined decoupled look-back (GPU only, sm_90 on; TilePolicy::stages; the default's kernel from 9
// tiles a multiprocessor up, DeviceScanSum::policy_at):
// the scan of kernels/device/decoupled_lookback.hpp (tile ids from a counter; each tile publishes its
// aggregate (A), finds its exclusive prefix from its predecessors' descriptors, publishes its
// inclusive prefix (P) and scans its tile seeded with it), on another schedule: one block a
// multiprocessor, of 736 threads, whose warps keep one role each. A tile lives in a slot (its id,
// aggregate and prefix; kPipeSlots of them) and its elements first in a stage (`stages` of 24 KB).
//
//   load warp       once a slot and a stage are free, takes a tile id and copies the tile into the
//                   stage, a bulk copy (cp.async.bulk) a quarter (guarded loads for a partial tile
//                   or an unaligned input);
//   reduce warps    (4) warp w sums quarter w as soon as it has arrived; the tile's A is published
//                   as soon as all four have, never waiting on the tile before;
//   store groups    (4 of 4 warps) group g takes tiles i = g, g + 4, ...: it reads the tile from
//                   the stage into registers, which frees the stage, then waits for the exclusive
//                   prefix, scans and stores from registers;
//   look-back warps (2) warp g takes tiles i = g, g + 2, ...: it sums the descriptors between the
//                   block's tile before and this one (one poll of 160 reads, again from the first X
//                   after a backoff), meanwhile the other warp finishes the tile before; then that
//                   tile's inclusive prefix from shared memory (carry) completes its own: P. The
//                   block's first tile looks back to the nearest P, 160 descriptors a poll.
//
// Why: the one-tile-a-block kernel holds each 24 KB tile in shared memory through its look-back,
// and by Little's law the tiles' life sets the pace; 9 blocks' tiles fill shared memory. Here a
// tile's look-back waits in registers, which the tile kernels fill with code: 9 stages and 4 held
// tiles a multiprocessor. A look-back warp of its own for each tile (one warp for all of them
// queues its polls) and one poll for the whole gap between a block's tiles keep the look-back off
// the critical path. Descriptors are published by an atomic exchange (store_packed_descriptor): a
// store waits behind the multiprocessor's output stores, the exchange does not seem to.
// What is left at mid sizes (about 2^24) is a fixed cost of this schedule (the launch, the first
// tile id, the blocks' ends), not the chain of prefixes: the tiles-alone baseline, which skips the
// look-back (TileKnobs::alone), is short of the copy there too. More look-back warps,
// tile ids taken several at a time, L2 prefetches far ahead, store groups scanning before the
// prefix and a cap on the bulk copies in flight were all measured and none was faster:
// docs/performance.md has the figures.
//
// Handoffs are mbarriers in shared memory. A slot's tile i completes phase i / kPipeSlots of the
// slot's barriers (parity & 1): id (the load warp wrote the tile id), reduced (the aggregate is in
// shared memory), prefixed (the exclusive prefix is), carried (the inclusive prefix, for the next
// look-back warp), done (the store group has read the slot). A stage's: full (a quarter arrived,
// one barrier a quarter), vacant (the reduce warps and the store group have read it). A tile id
// past the last tile ends every role (once for each group and look-back warp). Every lane that
// reads or writes shared memory of a stage or slot arrives itself: compute-sanitizer's racecheck
// credits an arrival to the arriving thread only (a scratch test of six handoffs on the H200: a
// chain of two mbarriers and a bulk copy's complete_tx are credited, a __syncwarp or __shfl_sync
// before lane 0's arrival is not). A stage is written by the copies or, for a partial tile, by the
// load warp, with proxy fences (fence_async_shared) on both sides of those writes and before the
// reduce warps and store groups free it.
//
// No deadlock, whatever the blocks resident: a tile is taken only into a free slot and stage, its
// copy and aggregate wait on nothing, a stage frees once its tile is read, and a slot once its
// tile's prefix is known, which needs the aggregates of earlier tiles only, all taken into slots of
// running blocks, and the prefix of the block's tile before, earlier in the same chain.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "device/device_params.hpp"
#include "gpu/device_util.cuh"
#include "gpu/ptx.cuh"
#include "gpu/tile_descriptors.cuh"
#include "gpu/tile_policy.cuh"
#include "gpu/tile_recorders.cuh"

namespace sv::gpu {

inline constexpr int kPipeWarps = 4;       // reduce warps, and the warps of a store group
inline constexpr int kPipeGroups = 4;      // store groups: tiles held in registers through their look-back
inline constexpr int kPipeLookBacks = 2;   // look-back warps
inline constexpr int kPipeThreads = (kPipeWarps * (1 + kPipeGroups) + 1 + kPipeLookBacks) * 32;  // + the load warp
inline constexpr int kPipeMaxStages = 9;   // 9 x 24 KB fit sm_90's 227 KB
// A store group waits on a stage's barrier for every 4th tile, by parity: with fewer stages than
// groups the stage's barrier could run two phases past the group's last wait, and a parity wait
// cannot tell those phases apart (the group would read a tile that has not landed).
inline constexpr int kPipeMinStages = kPipeGroups;
inline constexpr int kPipeSlots = 16;      // tiles a block has taken and not stored: at most stages + groups
inline constexpr int kPipeRows = 5;        // descriptors a lane reads a poll: 160, more than the
                                           // multiprocessors, so one poll covers the gap between a
                                           // block's tiles

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
  unsigned long long id[kPipeSlots], reduced[kPipeSlots], prefixed[kPipeSlots], done[kPipeSlots], carried[kPipeSlots];
  long long prev[kPipeSlots];  // the block's tile before
  T carry[kPipeSlots];         // the tile's inclusive prefix, for the block's next tile
  unsigned long long full[kPipeMaxStages][kPipeWarps], vacant[kPipeMaxStages];
  long long tile[kPipeSlots];
  T totals[kPipeSlots][kPipeWarps];  // the reduce warps' quarter totals
  T aggregate[kPipeSlots];
  T prefix[kPipeSlots];  // the tile's exclusive prefix
};

template <class Op, class Recorder>
class PipeBlock {
  static constexpr int G = kPipeGroups;
  static constexpr int L = kPipeLookBacks;
 public:
  using T = typename Op::value_type;
  static constexpr int Items = pipe_items<T>();
  static constexpr int V = vector_width<T>();
  static constexpr int Chunks = Items / V;
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "packed descriptors: 4- and 8-byte values");
  static_assert(Items % V == 0);
  // The reduce warps combine a tile's elements in any order (reduce_role), which only a commutative
  // operator allows: the operators of numbers are; (flag, value) pairs and intervals are not.
  static_assert(std::is_arithmetic_v<T>, "the pipelined reduce needs a commutative operator: numbers only");

  __device__ PipeBlock(Op op, const DeviceParams& p, const DeviceBuffers& b, const typename Recorder::Args& rec,
                       TileDiag* diag, const TileKnobs& knobs, int stages, PipeShared<T>& s, T* stage)
      : op_(op), p_(p), b_(b), rec_(rec), diag_(diag), knobs_(knobs), stages_(stages), s_(s), stage_(stage) {}

  __device__ void run() {
    const int warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) {
      for (int i = 0; i < kPipeSlots; ++i) {
        mbar_init(&s_.id[i], 1);
        mbar_init(&s_.reduced[i], kPipeWarps * 32);
        mbar_init(&s_.prefixed[i], 32);
        mbar_init(&s_.done[i], kPipeWarps * 32);
        mbar_init(&s_.carried[i], 32);
      }
      for (int i = 0; i < stages_; ++i) {
        for (int w = 0; w < kPipeWarps; ++w) mbar_init(&s_.full[i][w], 32);
        mbar_init(&s_.vacant[i], 2 * kPipeWarps * 32);
      }
      asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp < kPipeWarps) reduce_role(warp);
    else if (warp < (1 + G) * kPipeWarps) store_role((warp - kPipeWarps) % kPipeWarps, (warp - kPipeWarps) / kPipeWarps);
    else if (warp == (1 + G) * kPipeWarps) load_role();
    else look_back_role(warp - (1 + G) * kPipeWarps - 1);
  }

 private:
  __device__ T* stage_of(int s) const { return stage_ + static_cast<std::int64_t>(s) * pipe_tile_items<T>(); }
  // This lane's V elements of chunk k of warp segment w in stage s.
  __device__ const T* chunk_of(int s, int w, int k) const {
    return stage_of(s) + w * 32 * Items + (k * 32 + static_cast<int>(threadIdx.x & 31)) * V;
  }
  // Runs body(i, tile) for the block's tiles i = first, first + step, ... (slot i % kPipeSlots, stage
  // i % stages_), once the load warp has written the slot's tile id; returns at the id past the last.
  template <class F>
  __device__ void each_tile(F&& body, int first = 0, int step = 1) {
    for (int i = first;; i += step) {
      mbar_wait(&s_.id[i % kPipeSlots], (i / kPipeSlots) & 1);
      const long long tile = s_.tile[i % kPipeSlots];
      if (tile >= p_.tiles) return;
      body(i, tile);
    }
  }
  __device__ unsigned stage_parity(int i) const { return (i / stages_) & 1; }
  __device__ unsigned slot_parity(int i) const { return (i / kPipeSlots) & 1; }
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
  // A tile id is taken only once its slot and stage are free: a tile taken ahead, waiting for a
  // stage, stays X for that long and holds up the look-back of every tile after it.
  __device__ void load_role() {
    const int lane = threadIdx.x & 31;
    const T* in = static_cast<const T*>(b_.in.ptr);
    constexpr unsigned piece_bytes = static_cast<unsigned>(pipe_tile_items<T>() * sizeof(T) / kPipeWarps);
    constexpr std::int64_t piece_items = pipe_tile_items<T>() / kPipeWarps;
    constexpr int kEnds = G > L ? G : L;  // the end id, once for each group of a role
    long long last = -1;
    for (int i = 0, ends = 0;; ++i) {
      const int s = i % stages_;
      const int slot = i % kPipeSlots;
      if (i >= kPipeSlots) mbar_wait(&s_.done[slot], slot_parity(i - kPipeSlots));
      if (i >= stages_) mbar_wait(&s_.vacant[s], stage_parity(i - stages_));
      long long tile = 0;
      if (lane == 0) {
        s_.prev[slot] = last;
        tile = ends ? p_.tiles : take_id();
        last = tile;
        s_.tile[slot] = tile;
        mbar_arrive(&s_.id[slot]);
      }
      tile = __shfl_sync(kFullMask, tile, 0);
      if (tile >= p_.tiles) {
        if (++ends == kEnds) return;
        continue;
      }
      if (full_aligned(in, tile)) {
        for (int w = 0; w < kPipeWarps; ++w) {
          if (lane == 0)
            bulk_load(stage_of(s) + w * piece_items, in + tile_begin(tile) + w * piece_items, piece_bytes,
                      &s_.full[s][w], knobs_.l2_last);
          else
            mbar_arrive(&s_.full[s][w]);
        }
      } else {  // the last, partial tile or an unaligned input: element by element, the identity past n
        T* dst = stage_of(s);
        fence_async_shared();  // after an earlier round's bulk copy into this stage
        for (std::int64_t j = lane; j < pipe_tile_items<T>(); j += 32) {
          const std::int64_t g = tile_begin(tile) + j;
          dst[j] = g < p_.n ? in[g] : op_.identity();
        }
        fence_async_shared();  // before a later round's bulk copy into it
        for (int w = 0; w < kPipeWarps; ++w) mbar_arrive(&s_.full[s][w]);
      }
    }
  }

  // ---- reduce warps ---------------------------------------------------------------------------
  __device__ void reduce_role(int w) {
    const int lane = threadIdx.x & 31;
    each_tile([&](int i, long long tile) {
      const int s = i % stages_;
      const int slot = i % kPipeSlots;
      mbar_wait(&s_.full[s][w], stage_parity(i));
      if (lane == 0) rec_.role(TileEventKind::Landed, tile);
      // The lane's elements in any order, then the warp's lanes (a commutative operator: see the
      // static_assert above).
      T total = op_.identity();
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        unpack16(*reinterpret_cast<const uint4*>(chunk_of(s, w, k)), v);
#pragma unroll
        for (int j = 0; j < V; ++j) total = op_(total, v[j]);
      }
      fence_async_shared();  // the stage's generic reads before the next bulk copy into it
      mbar_arrive(&s_.vacant[s]);
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) total = op_(total, shfl_down(total, d));
      if (lane == 0) s_.totals[slot][w] = total;
      reduce_warps_sync();
      if (w == 0 && lane == 0) {
        T aggregate = s_.totals[slot][0];
#pragma unroll
        for (int k = 1; k < kPipeWarps; ++k) aggregate = op_(aggregate, s_.totals[slot][k]);
        s_.aggregate[slot] = aggregate;
        if (tile > 0) {
          store_packed_descriptor(b_.descriptors.ptr, tile, descriptor_flag_word(knobs_.epoch, TileFlag::A), aggregate);
          rec_.publish(tile, TileFlag::A, aggregate);
        }
      }
      mbar_arrive(&s_.reduced[slot]);  // every lane: each has read the slot
    });
  }

  // ---- look-back warps ------------------------------------------------------------------------
  // Warp g takes the block's tiles i = g, g + L, ...: it sums the descriptors between the block's
  // tile before and this one (while that one's own look-back runs in another warp), then takes
  // that tile's inclusive prefix from shared memory (carry) and hands on its own.
  __device__ void look_back_role(int g) {
    const int lane = threadIdx.x & 31;
    each_tile([&](int i, long long tile) {
      const int s = i % kPipeSlots;
      const unsigned parity = slot_parity(i);
      if (lane == 0) rec_.role(TileEventKind::LookBack, tile);
      T exclusive = op_.identity();
      if (knobs_.alone) {
        // the tiles-alone baseline: no look-back
      } else if (i == 0) {
        if (tile > 0) exclusive = look_back(tile);
      } else {
        bool from_p = false;
        const T gap = look_forward(tile, s_.prev[s], from_p);
        const int c = (i - 1) % kPipeSlots;  // the tile before's carry
        mbar_wait(&s_.carried[c], slot_parity(i - 1));
        exclusive = from_p ? gap : op_(s_.carry[c], gap);
      }
      mbar_wait(&s_.reduced[s], parity);
      const T inclusive = op_(exclusive, s_.aggregate[s]);
      if (lane == 0) {
        store_packed_descriptor(b_.descriptors.ptr, tile, descriptor_flag_word(knobs_.epoch, TileFlag::P), inclusive);
        rec_.publish(tile, TileFlag::P, inclusive);
        s_.prefix[s] = exclusive;
        s_.carry[s] = inclusive;
      }
      mbar_arrive(&s_.prefixed[s]);  // every lane: each has read the slot's id and aggregate
      mbar_arrive(&s_.carried[s]);
    }, g, L);
  }

  // The exclusive prefix of the block's first tile (> 0): windows of 32 * kPipeRows predecessors,
  // nearest first (lane l of row r reads tile end-1-(32r+l)), to the nearest P. A window with an X
  // before its nearest P is polled again, with the tile kernels' backoff and bounded wait.
  __device__ T look_back(long long tile) {
    const int lane = threadIdx.x & 31;
    T exclusive = op_.identity();
    std::uint64_t wait_start = 0;
    unsigned sleep_ns = 0;
    std::uint32_t polls = 0;  // of this window that were blocked (traced)
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
      // Traced as the tile kernels trace a window: its reads once it is used (up to the stop), with
      // the polls that were blocked before; a Wait at the first blocked poll.
      if constexpr (Recorder::kTraced) {
        if (!blocked) {
#pragma unroll
          for (int r = 0; r < kPipeRows; ++r)
            if (end - 1 - (32 * r + lane) >= 0 && 32 * r + lane <= stop)
              rec_.inspect(tile, end - 1 - (32 * r + lane), flag[r], value[r], polls);
        } else if (polls == 0) {  // the nearest X before the stop
          int x = 32 * kPipeRows;
#pragma unroll
          for (int r = kPipeRows - 1; r >= 0; --r) {
            const bool valid = end - 1 - (32 * r + lane) >= 0;
            const unsigned xmask = __ballot_sync(kFullMask, valid && 32 * r + lane < stop && flag[r] == TileFlag::X);
            if (xmask) x = 32 * r + __ffs(xmask) - 1;
          }
          if (lane == 0) rec_.wait(tile, end - 1 - x, TileFlag::X, polls);
        }
      }
      if (blocked) {
        ++polls;
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
      polls = 0;
    }
  }

  // The descriptors strictly between the block's tile before (`known`) and `tile`, combined: a poll
  // reads the next 32 * kPipeRows of them (lane l of row r: tile f+32r+l) and takes the run up to
  // the first X: from its last P on (an inclusive prefix, which replaces what came before; `from_p`
  // is then set and the result is the exclusive prefix itself), else all of it after what it has.
  // A poll that stops at an X is followed by another from there, after the backoff. The older part
  // of the gap, ready long ago, costs no waiting; only the tiles next to `tile`, taken with it, are
  // polled again.
  __device__ T look_forward(long long tile, long long known, bool& from_p) {
    const int lane = threadIdx.x & 31;
    T run = op_.identity();
    from_p = false;
    std::uint64_t wait_start = 0;
    unsigned sleep_ns = 0;
    std::uint32_t polls = 0;  // from this f that were blocked (traced)
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
      if constexpr (Recorder::kTraced) {  // the run's reads, and a Wait at the first blocked poll
#pragma unroll
        for (int r = 0; r < kPipeRows; ++r)
          if (32 * r + lane < len) rec_.inspect(tile, f + 32 * r + lane, flag[r], value[r], polls);
        if (len < count && polls == 0 && lane == 0) rec_.wait(tile, f + len, TileFlag::X, polls);
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
        if (last_p >= 0) from_p = true;
        run = last_p >= 0 ? part : op_(run, part);
        f += len;
        wait_start = 0;
        sleep_ns = 0;
        polls = 0;
      }
      if (len < count) {
        ++polls;
        if (!spin(tile, wait_start, sleep_ns)) break;  // the error flag is set
      }
    }
    return run;
  }

  __device__ bool spin(long long tile, std::uint64_t& wait_start, unsigned& sleep_ns) {
    return look_back_backoff(tile, wait_start, sleep_ns, knobs_, diag_);
  }

  // ---- store groups ---------------------------------------------------------------------------
  // A group's tile waits in its registers: the stage is free once the tile is read, and the
  // group holds the tile through its look-back.
  __device__ void store_role(int w, int g) {
    const int lane = threadIdx.x & 31;
    T* out = static_cast<T*>(b_.out.ptr);
    each_tile([&](int i, long long tile) {
      const int s = i % stages_;
      const int slot = i % kPipeSlots;
      mbar_wait(&s_.full[s][w], stage_parity(i));
      uint4 held[Chunks];
#pragma unroll
      for (int k = 0; k < Chunks; ++k) held[k] = *reinterpret_cast<const uint4*>(chunk_of(s, w, k));
      fence_async_shared();  // the stage's generic reads before the next bulk copy into it
      // Traced before the arrival, so no tile is taken into this stage before its Held time.
      if (w == 0 && lane == 0) rec_.role(TileEventKind::Held, tile);
      mbar_arrive(&s_.vacant[s]);
      mbar_wait(&s_.prefixed[slot], slot_parity(i));
      if (w == 0 && lane == 0) rec_.role(TileEventKind::Store, tile);
      T run = s_.prefix[slot];  // everything before this lane's elements of the current chunk
      for (int k = 0; k < w; ++k) run = op_(run, s_.totals[slot][k]);
      mbar_arrive(&s_.done[slot]);  // every lane: each has read the slot
      const bool vector = full_aligned(out, tile);
      const std::int64_t seg = tile_begin(tile) + w * 32 * Items;
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        unpack16(held[k], v);
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
      if (w == 0 && lane == 0) rec_.end(tile);  // the group's first warp has stored its quarter
    }, g, G);
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

// One launch: kPipeThreads threads a block, `stages` * 24 KB of dynamic shared memory, one block a
// multiprocessor (the host launches no more blocks than the device holds at once, and only on sm_90
// on: built for an older GPU the kernel is empty).
template <class Op, class Recorder>
__global__ void __launch_bounds__(kPipeThreads, 1)
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
