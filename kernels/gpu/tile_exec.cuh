// The GPU tile-level execution context of the device-wide scans (kernels/device/): the API that
// device/device_params.hpp documents, on real hardware. One block runs one tile (a persistent
// block, measured but no default, one tile after another).
//
// TileExec<T, Recorder, Items, Streaming, Staged, Persistent, Bulk> (a TileConfig names the
// compile-time policy):
//   T          the scan value type;
//   Recorder   NoRecorder (untraced: every hook is an empty inline function, so the timed kernels
//              carry no tracing code) or TileRecorder (appends TileEvents with %globaltimer time and
//              the SM id to a bounded device buffer; the counter may run past the capacity, which
//              the host reports) or TileClock (untraced, three times a tile for the benchmark);
//   Items      elements per thread, a compile-time constant (default_items_per_thread of the type);
//   Streaming  the evict-first hints on the element loads and stores (ld/st.global.cs; staged, the
//              copies into shared memory carry an L2 evict-first policy);
//   Staged     the tile waits for its loads in shared memory (cp.async) rather than in registers;
//   Persistent a block scans tiles until none is left, the next tile's copies issued as the last
//              one's outputs are stored (staged, untraced, dynamic tile ids only);
//   Bulk       1: a full tile's loads are one bulk copy (cp.async.bulk, sm_90 on), 2: its stores too.
//
// Tile layout (warp-striped, coalesced): warp w of the block owns the contiguous segment
// [tile_begin + w*32*Items, +32*Items). The segment is read in Items/V chunks of 32*V elements, V =
// 16 bytes / sizeof(T) (4 for 32-bit values, 2 for 64-bit, 1 for the 20-byte interval): in chunk k,
// lane l holds the V contiguous elements seg + (k*32 + l)*V .. +V-1, one 16-byte access when the
// tile is full and the buffer aligned, else guarded scalar loads with the identity past n. Staged,
// the same layout is mirrored in shared memory and each lane reads back only what it copied.
//
// The scan works in that layout and keeps operand order everywhere (the interval operator is not
// commutative; the earlier element is always the left operand): per chunk a lane-local scan of its
// V elements, an ordered warp scan (shfl_up) of the lane totals and a carry from chunk to chunk; the
// warp totals go through shared memory for the block. reduce_tile does this local scan once and keeps
// it in the items (the tile's aggregate falls out of it); scan_store_tile then only combines the
// tile's prefix with each element's local prefix, so a single-pass tile is scanned once, not twice.
// Staged, the local scan is written back over the staged elements (each lane its own 16-byte
// pieces), so no register holds it across the look-back: under the 32-register bound of the default
// policy, keeping each chunk's prefix in registers spilled them to local memory (ptxas: 24-40 bytes
// of spill stores a thread), and those spills reached DRAM.
//
// Descriptors (single-pass scans), one per tile: for 4-byte values with the fence on, the flag and
// the value are one 64-bit word (flag << 32 | value bits), stored and loaded whole; for 8-byte
// values one 16-byte word (flag word, value; see packed_descriptors); otherwise three
// arrays, the aggregates (A), the inclusive prefixes (P) and the flags: the writer stores the value
// in the slot of its flag, __threadfence(), then the flag; the reader loads the flag,
// __threadfence(), then the value from the slot of the flag it saw (one shared value slot would let
// a reader that saw A read the P stored after it). fence=off drops both fences, so a reader can see
// the flag before the value. X = 0, so zeroed memory is "nothing published". Descriptor accesses are
// relaxed at GPU scope (ld/st.relaxed.gpu), which the compiler neither caches nor reorders.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "device/device_params.hpp"
#include "gpu/device_util.cuh"
#include "trace/tile_event.hpp"

namespace sv::gpu {

// The bounded wait of a look-back: a tile that polled its predecessors this long gives up, sets the
// error flag and carries on (so no block hangs); the host then reports the tile.
inline constexpr std::uint64_t kSpinLimitNs = 2'000'000'000ull;

// What a tile kernel reports to the host besides its output.
struct TileDiag {
  unsigned int failed;  // 1 once some tile's bounded wait ran out
  long long tile;       // the first such tile
  unsigned long long waited_ns;
};

// The tile-level trace of a traced run: events appended with an atomic counter.
struct TileTraceState {
  unsigned long long counter;
  unsigned long long capacity;
  TileEvent* events;
};

// Elements per thread of the tile kernels for a value type (kernels/device/device_options.cpp
// default_items_per_thread, which the host checks against).
// Numbers (int32, float; int64, double) take 24 KB tiles; the 8-byte (flag, int32) pairs of a
// segmented scan keep 8 items and the larger values (intervals, their pairs) 4.
template <class T>
constexpr int tile_items_per_thread() {
  if constexpr (sizeof(T) == 4) return 24;
  else if constexpr (sizeof(T) == 8) return std::is_arithmetic_v<T> ? 12 : 8;
  else return 4;
}
// Whether the single-pass kernels of T take the 32-register bound (see DefaultTileConfig).
template <class T>
constexpr bool tile_register_bound() {
  return std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
}

// Elements of one 16-byte vector access (1 where the type does not divide 16 bytes).
template <class T>
constexpr int vector_width() {
  return 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;
}

// ---------------------------------------------------------------------------------------------
// Descriptor layout, shared by the host (sizes, memset) and the kernels.
// ---------------------------------------------------------------------------------------------

// Packed, the flag and the value are one aligned word stored and loaded whole: 8 bytes for 4-byte
// values, 16 (flag word, value) for 8-byte ones, as CUB's ScanTileState packs them. The 16-byte
// word is one access (ld/st.relaxed.gpu.v2.u64) that CUB too relies on being seen whole, though
// PTX promises single-copy atomicity only up to 8 bytes; the GPU tests check every output.
//
// Measured on an H100 (driver 580.159.04, median of 20) before 8-byte values were packed: their
// look-back paid a fence per descriptor written and read, and the int64 sum ran at 47-48% of the
// copy from 2^24 up, 0.52-0.56x CUB (which packs them and ran at 86-90%).
template <class T>
SV_HD constexpr bool packed_descriptors(bool fence) {
  return (sizeof(T) == 4 || sizeof(T) == 8) && fence;
}
template <class T>
SV_HD constexpr std::int64_t packed_descriptor_bytes() {
  return sizeof(T) == 4 ? 8 : 16;
}

// Unpacked descriptors: the aggregates of all tiles, their inclusive prefixes, then their flags,
// each array 16-byte aligned.
template <class T>
SV_HD constexpr std::int64_t value_array_bytes(std::int64_t tiles) {
  return (tiles * static_cast<std::int64_t>(sizeof(T)) + 15) / 16 * 16;
}
// Bytes of the descriptors of `tiles` tiles.
template <class T>
SV_HD constexpr std::int64_t descriptor_bytes(std::int64_t tiles, bool fence) {
  if (packed_descriptors<T>(fence)) return tiles * packed_descriptor_bytes<T>();
  return 2 * value_array_bytes<T>(tiles) + tiles * 4;
}

// Run-time knobs. The look-back's polling sleeps backoff_min_ns after the first poll that must
// wait, doubling up to backoff_max_ns (0: poll without sleeping). prefetch: with dynamic tile ids, a
// block asks L2 for the tile of its own index while its tile id is on the way; blocks start nearly
// in index order, so that is usually its tile, and otherwise one that another block takes at about
// the same time, so the prefetch is seldom wasted.
//
// Measured on an H200 (decoupled look-back, int32 sum, n = 2^28, 256 x 16 staged): the prefetch
// took 306-313 G items/s to 372-374; the backoff's cap (0, 64, 256, 1024 ns) moved nothing beyond
// noise; prefetching one wave of tiles ahead as well (the blocks resident) lost 50 G items/s, and
// starting the guessed tile's copies into shared memory instead of an L2 prefetch lost 70.
//
// epoch: descriptors are not zeroed before each run. A flag word is (epoch << 2 | flag), and a word
// of another epoch reads as X, so a run needs no memset launch: the host zeroes the descriptors once
// (epoch 0) and counts the epoch up by one a run. The tile counter is not zeroed either: it counts
// on from run to run, and a block's tile is the counter's value less tile_base, the tiles that the
// runs since the last zeroing took (the host adds each grid). Epoch 0 with tile_base 0 is the plain
// scheme: descriptors and counter zeroed before every launch.
//
// An earlier version kept two counters and had block 0 zero the next run's: that one store made
// the 32-register int32 kernels spill 16 bytes (ptxas -v), and at 2^28 on an H200 the int32 sum
// fell from 440 to 416 G items/s (the binaries before and after, in one call, two rounds each).
//
// Measured on an H200 (driver 580.159.04, int32 sum, median of 20): without the memset, 2^16 ran
// 9.2 us instead of 9.9, 2^20 12.0 instead of 14.5, 2^22 20.2 instead of 24.7, 2^23 32.0 instead
// of 35.1 (CUB 24.5 and 34.8: the memset's launch had made the look-back 1% slower than CUB there),
// 2^24 51.6 instead of 55.3; from 2^25 to 2^30 0.2-2.6% faster.
struct TileKnobs {
  unsigned backoff_min_ns = 32;
  unsigned backoff_max_ns = 256;
  unsigned prefetch = 1;
  unsigned epoch = 0;
  unsigned long long tile_base = 0;
  unsigned hold_ns = 0;  // the tiles-alone baseline: how long a tile is held before it is stored
  // The input's L2 lines marked evict-last (the staged copies, the bulk copies and the L2 prefetch;
  // not the register loads of unstaged policies): see TilePolicy::l2_last.
  unsigned l2_last = 0;
  // The tiles-alone baseline on the pipelined kernel (pipeline_exec.cuh): no look-back, each tile
  // seeded with the identity, on the same schedule of loads, aggregates, handoffs and stores.
  unsigned alone = 0;
};
inline constexpr unsigned kMaxEpoch = (1u << 30) - 1;  // a flag word keeps 30 bits of epoch

// The compile-time tile policy: elements per thread, cache hints, the launch bounds (a block size
// bound and the blocks of that size per SM the registers must allow) and where the tile waits for
// its loads (shared memory or registers).
//
// Persistent (staged only): a single-pass kernel with dynamic tile ids launches only the blocks that
// fit on the device at once, and each block scans tile after tile: once a tile knows its prefix, the
// block takes the next tile and starts its copies chunk by chunk as it stores the tile's outputs
// (TileExec, persistent blocks).
//
// Measured slower than fresh blocks, so no default uses it (H200, driver 580.159.04, int32 sum,
// median of 20, two runs of one binary each with the default): 372-375 G items/s at 2^28 against
// 446-447, 297-307 at 2^24 against 320-328, 1-4% slower at 2^20-2^22; on an H100 293-296 at 2^28
// against 354 and 240-246 at 2^24 against 272-275. Two other schedules did worse (H200).
// Taking the next tile (and copying it into a second staging area) as soon as a tile is taken kept
// loads in flight during the look-back but halved the blocks a multiprocessor holds and published
// the next tile's aggregate only after the whole tile before it: tiles taken later by other blocks
// waited on it, 194-243 G items/s at 2^28 against 439-441. L2 prefetches of the tile a grid ahead
// while a tile looks back (about the one the block takes next): 339-343, where the same kernel
// without any prefetch ran 366-368. A fresh block asks L2 for the tile of its index while its tile
// id is on the way (TileKnobs::prefetch); a persistent block's copies wait for the id.
template <int ItemsPerThread, bool StreamingHints = false, int BoundThreads = 1024, int BoundBlocks = 1,
          bool StagedTiles = false, bool PersistentBlocks = false, int BulkCopies = 0>
struct TileConfig {
  static constexpr int kItems = ItemsPerThread;
  static constexpr bool kStreaming = StreamingHints;
  static constexpr int kMaxThreads = BoundThreads;
  static constexpr int kMinBlocks = BoundBlocks;
  static constexpr bool kStaged = StagedTiles;
  static constexpr bool kPersistent = PersistentBlocks;
  static constexpr int kBulk = BulkCopies;
  static_assert(!PersistentBlocks || StagedTiles, "persistent blocks stage their tiles");
  static_assert(BulkCopies == 0 || (StagedTiles && !PersistentBlocks && !StreamingHints),
                "bulk copies stage one tile a block, without cache hints");
};

// Staged tiles: the tile's elements travel global -> shared memory with cp.async (L2 only), so no
// register holds them while they are in flight, and the scan reads them chunk by chunk; a thread
// then needs few registers and more blocks (more bytes in flight) fit on a multiprocessor. Each
// thread reads back only the 16-byte pieces it copied itself, so no barrier is needed for them.
// cp.async and L2 cache policies came with sm_80: built for an older GPU (sm_75), the same calls
// copy through a register (ld.global.cg, then a shared store) and the group calls do nothing, so
// the staged kernels keep one source and stay correct there, only without the asynchronous copy.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define SV_CP_ASYNC 0
#else
#define SV_CP_ASYNC 1
#endif
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
#if SV_CP_ASYNC
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
#else
  *static_cast<uint4*>(smem) = __ldcg(static_cast<const uint4*>(gmem));
#endif
}
// The same with an L2 cache policy (Streaming: evict-first, the input is read once).
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem, unsigned long long policy) {
#if SV_CP_ASYNC
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(s), "l"(gmem), "l"(policy)
               : "memory");
#else
  (void)policy;
  cp_async16(smem, gmem);
#endif
}
// An L2 cache policy for whole accesses: evict-first (Streaming: the input is read once) or
// evict-last (TileKnobs::l2_last).
template <bool EvictLast>
__device__ __forceinline__ unsigned long long l2_policy() {
  unsigned long long policy = 0;
#if SV_CP_ASYNC
  if constexpr (EvictLast) asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
  else asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
#endif
  return policy;
}
// An L2 prefetch of the line at p, marked evict-last where asked (sm_80 on; a plain one before).
__device__ __forceinline__ void prefetch_l2_line(const void* p, bool evict_last) {
#if SV_CP_ASYNC
  if (evict_last) {
    asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(p));
    return;
  }
#endif
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
}
__device__ __forceinline__ void cp_async_commit() {
#if SV_CP_ASYNC
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
__device__ __forceinline__ void cp_async_wait_all() {
#if SV_CP_ASYNC
  asm volatile("cp.async.wait_group 0;" ::: "memory");
#endif
}
#undef SV_CP_ASYNC

// Bulk copies (sm_90 on; TileConfig::kBulk): one thread moves a whole tile between global and shared
// memory with the tensor memory accelerator (cp.async.bulk), so the 24 KB of a tile are one
// instruction instead of 1536 16-byte cp.async, and the loads and stores leave the load/store unit
// to the look-back's polls. A load completes on an mbarrier in shared memory (the bytes it expects
// are set by the thread that issues it; every thread waits on the barrier's phase 0); a store reads
// shared memory that the threads wrote (fence.proxy.async first, then a barrier) and the issuing
// thread waits until it has been read before the block may leave. Built for an older GPU, none of
// this is compiled and the tile takes the cp.async path.
//
// Measured no faster, so no default uses them (H200, driver 580.159.04, int32 sum, median of 20,
// two runs of one binary next to the default): the question was whether the look-back's polls wait
// behind the tiles' 16-byte copies in the load/store unit (half of a poll's time is its load).
// Bulk loads 448.1-448.5 G items/s at 2^28 against 452.6-453.3, 343.8-347.0 at 2^24 against
// 347.9-353.1; loads and stores 440.7-440.8 and 342.5-345.6; 512-thread blocks with bulk loads
// 453.2-453.4 and 349.3-350.2; bulk loads without the L2 prefetch 400.3-401.6 at 2^28.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define SV_BULK 0
#else
#define SV_BULK 1
#endif
inline constexpr bool kBulkBuilt = SV_BULK;
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void bulk_barrier_init(unsigned long long* bar) {
#if SV_BULK
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(shared_address(bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}
// Starts the copy of `bytes` (a multiple of 16; both addresses 16-byte aligned) into shared memory,
// its L2 lines marked evict-last where l2_last.
__device__ __forceinline__ void bulk_load(void* smem, const void* gmem, unsigned bytes, unsigned long long* bar,
                                          bool l2_last = false) {
#if SV_BULK
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes) : "memory");
  if (l2_last)
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
            shared_address(smem)),
        "l"(gmem), "r"(bytes), "r"(shared_address(bar)), "l"(l2_policy<true>())
        : "memory");
  else
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(smem)),
                 "l"(gmem), "r"(bytes), "r"(shared_address(bar))
                 : "memory");
#endif
}
// Waits for phase 0 of the barrier: the bytes of the copy have arrived.
__device__ __forceinline__ void bulk_wait(unsigned long long* bar) {
#if SV_BULK
  unsigned done = 0;
  do {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(shared_address(bar))
        : "memory");
  } while (!done);
#endif
}
__device__ __forceinline__ void bulk_prefetch_l2(const void* gmem, unsigned bytes) {
#if SV_BULK
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(gmem), "r"(bytes) : "memory");
#endif
}
// Orders this thread's generic accesses of shared memory with the bulk copies' (async proxy): its
// writes made visible to a later bulk copy (before a barrier), its reads or writes of a buffer that
// a bulk copy fills before or after them (gpu/pipeline_exec.cuh).
__device__ __forceinline__ void fence_async_shared() {
#if SV_BULK
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}
// Copies `bytes` of shared memory to global memory and waits until they have been read.
__device__ __forceinline__ void bulk_store(void* gmem, const void* smem, unsigned bytes) {
#if SV_BULK
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(gmem), "r"(shared_address(smem)),
               "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
#endif
}
#undef SV_BULK

// Whether a tile kernel runs persistent blocks (with dynamic tile ids): traced runs keep one tile a
// block, the schedule the look-back view draws and the lesson describes.
template <class Config, class Recorder>
constexpr bool tile_kernel_persistent() {
  return Config::kPersistent && !Recorder::kTraced;
}

// The policy every scan kernel uses unless a benchmark asks for another: staged tiles; for 4-byte
// values 24 items a thread and, in the single-pass kernels, a register bound of 32 (8 blocks of 256
// threads a multiprocessor, 192 KB of tiles in flight; device_executor.cu PassConfig).
//
// Measured on an H200 (decoupled look-back, int32 sum, n = 2^28, 256 x 16, before the prefetch):
// 286 G items/s with the tile in registers (56 registers, 4 blocks a multiprocessor), 313-318
// staged (40 registers, 6 blocks). With the prefetch: 328 in registers, 372-374 staged; 356-410 for
// 256 x 24 or x 32 under the 32-register bound in different runs. On an H100 (copy 372-373 G items/s,
// CUB 302-303, two rounds of one binary within 1%): 256 x 16 unbounded 301-302 (81% of the copy),
// 256 x 24 bound 319-320 (86%), and with the hints 323-326 (87%), 256 x 32 with the hints 324-325,
// 256 x 48 303-304, 512 x 24 324; Nsight Compute showed DRAM 82% busy for 256 x 24 against 72% for
// the 16-item policy and CUB, and spills of the bound (4.2 M local-memory requests) that the staged
// local scan's write-back (TileItems) removed. Without the spills (same H100, two rounds each):
// 256 x 24 bound 348 G items/s (93% of the copy, 1.15x CUB), with the evict-first hints 340-341,
// 512 x 24 with the hints 337-338, 256 x 32 with the hints 337-338, 256 x 16 unbounded 299-300.
// The same binary on an H200 (copy 524-527, CUB 380-384): 436-438 (83% of the copy), 512 x 24
// 445 (84.5-84.8%; on the H100 no faster than 256 x 24), 256 x 16 unbounded 370-371. Block size is
// kTileThreads (device/device_options.hpp), the emulator's too.
//
// 8-byte numbers take the same 24 KB tiles (12 items) under the same bound. Measured on an H200
// (int64 sum, driver 580.159.04, median of 20), 2^27 to 2^30: 12 items bound 220-225 G items/s
// (83-84% of the copy, 1.02x CUB); at 2^28 and 2^30, in an earlier build where ptxas gave that
// kernel no spill (it spills 8 bytes now, ptxas -v), 229-232 (86%, 1.06x CUB). From 2^26 up the
// earlier default, 8 items unbounded (48 registers), ran 179-185 (0.84-0.85x CUB), 8 items bound
// 194-201, 16 items bound 213-222. Intervals and segmented pairs keep their items, unbounded.
template <class T>
using DefaultTileConfig = TileConfig<tile_items_per_thread<T>(), false, 1024, tile_register_bound<T>() ? 2 : 1, true>;

// ---------------------------------------------------------------------------------------------
// Warp primitives for any trivially copyable T (split into 32-bit words).
// ---------------------------------------------------------------------------------------------

inline constexpr unsigned kFullMask = 0xffffffffu;

// Shuffles of any trivially copyable T, one 32-bit word at a time.
template <class T, class Shuffle>
__device__ __forceinline__ T shfl_words(const T& v, Shuffle shuffle) {
  static_assert(sizeof(T) % 4 == 0 && std::is_trivially_copyable_v<T>);
  constexpr int W = sizeof(T) / 4;
  unsigned w[W];
  memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = shuffle(w[i]);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

template <class T>
__device__ __forceinline__ T shfl_up(const T& v, unsigned delta) {
  return shfl_words(v, [delta](unsigned x) { return __shfl_up_sync(kFullMask, x, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_down(const T& v, unsigned delta) {
  return shfl_words(v, [delta](unsigned x) { return __shfl_down_sync(kFullMask, x, delta); });
}

template <class T>
__device__ __forceinline__ T shfl_idx(const T& v, int lane) {
  return shfl_words(v, [lane](unsigned x) { return __shfl_sync(kFullMask, x, lane); });
}

// Relaxed GPU-scope accesses (not cached in L1, not reordered or merged by the compiler), for the
// descriptors: 32- and 64-bit words, and any T word by word.
__device__ __forceinline__ unsigned load_relaxed(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
// One 16-byte descriptor (flag word, value), p 16-byte aligned.
__device__ __forceinline__ void load_relaxed_pair(const unsigned long long* p, unsigned long long& a,
                                                  unsigned long long& b) {
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ void store_relaxed_pair(unsigned long long* p, unsigned long long a, unsigned long long b) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
// Relaxed atomic exchanges (the old value unused): a descriptor published this way is seen by other
// blocks sooner than a store queued behind the multiprocessor's output stores (store_packed_descriptor).
__device__ __forceinline__ void exchange_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("{ .reg .b64 d; atom.relaxed.gpu.global.exch.b64 d, [%0], %1; }" ::"l"(p), "l"(v) : "memory");
}
// 16-byte exchanges need sm_90; before it the pair is one 16-byte store.
__device__ __forceinline__ void exchange_relaxed_pair(unsigned long long* p, unsigned long long a, unsigned long long b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("{ .reg .b128 d, s; mov.b128 s, {%1, %2}; atom.relaxed.gpu.global.exch.b128 d, [%0], s; }" ::"l"(p),
               "l"(a), "l"(b)
               : "memory");
#else
  store_relaxed_pair(p, a, b);
#endif
}
template <class T>
__device__ __forceinline__ T load_relaxed_value(const T* p) {
  static_assert(sizeof(T) % 4 == 0);
  T v;
  if constexpr (sizeof(T) == 8) {
    const unsigned long long w = load_relaxed(reinterpret_cast<const unsigned long long*>(p));
    memcpy(&v, &w, 8);
  } else {
    unsigned w[sizeof(T) / 4];
#pragma unroll
    for (int i = 0; i < static_cast<int>(sizeof(T) / 4); ++i) w[i] = load_relaxed(reinterpret_cast<const unsigned*>(p) + i);
    memcpy(&v, w, sizeof(T));
  }
  return v;
}
template <class T>
__device__ __forceinline__ void store_relaxed_value(T* p, const T& v) {
  static_assert(sizeof(T) % 4 == 0);
  if constexpr (sizeof(T) == 8) {
    unsigned long long w;
    memcpy(&w, &v, 8);
    store_relaxed(reinterpret_cast<unsigned long long*>(p), w);
  } else {
    unsigned w[sizeof(T) / 4];
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < static_cast<int>(sizeof(T) / 4); ++i) store_relaxed(reinterpret_cast<unsigned*>(p) + i, w[i]);
  }
}

// V = vector_width<T>() values <-> one 16-byte vector, word by word (keeps the compiler's vector
// accesses whole).
template <class T>
__device__ __forceinline__ uint4 pack16(const T* v) {
  unsigned w[4];
#pragma unroll
  for (int e = 0; e < vector_width<T>(); ++e) memcpy(&w[e * sizeof(T) / 4], &v[e], sizeof(T));
  return make_uint4(w[0], w[1], w[2], w[3]);
}
template <class T>
__device__ __forceinline__ void unpack16(const uint4& q, T* v) {
  const unsigned w[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
  for (int e = 0; e < vector_width<T>(); ++e) memcpy(&v[e], &w[e * sizeof(T) / 4], sizeof(T));
}

// Packed descriptors (packed_descriptors): a flag word (epoch << 2 | flag, TileKnobs::epoch; a word
// of another epoch reads as X) and the value, one relaxed access: 8 bytes for 4-byte values (flag
// word in the high half), 16 for 8-byte ones (flag word first). Descriptor `tile` of `base`.
__device__ __forceinline__ unsigned descriptor_flag_word(unsigned epoch, TileFlag flag) {
  return epoch << 2 | static_cast<unsigned>(flag);
}
__device__ __forceinline__ TileFlag descriptor_flag(unsigned epoch, unsigned word) {
  return (word >> 2) == epoch ? static_cast<TileFlag>(word & 3u) : TileFlag::X;
}
// Published with an atomic exchange, not a store: on an H200 a descriptor stored behind the
// multiprocessor's output stores took microseconds to be seen, and the exchange made the pipelined
// kernel about 8% faster at 2^28 (docs/performance.md).
template <class T>
__device__ __forceinline__ void store_packed_descriptor(void* base, std::int64_t tile, unsigned flag_word, const T& value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (sizeof(T) == 4) {
    unsigned bits;
    memcpy(&bits, &value, 4);
    exchange_relaxed(static_cast<unsigned long long*>(base) + tile, static_cast<unsigned long long>(flag_word) << 32 | bits);
  } else {
    unsigned long long bits;
    memcpy(&bits, &value, 8);
    exchange_relaxed_pair(static_cast<unsigned long long*>(base) + 2 * tile, flag_word, bits);
  }
}
// Returns the flag word; the value into `value`.
template <class T>
__device__ __forceinline__ unsigned load_packed_descriptor(const void* base, std::int64_t tile, T& value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  if constexpr (sizeof(T) == 4) {
    const unsigned long long word = load_relaxed(static_cast<const unsigned long long*>(base) + tile);
    const auto bits = static_cast<unsigned>(word);
    memcpy(&value, &bits, 4);
    return static_cast<unsigned>(word >> 32);
  } else {
    unsigned long long word = 0, bits = 0;
    load_relaxed_pair(static_cast<const unsigned long long*>(base) + 2 * tile, word, bits);
    memcpy(&value, &bits, 8);
    return static_cast<unsigned>(word);
  }
}

// 16-byte global accesses as single instructions (written out in PTX: the compiler otherwise
// sometimes splits one of them into four), with the evict-first hint when Streaming.
template <class T, bool Streaming>
__device__ __forceinline__ uint4 load16(const T* p) {
  uint4 q;
  if constexpr (Streaming)
    asm("ld.global.cs.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(p));
  else
    asm("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(p));
  return q;
}
template <class T, bool Streaming>
__device__ __forceinline__ void store16(T* p, const uint4& q) {
  if constexpr (Streaming)
    asm volatile("st.global.cs.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(q.x), "r"(q.y), "r"(q.z), "r"(q.w)
                 : "memory");
  else
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(q.x), "r"(q.y), "r"(q.z), "r"(q.w)
                 : "memory");
}

// A look-back warp's wait before it polls again (every lane calls it; wait_start 0 and sleep_ns 0
// start a wait): the backoff of TileKnobs; false once the wait has lasted kSpinLimitNs, with the
// error flag set (and the tile) for the host.
__device__ inline bool look_back_backoff(std::int64_t tile, std::uint64_t& wait_start, unsigned& sleep_ns,
                                         const TileKnobs& knobs, TileDiag* diag) {
  const int lane = threadIdx.x & 31;
  std::uint64_t now = lane == 0 ? global_timer_ns() : 0;
  now = __shfl_sync(kFullMask, now, 0);
  if (wait_start == 0) {
    wait_start = now;
  } else if (now - wait_start > kSpinLimitNs) {
    if (lane == 0 && atomicCAS(&diag->failed, 0u, 1u) == 0u) {
      diag->tile = tile;
      diag->waited_ns = now - wait_start;
    }
    return false;
  }
  if (knobs.backoff_max_ns) {
    sleep_ns = sleep_ns == 0 ? knobs.backoff_min_ns : 2 * sleep_ns;
    if (sleep_ns > knobs.backoff_max_ns) sleep_ns = knobs.backoff_max_ns;
    __nanosleep(sleep_ns);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Recorders
// ---------------------------------------------------------------------------------------------

// Untraced: nothing at all.
struct NoRecorder {
  static constexpr bool kTraced = false;
  struct Args {};
  __device__ explicit NoRecorder(const Args&) {}
  __device__ void start(std::int64_t) {}
  __device__ void end(std::int64_t) {}
  template <class T>
  __device__ void publish(std::int64_t, TileFlag, const T&) {}
  template <class T>
  __device__ void inspect(std::int64_t, std::int64_t, TileFlag, const T&, std::uint32_t) {}
  __device__ void wait(std::int64_t, std::int64_t, TileFlag, std::uint32_t) {}
};

// Traced: one TileEvent per hook, from the thread that calls it.
struct TileRecorder {
  static constexpr bool kTraced = true;
  struct Args {
    TileTraceState* state;
    std::uint16_t pass;
  };
  __device__ explicit TileRecorder(const Args& a) : a_(a) {}

  __device__ void start(std::int64_t tile) { append(TileEventKind::Start, tile, -1, TileFlag::X, Payload{}, 0); }
  __device__ void end(std::int64_t tile) { append(TileEventKind::End, tile, -1, TileFlag::X, Payload{}, 0); }
  template <class T>
  __device__ void publish(std::int64_t tile, TileFlag flag, const T& v) {
    append(TileEventKind::Publish, tile, tile, flag, Payload::of(v), 0);
  }
  // Tile `tile` published P for `target` (share=on); target is the descriptor's tile.
  template <class T>
  __device__ void share(std::int64_t tile, std::int64_t target, const T& v) {
    append(TileEventKind::Publish, tile, target, TileFlag::P, Payload::of(v), 0);
  }
  template <class T>
  __device__ void inspect(std::int64_t tile, std::int64_t target, TileFlag flag, const T& v, std::uint32_t spins) {
    append(TileEventKind::Inspect, tile, target, flag, Payload::of(v), spins);
  }
  __device__ void wait(std::int64_t tile, std::int64_t target, TileFlag flag, std::uint32_t spins) {
    append(TileEventKind::Wait, tile, target, flag, Payload{}, spins);
  }

 private:
  __device__ void append(TileEventKind kind, std::int64_t tile, std::int64_t target, TileFlag flag, const Payload& v,
                         std::uint32_t spins) {
    const unsigned long long seq = atomicAdd(&a_.state->counter, 1ULL);
    if (seq >= a_.state->capacity) return;
    TileEvent e;
    e.time = global_timer_ns();
    e.tile = tile;
    e.target = target;
    e.block = blockIdx.x;
    e.spins = spins;
    e.sm = static_cast<std::uint16_t>(sm_id());
    e.pass = a_.pass;
    e.kind = kind;
    e.flag = flag;
    e.value = v;
    a_.state->events[seq] = e;
  }
  Args a_;
};

// Untraced, with a clock (scanviz bench with SCANVIZ_BENCH_PHASES=1): thread 0 of each tile notes
// the %globaltimer time at which the tile's id was taken, its aggregate published (A) and its
// inclusive prefix published (P) in times[3 tile + 0, 1, 2] (tile 0 publishes P alone: both). One
// plain store each, no atomics, so the kernel keeps the untraced schedule (analysis/lookback.hpp
// tile_phase_stats reads them).
struct TileClock {
  static constexpr bool kTraced = false;
  struct Args {
    unsigned long long* times;
  };
  __device__ explicit TileClock(const Args& a) : times_(a.times) {}
  __device__ void start(std::int64_t tile) { times_[3 * tile] = global_timer_ns(); }
  __device__ void end(std::int64_t) {}
  template <class T>
  __device__ void publish(std::int64_t tile, TileFlag flag, const T&) {
    const unsigned long long now = global_timer_ns();
    if (flag == TileFlag::A || tile == 0) times_[3 * tile + 1] = now;
    if (flag == TileFlag::P) times_[3 * tile + 2] = now;
  }
  template <class T>
  __device__ void inspect(std::int64_t, std::int64_t, TileFlag, const T&, std::uint32_t) {}
  __device__ void wait(std::int64_t, std::int64_t, TileFlag, std::uint32_t) {}

 private:
  unsigned long long* times_;
};

// ---------------------------------------------------------------------------------------------
// The context
// ---------------------------------------------------------------------------------------------

// A thread's elements of a tile (see the layout above): in registers (v), or staged in shared
// memory. In registers, after reduce_tile, v holds each element's lane-local inclusive scan within
// its chunk and pre[k] the tile-local exclusive prefix of the lane's chunk k. Staged, reduce_tile
// writes each element's warp-local inclusive scan back over it in shared memory and keeps only the
// warp's prefix within the tile in a register. `scanned` says reduce_tile has run.
template <class T, int Items, bool Staged>
struct TileItems {
  static constexpr int V = vector_width<T>();
  static constexpr int Chunks = Items / V;
  T v[Items];
  T pre[Chunks];
  bool scanned;
};
template <class T, int Items>
struct TileItems<T, Items, true> {
  T warp_prefix;
  bool scanned;
  bool bulk;  // the tile arrives by one bulk copy (TileExec::kBulkLoads)
};

template <class T, class Recorder, int Items = tile_items_per_thread<T>(), bool Streaming = false,
          bool Staged = false, bool Persistent = false, int Bulk = 0>
class TileExec {
 public:
  // Bulk copies (TileConfig::kBulk): 1 the loads of a full tile, 2 its stores as well, on a GPU
  // that has them (sm_90 on).
  static constexpr bool kBulkLoads = Bulk >= 1 && Staged && !Persistent && kBulkBuilt;
  static constexpr bool kBulkStores = Bulk >= 2 && kBulkLoads;
  static constexpr int V = vector_width<T>();
  static constexpr int Chunks = Items / V;
  static_assert(Items % V == 0, "items per thread must be a multiple of the vector width");
  static constexpr int kMaxWarps = 32;

  struct Storage {
    alignas(16) unsigned char warp_totals[kMaxWarps * sizeof(T)];
    alignas(16) unsigned char value[sizeof(T) < 8 ? 8 : sizeof(T)];
    long long tile;
    unsigned long long bar;  // the bulk load's mbarrier
  };

  using Items_ = TileItems<T, Items, Staged>;

  // stage: Staged only, threads * Items elements of dynamic shared memory.
  __device__ TileExec(Storage& s, const typename Recorder::Args& rec, TileDiag* diag, const TileKnobs& knobs,
                      T* stage = nullptr)
      : s_(s), rec_(rec), diag_(diag), knobs_(knobs), stage_(stage) {}

  __device__ std::int32_t block() const { return static_cast<std::int32_t>(blockIdx.x); }
  __device__ std::int32_t thread() const { return static_cast<std::int32_t>(threadIdx.x); }
  __device__ std::int32_t threads() const { return static_cast<std::int32_t>(blockDim.x); }
  __device__ bool look_back_warp() const { return threadIdx.x < 32; }
  __device__ unsigned hold_ns() const { return knobs_.hold_ns; }

  // ---- tile ids -------------------------------------------------------------------------------

  __device__ std::int64_t take_tile(const DeviceParams& p, const DeviceBuffers& b) {
    if (p.dynamic_ids) {
      if constexpr (Persistent) {
        if (persist_) return take_next();
      }
      if (knobs_.prefetch) prefetch_tile(b.in, blockIdx.x, p);
      return take_id(p, static_cast<unsigned long long*>(b.counter.ptr), static_cast<const T*>(b.in.ptr));
    }
    const std::int64_t tile = blockIdx.x;
    if (threadIdx.x == 0) rec_.start(tile);
    if constexpr (kBulkLoads) {  // the copy starts at once; the barrier makes its mbarrier ready for all
      const T* in = static_cast<const T*>(b.in.ptr);
      if (threadIdx.x == 0) {
        bulk_barrier_init(&s_.bar);
        start_bulk(in, tile, p);
      }
      __syncthreads();
    }
    if (tile == p.stall_tile) {
      if (threadIdx.x == 0) stall(p.stall_cycles);
      __syncthreads();
    }
    return tile;
  }

  // ---- persistent blocks ----------------------------------------------------------------------
  //
  // The kernel calls first_tile once, then runs the pass while has_tile. scan_store_tile, called
  // once the tile's prefix is known, takes the next tile id and issues each chunk's copies of the
  // next tile into the staging slots it has just stored from (each lane reuses only its own
  // slots, after it has read them, so no barrier is needed); take_tile and load_tile then hand out
  // that tile with its copies in flight. A tile is taken when a block is ready to scan it, as a
  // fresh block would take it, so its aggregate is published as soon as its elements arrive.
  //
  // No deadlock: a block holds a taken tile only while it stores the tile before it, which waits
  // on nothing. A block takes its tiles plus one past the end: a launch of `grid` persistent
  // blocks moves the tile counter by tiles + grid.
  template <class Op>
  __device__ void first_tile(Op op, const DeviceParams& p, const DeviceBuffers& b) {
    static_assert(Persistent && Staged);
    persist_ = true;
    in_ = static_cast<const T*>(b.in.ptr);
    counter_ = static_cast<unsigned long long*>(b.counter.ptr);
    if (knobs_.prefetch) prefetch_tile(b.in, blockIdx.x, p);
    next_ = take_id(p, b);
  }
  __device__ bool has_tile(const DeviceParams& p) const { return next_ < p.tiles; }

  __device__ void start_tile(std::int64_t tile) {
    if (threadIdx.x == 0) rec_.start(tile);
  }

  // The traced End is recorded once every thread has stored its outputs.
  __device__ void end_tile(std::int64_t tile) {
    if constexpr (Recorder::kTraced) {
      __syncthreads();
      if (threadIdx.x == 0) rec_.end(tile);
    }
  }

  // ---- the tile's elements --------------------------------------------------------------------

  template <class U, class Op>
  __device__ Items_ load_tile(Op op, const Buf& buf, std::int64_t tile, const DeviceParams& p) const {
    static_assert(std::is_same_v<U, T>);
    const T* in = static_cast<const T*>(buf.ptr);
    const std::int64_t seg = segment(tile, p);
    const int lane = threadIdx.x & 31;
    Items_ r;
    r.scanned = false;
    if constexpr (Staged) {
      r.bulk = false;
      if constexpr (Persistent) {
        if (copying_) return r;  // the last scan_store_tile started the copies
      }
      if constexpr (kBulkLoads) {
        if (bulk_tile(in, tile, p)) {  // take_tile started it
          r.bulk = true;
          return r;
        }
      }
      start_copies(op.identity(), in, tile, p);
      return r;
    } else if (vector_ok(in, tile, p)) {
      uint4 q[Chunks];
#pragma unroll
      for (int k = 0; k < Chunks; ++k) q[k] = load16<T, Streaming>(in + seg + (k * 32 + lane) * V);
#pragma unroll
      for (int k = 0; k < Chunks; ++k) unpack16(q[k], &r.v[k * V]);
    } else {
#pragma unroll
      for (int k = 0; k < Chunks; ++k)
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const std::int64_t i = seg + (k * 32 + lane) * V + j;
          r.v[k * V + j] = i < p.n ? in[i] : op.identity();
        }
    }
    return r;
  }

  // The tile-local scan (kept in the items); returns the tile's aggregate in every thread.
  template <class Op>
  __device__ T reduce_tile(Op op, Items_& items) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    T* totals = reinterpret_cast<T*>(s_.warp_totals);
    T carry = op.identity();
    if constexpr (kBulkLoads) {
      if (items.bulk) bulk_wait(&s_.bar);
      else cp_async_wait_all();
    } else if constexpr (Staged) {
      cp_async_wait_all();
    }
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      T v[V];
      chunk(items, k, v);
#pragma unroll
      for (int j = 1; j < V; ++j) v[j] = op(v[j - 1], v[j]);
      if constexpr (!Staged) {
#pragma unroll
        for (int j = 0; j < V; ++j) items.v[k * V + j] = v[j];
      }
      T s = v[V - 1];
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
        const T left = shfl_up(s, d);
        if (lane >= d) s = op(left, s);
      }
      const T before = shfl_up(s, 1);
      const T pre = lane == 0 ? carry : op(carry, before);  // the chunk's prefix within the warp
      if constexpr (Staged) {
        // The warp-local inclusive scan, over the lane's own staged elements.
#pragma unroll
        for (int j = 0; j < V; ++j) v[j] = op(pre, v[j]);
        put_chunk(k, v);
      } else {
        items.pre[k] = pre;
      }
      carry = op(carry, shfl_idx(s, 31));
    }
    if (lane == 0) totals[warp] = carry;
    __syncthreads();
    T warp_prefix = op.identity(), aggregate = op.identity();
    for (int w = 0; w < warps; ++w) {
      if (w == warp) warp_prefix = aggregate;
      aggregate = op(aggregate, totals[w]);
    }
    if constexpr (Staged) {
      items.warp_prefix = warp_prefix;
    } else if (warp > 0) {
#pragma unroll
      for (int k = 0; k < Chunks; ++k) items.pre[k] = op(warp_prefix, items.pre[k]);
    }
    items.scanned = true;
    return aggregate;
  }

  // buf[i] = prefix ⊕ the tile's elements up to i (inclusive) or before i (exclusive).
  template <class Op>
  __device__ void scan_store_tile(Op op, Items_& items, const T& prefix, const Buf& buf,
                                  std::int64_t tile, const DeviceParams& p) {
    if (!items.scanned) reduce_tile(op, items);
    if constexpr (Persistent) {
      if (persist_) take_after(p);
    }
    // Two straight-line paths, so each chunk's outputs stay one 16-byte store.
    if (p.exclusive) store_scanned<true>(op, items, prefix, buf, tile, p);
    else store_scanned<false>(op, items, prefix, buf, tile, p);
  }

  // ---- descriptors ----------------------------------------------------------------------------

  template <class Op>
  __device__ void publish(Op, const DeviceBuffers& b, std::int64_t tile, TileFlag flag, const T& value,
                          const DeviceParams& p) {
    if (threadIdx.x != 0) return;
    store_descriptor(b, p, tile, flag, value);
    rec_.publish(tile, flag, value);
  }

  // After a window that had a P (inspect_window kept each lane's part): each lane whose tile showed
  // A after the nearest P publishes that tile's P, the window's partial combine up to it. The
  // tile's own P, published later, is the same value. Not clocked (TileClock times a tile's own).
  template <class Op>
  __device__ void share_window(Op, const DeviceBuffers& b, std::int64_t tile, const DeviceParams& p) {
    if (!share_) return;
    store_descriptor(b, p, share_target_, TileFlag::P, share_value_);
    if constexpr (Recorder::kTraced) rec_.share(tile, share_target_, share_value_);
  }

  // Where the time goes (Nsight Compute, --set full, int32 sum at 2^28, driver 580.159.04): on an
  // H200 the kernel moves 73% of DRAM's peak (CUB 63%) and 45% of all warp stall samples are the
  // seven other warps of a block at the barrier after this look-back (58% at barriers in all): a
  // block spends about half its life holding its 24 KB tile while its look-back warp polls, 3.3
  // polls a tile (0.65 of them waiting on an X, the rest moving the window back over A's to the
  // nearest P). The H100 shows the same shares at 85% of its DRAM peak (3.6 polls, 1.2 waiting).
  // What did not make it faster (H200, 2^28, each in one call with the default): a window of 64
  // with both descriptors' loads in flight at once cut the polls to 2.6 a tile but not the time
  // (430-437 G items/s, default 435-444); combining a 32-bit sum with one redux.sync and skipping
  // the combine of a window polled again (the default built so: 435); an L2 prefetch of the tile
  // 256 to 2112 ahead with the tile's loads (5-19% slower); 128-thread blocks (4-5% slower from
  // 2^26 up), 1024-thread ones (3-6% slower). 512 threads (or 512 x 32) ran 1.5-4% faster on the
  // H200 from 2^24 up, no faster on the H100, and there slower below 2^23.
  // Clocked (TileClock; H200, int32 sum at 2^28, medians): 3.8 us from the tile id to A, 7.2 from A
  // to P, of which 2.9 waiting for the last A of the tiles before and 4.1 after it; at its A the
  // nearest P is about 475 tiles back (the H100: 4.7, 9.2, 4.3 and 4.7 us, about 500 tiles). A
  // window of 16 made the look-back 0.8 us longer and the kernel no slower (594 us), 8 made it 2%
  // slower, 4 8%: the loads, not the look-back, set the pace (docs/performance.md).
  //
  // Lane l of the look-back warp reads the descriptor of tile end-1-l, l < min(w, end). The nearest
  // P (lowest lane) ends the window; X only counts up to it. combined = the values of lanes
  // [0..nearest P] (or of the whole window), the earlier tile (higher lane) on the left.
  template <class Op>
  __device__ Window<T> inspect_window(Op op, const DeviceBuffers& b, std::int64_t tile, std::int64_t end,
                                      std::int32_t w, const DeviceParams& p) {
    const int lane = threadIdx.x & 31;
    const std::int64_t count = end < w ? end : w;
    const bool valid = lane < count;
    const std::int64_t target = end - 1 - lane;
    TileFlag flag = TileFlag::X;
    T value = op.identity();
    if (valid) read_descriptor(b, p, target, flag, value);
    const unsigned xmask = __ballot_sync(kFullMask, valid && flag == TileFlag::X);
    const unsigned pmask = __ballot_sync(kFullMask, valid && flag == TileFlag::P);
    const int last = pmask ? __ffs(pmask) - 1 : 31;  // lanes 0..last make up the window's value
    const unsigned upto = last == 31 ? kFullMask : (2u << last) - 1;
    Window<T> r;
    r.has_p = pmask != 0;
    r.any_x = (xmask & upto) != 0;
    const bool used = valid && lane <= last;
    T v = used ? value : op.identity();
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const T earlier = shfl_down(v, d);
      if (lane + d < 32) v = op(earlier, v);
    }
    r.combined = shfl_idx(v, 0);
    // What share_window would publish: the A tiles nearer than the window's nearest P. Stored
    // whatever p.share says: stored only under it, the old values stay live across polls and the
    // persistent kernel took a 24-byte stack (cuobjdump).
    share_ = r.has_p && !r.any_x && valid && lane < last && flag == TileFlag::A;
    share_target_ = target;
    share_value_ = v;

    const bool waits = w == 1 ? !r.has_p : r.any_x;
    if constexpr (Recorder::kTraced) {
      if (!waits) {
        if (used) rec_.inspect(tile, target, flag, value, spins_);
      } else {
        // What the tile waits on: the nearest X (or, polling one predecessor, what it shows).
        const unsigned blocking = xmask & upto;
        const int l = blocking ? __ffs(blocking) - 1 : 0;
        wait_target_ = end - 1 - l;
        wait_flag_ = blocking ? TileFlag::X : static_cast<TileFlag>(__shfl_sync(kFullMask, static_cast<int>(flag), 0));
      }
    }
    if (!waits) spins_ = 0;
    return r;
  }

  // Called by the look-back warp after a window it must poll again. False once the tile has waited
  // kSpinLimitNs: the error flag is set (with the tile) for the host.
  __device__ bool spin(std::int64_t tile, const DeviceParams&) {
    const int lane = threadIdx.x & 31;
    if (spins_ == 0 && lane == 0) rec_.wait(tile, wait_target_, wait_flag_, total_spins_);
    ++spins_;
    ++total_spins_;
    return look_back_backoff(tile, wait_start_, sleep_ns_, knobs_, diag_);
  }

  // ---- block-wide and single values -----------------------------------------------------------

  template <class U>
  __device__ U broadcast(const U& v) {
    static_assert(sizeof(U) <= sizeof(Storage::value) && std::is_trivially_copyable_v<U>);
    if (threadIdx.x == 0) memcpy(s_.value, &v, sizeof(U));
    __syncthreads();
    U r;
    memcpy(&r, s_.value, sizeof(U));
    return r;
  }

  template <class U>
  __device__ U load_value(const Buf& buf, std::int64_t i) const {
    return static_cast<const U*>(buf.ptr)[i];
  }
  template <class U>
  __device__ void store_value(const Buf& buf, std::int64_t i, const U& v) const {
    static_cast<U*>(buf.ptr)[i] = v;
  }

 private:
  __device__ std::int64_t segment(std::int64_t tile, const DeviceParams& p) const {
    return tile * (static_cast<std::int64_t>(p.threads) * Items) + static_cast<std::int64_t>(threadIdx.x >> 5) * 32 * Items;
  }
  // 16-byte accesses: a type that divides 16 bytes, a full tile and an aligned buffer (block-uniform).
  __device__ bool vector_ok(const T* ptr, std::int64_t tile, const DeviceParams& p) const {
    if constexpr (V == 1) {
      return false;
    } else {
      const std::int64_t end = (tile + 1) * (static_cast<std::int64_t>(p.threads) * Items);
      return end <= p.n && (reinterpret_cast<std::uintptr_t>(ptr) & 15) == 0;
    }
  }

  template <bool Exclusive, class Op>
  __device__ void store_scanned(Op op, const Items_& items, const T& prefix, const Buf& buf,
                                std::int64_t tile, const DeviceParams& p) {
    T* out = static_cast<T*>(buf.ptr);
    const std::int64_t seg = segment(tile, p);
    const int lane = threadIdx.x & 31;
    if constexpr (Staged) {
      // Chunk by chunk: read the warp-local inclusive scan back, combine it with the warp's prefix,
      // store. Exclusive, element j takes the inclusive value before it: the lane's own (j > 0), the
      // previous lane's last (j = 0), or for lane 0 the last of lane 31's previous chunk.
      const bool vector = vector_ok(out, tile, p);
      const bool bulk = kBulkStores && vector && items.bulk;  // block-uniform
      const T e = op(prefix, items.warp_prefix);
      T last_before = e;  // exclusive: e combined with the warp's previous chunk's last element
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T w[V], r[V];
        chunk(items, k, w);
        if constexpr (Exclusive) {
          const T up = shfl_up(w[V - 1], 1);
          r[0] = lane == 0 ? last_before : op(e, up);
#pragma unroll
          for (int j = 1; j < V; ++j) r[j] = op(e, w[j - 1]);
          if (k + 1 < Chunks) last_before = op(e, shfl_idx(w[V - 1], 31));
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j) r[j] = op(e, w[j]);
        }
        if (bulk) {
          put_chunk(k, r);  // over the lane's own staged elements, stored below in one copy
        } else if (vector) {
          store16<T, Streaming>(out + seg + (k * 32 + lane) * V, pack16(r));
        } else {
#pragma unroll
          for (int j = 0; j < V; ++j) {
            const std::int64_t i = seg + (k * 32 + lane) * V + j;
            if (i < p.n) out[i] = r[j];
          }
        }
        if constexpr (Persistent) {
          if (copying_) copy_chunk(in_, next_, k, p);  // the slot this lane has just read
        }
      }
      if constexpr (Persistent) {
        if (copying_) cp_async_commit();
      }
      if constexpr (kBulkStores) {
        if (bulk) {
          fence_async_shared();
          __syncthreads();
          if (threadIdx.x == 0) bulk_store(out + p.tile_begin(tile), stage_, tile_bytes(p));
        }
      }
    } else {
      store_registers<Exclusive>(op, items, prefix, out, seg, lane, tile, p);
    }
  }

  template <bool Exclusive, class Op>
  __device__ void store_registers(Op op, const Items_& items, const T& prefix, T* out, std::int64_t seg, int lane,
                                  std::int64_t tile, const DeviceParams& p) {
    T r[Items];
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      const T e = op(prefix, items.pre[k]);
      if constexpr (Exclusive) {
        r[k * V] = e;
#pragma unroll
        for (int j = 1; j < V; ++j) r[k * V + j] = op(e, items.v[k * V + j - 1]);
      } else {
#pragma unroll
        for (int j = 0; j < V; ++j) r[k * V + j] = op(e, items.v[k * V + j]);
      }
    }
    if (vector_ok(out, tile, p)) {
#pragma unroll
      for (int k = 0; k < Chunks; ++k) store16<T, Streaming>(out + seg + (k * 32 + lane) * V, pack16(&r[k * V]));
    } else {
#pragma unroll
      for (int k = 0; k < Chunks; ++k)
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const std::int64_t i = seg + (k * 32 + lane) * V + j;
          if (i < p.n) out[i] = r[k * V + j];
        }
    }
  }

  // The tile's elements into the staging area, each lane its own pieces: cp.async of 16 bytes where
  // vector_ok, else guarded scalar loads (the identity past n).
  __device__ void start_copies(const T& identity, const T* in, std::int64_t tile, const DeviceParams& p) const {
    if (vector_ok(in, tile, p)) {
#pragma unroll
      for (int k = 0; k < Chunks; ++k) copy_chunk(in, tile, k, p);
      cp_async_commit();
    } else {
      const std::int64_t seg = segment(tile, p);
      const int lane = threadIdx.x & 31;
#pragma unroll
      for (int k = 0; k < Chunks; ++k)
#pragma unroll
        for (int j = 0; j < V; ++j) {
          const std::int64_t i = seg + (k * 32 + lane) * V + j;
          staged_chunk(k)[j] = i < p.n ? in[i] : identity;
        }
    }
  }
  // cp.async of this lane's 16 bytes of chunk k (a full tile, an aligned buffer), uncommitted.
  __device__ void copy_chunk(const T* in, std::int64_t tile, int k, const DeviceParams& p) const {
    const T* src = in + segment(tile, p) + (k * 32 + static_cast<int>(threadIdx.x & 31)) * V;
    if constexpr (Streaming) cp_async16(staged_chunk(k), src, l2_policy<false>());
    else if (knobs_.l2_last) cp_async16(staged_chunk(k), src, l2_policy<true>());
    else cp_async16(staged_chunk(k), src);
  }

  // L2 prefetches of a tile's lines, one 128-byte line per thread and round.
  __device__ void prefetch_tile(const Buf& buf, std::int64_t tile, const DeviceParams& p) const {
    const std::int64_t begin = tile * (static_cast<std::int64_t>(p.threads) * Items);
    if (buf.ptr == nullptr || begin >= p.n) return;
    const std::int64_t end = begin + static_cast<std::int64_t>(p.threads) * Items < p.n
                                 ? begin + static_cast<std::int64_t>(p.threads) * Items
                                 : p.n;
    const char* base = static_cast<const char*>(buf.ptr) + begin * static_cast<std::int64_t>(sizeof(T));
    const std::int64_t bytes = (end - begin) * static_cast<std::int64_t>(sizeof(T));
    if constexpr (kBulkLoads) {  // one instruction for the tile (16-byte multiples of an aligned buffer)
      if ((reinterpret_cast<std::uintptr_t>(base) & 15) == 0) {
        if (threadIdx.x == 0 && bytes >= 16) bulk_prefetch_l2(base, static_cast<unsigned>(bytes & ~std::int64_t{15}));
        return;
      }
    }
    for (std::int64_t off = static_cast<std::int64_t>(threadIdx.x) * 128; off < bytes; off += blockDim.x * 128)
      prefetch_l2_line(base + off, knobs_.l2_last != 0);
  }

  // This lane's V elements of chunk k in the staging area (the same layout as in global memory).
  __device__ T* staged_chunk(int k) const {
    return stage_ + static_cast<int>(threadIdx.x >> 5) * 32 * Items + (k * 32 + static_cast<int>(threadIdx.x & 31)) * V;
  }

  // Thread 0 takes the next tile id from the counter; every thread returns it. With bulk loads and
  // the tile's input `in`, thread 0 also starts the copy of a full tile (bulk_tile) before the
  // barrier, its mbarrier initialised while the id is on the way.
  __device__ std::int64_t take_id(const DeviceParams& p, const DeviceBuffers& b) {
    return take_id(p, static_cast<unsigned long long*>(b.counter.ptr));
  }
  __device__ std::int64_t take_id(const DeviceParams& p, unsigned long long* counter, const T* in = nullptr) {
    if (threadIdx.x == 0) {
      if constexpr (kBulkLoads) bulk_barrier_init(&s_.bar);
      const auto tile = static_cast<std::int64_t>(atomicAdd(counter, 1ULL) - knobs_.tile_base);
      rec_.start(tile);
      if (tile == p.stall_tile) stall(p.stall_cycles);
      s_.tile = tile;
      if constexpr (kBulkLoads) start_bulk(in, tile, p);
    }
    __syncthreads();
    return s_.tile;
  }
  // Thread 0, bulk loads: the tile's one copy into the staging area, where bulk_tile says so (its
  // mbarrier initialised).
  __device__ void start_bulk(const T* in, std::int64_t tile, const DeviceParams& p) {
    if (bulk_tile(in, tile, p)) bulk_load(stage_, in + p.tile_begin(tile), tile_bytes(p), &s_.bar, knobs_.l2_last);
  }
  // Whether the tile comes by one bulk copy: bulk loads, a full tile, an aligned input.
  __device__ bool bulk_tile(const T* in, std::int64_t tile, const DeviceParams& p) const {
    return kBulkLoads && in != nullptr && tile < p.tiles && vector_ok(in, tile, p);
  }
  __device__ static unsigned tile_bytes(const DeviceParams& p) {
    return static_cast<unsigned>(p.tile_items() * static_cast<std::int64_t>(sizeof(T)));
  }

  // Persistent: the tile taken last is the current one; the look-back's per-tile state starts over.
  __device__ std::int64_t take_next() {
    spins_ = total_spins_ = 0;
    wait_start_ = 0;
    sleep_ns_ = 0;
    return next_;
  }
  // Persistent, in scan_store_tile: take the next tile; copying_ says store_scanned issues its copies
  // (a full, aligned tile; otherwise load_tile loads it).
  __device__ void take_after(const DeviceParams& p) {
    next_ = take_id(p, counter_);
    copying_ = next_ < p.tiles && vector_ok(in_, next_, p);
  }
  // Staged: V values over the lane's elements of chunk k (one 16-byte shared store where the type
  // divides 16 bytes). Only the lane that copied them reads them again, so no barrier is needed.
  __device__ void put_chunk(int k, const T (&v)[V]) const {
    T* dst = staged_chunk(k);
    if constexpr (V * sizeof(T) == 16) {
      *reinterpret_cast<uint4*>(dst) = pack16(v);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) dst[j] = v[j];
    }
  }
  // The lane's V elements of chunk k: from the registers, or from the staging area (one 16-byte
  // shared load where the type divides 16 bytes).
  __device__ void chunk(const Items_& items, int k, T (&v)[V]) const {
    if constexpr (Staged) {
      const T* src = staged_chunk(k);
      if constexpr (V * sizeof(T) == 16) {
        unpack16(*reinterpret_cast<const uint4*>(src), v);
      } else {
#pragma unroll
        for (int j = 0; j < V; ++j) v[j] = src[j];
      }
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) v[j] = items.v[k * V + j];
    }
  }

  // A flag as this run stores it, and a stored word as this run reads it (TileKnobs::epoch).
  __device__ unsigned flag_word(TileFlag flag) const { return descriptor_flag_word(knobs_.epoch, flag); }
  __device__ TileFlag flag_of(unsigned word) const { return descriptor_flag(knobs_.epoch, word); }

  // The value slot of a flag (A: the aggregates, P: the inclusive prefixes) and the flags.
  static __device__ T* values(const DeviceBuffers& b, const DeviceParams& p, TileFlag flag) {
    auto* base = static_cast<unsigned char*>(b.descriptors.ptr);
    return reinterpret_cast<T*>(flag == TileFlag::P ? base + value_array_bytes<T>(p.tiles) : base);
  }
  static __device__ unsigned* flags(const DeviceBuffers& b, const DeviceParams& p) {
    return reinterpret_cast<unsigned*>(static_cast<unsigned char*>(b.descriptors.ptr) + 2 * value_array_bytes<T>(p.tiles));
  }

  // One descriptor, by any thread: one packed word (4-byte values with the fence on, 16 bytes for
  // 8-byte ones), else the value, a fence (unless fence=off), the flag.
  __device__ void store_descriptor(const DeviceBuffers& b, const DeviceParams& p, std::int64_t tile, TileFlag flag,
                                   const T& value) const {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      if (p.fence) return store_packed_descriptor(b.descriptors.ptr, tile, flag_word(flag), value);
    }
    store_relaxed_value(values(b, p, flag) + tile, value);
    if (p.fence) __threadfence();
    store_relaxed(flags(b, p) + tile, flag_word(flag));
  }

  __device__ void read_descriptor(const DeviceBuffers& b, const DeviceParams& p, std::int64_t target, TileFlag& flag,
                                  T& value) const {
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      if (p.fence) {
        flag = descriptor_flag(knobs_.epoch, load_packed_descriptor(b.descriptors.ptr, target, value));
        return;
      }
    }
    flag = flag_of(load_relaxed(flags(b, p) + target));
    if (flag != TileFlag::X) {
      if (p.fence) __threadfence();
      value = load_relaxed_value(values(b, p, flag) + target);
    }
  }

  // stall=TILE:NS: wait that long (by the global timer; __nanosleep alone may return early).
  __device__ static void stall(std::int64_t ns) {
    const std::uint64_t t0 = global_timer_ns();
    for (;;) {
      const std::uint64_t spent = global_timer_ns() - t0;
      if (spent >= static_cast<std::uint64_t>(ns)) break;
      const std::uint64_t left = static_cast<std::uint64_t>(ns) - spent;
      __nanosleep(left < 100000 ? static_cast<unsigned>(left) : 100000u);
    }
  }

  Storage& s_;
  Recorder rec_;
  TileDiag* diag_;
  TileKnobs knobs_;
  T* stage_;
  // Persistent blocks (first_tile ran): the input, the tile counter, the tile taken next and
  // whether its copies are in flight.
  bool persist_ = false;
  bool copying_ = false;
  const T* in_ = nullptr;
  unsigned long long* counter_ = nullptr;
  std::int64_t next_ = -1;
  std::uint32_t spins_ = 0;        // polls of the current window that had to wait
  std::uint32_t total_spins_ = 0;  // polls of this tile that had to wait
  std::uint64_t wait_start_ = 0;
  unsigned sleep_ns_ = 0;          // the current backoff
  std::int64_t wait_target_ = -1;
  TileFlag wait_flag_ = TileFlag::X;
  // The lane's part of share_window, from the last inspect_window.
  bool share_ = false;
  std::int64_t share_target_ = -1;
  T share_value_{};
};

// One launch of a device-wide pass: one block per tile (or per block of the pass's grid). Staged
// configurations get the tile's staging area as dynamic shared memory (threads * Items elements).
//
// The register bound asks for kMinBlocks blocks of kMaxThreads on a multiprocessor; built for one
// that holds fewer threads (1024 on sm_75, 1536 on sm_86, sm_89 and sm_120, 2048 on sm_80 and
// sm_90) it asks for as many as fit, so ptxas neither ignores nor warns about it.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SV_THREADS_PER_SM 1024
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define SV_THREADS_PER_SM 1536
#else
#define SV_THREADS_PER_SM 2048
#endif
template <class Pass, class Op, class Recorder, class Config>
__global__ void __launch_bounds__(Config::kMaxThreads, (Config::kMinBlocks * Config::kMaxThreads <= SV_THREADS_PER_SM
                                                            ? Config::kMinBlocks
                                                            : SV_THREADS_PER_SM / Config::kMaxThreads))
    tile_pass_kernel(Op op, DeviceParams p, DeviceBuffers b, typename Recorder::Args rec, TileDiag* diag, TileKnobs knobs) {
  using T = typename Op::value_type;
  constexpr bool persistent = tile_kernel_persistent<Config, Recorder>();
  using X = TileExec<T, Recorder, Config::kItems, Config::kStreaming, Config::kStaged, persistent, Config::kBulk>;
  __shared__ typename X::Storage storage;
  extern __shared__ __align__(16) unsigned char sv_tile_stage[];
  X x(storage, rec, diag, knobs, Config::kStaged ? reinterpret_cast<T*>(sv_tile_stage) : nullptr);
  if constexpr (persistent) {
    if (p.dynamic_ids) {
      x.first_tile(op, p, b);
      while (x.has_tile(p)) Pass::run(x, op, p, b);
      return;
    }
  }
  Pass::run(x, op, p, b);
}

}  // namespace sv::gpu
