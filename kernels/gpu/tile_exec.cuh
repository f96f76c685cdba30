// The GPU tile-level execution context of the device-wide scans (kernels/device/): the API that
// device/device_params.hpp documents, on real hardware. One block runs one tile (a persistent
// block, measured but no default, one tile after another).
//
// TileExec<T, Recorder, Items, Streaming, Staged, Persistent, Bulk> (a TileConfig of
// gpu/tile_policy.cuh names the compile-time policy; Recorder is one of gpu/tile_recorders.cuh;
// the descriptors and their protocol are gpu/tile_descriptors.cuh's, the PTX gpu/ptx.cuh's):
//   T          the scan value type;
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
// policy, chunk prefixes kept in registers spilled to local memory, and those spills reached DRAM.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/ops.hpp"
#include "core/payload.hpp"
#include "device/device_params.hpp"
#include "gpu/device_util.cuh"
#include "gpu/ptx.cuh"
#include "gpu/tile_descriptors.cuh"
#include "gpu/tile_policy.cuh"
#include "gpu/tile_recorders.cuh"

namespace sv::gpu {

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

template <class Op>
inline constexpr bool kSumOp = false;
template <class T>
inline constexpr bool kSumOp<SumOp<T>> = std::is_integral_v<T>;  // a float sum's order is its rounding

template <class T, class Recorder, int Items = tile_items_per_thread<T>(), bool Streaming = false,
          bool Staged = false, bool Persistent = false, int Bulk = 0, bool Early = false>
class TileExec {
 public:
  // Early aggregates (TileConfig::kEarly) where the operator is an integer sum, which may add a
  // lane's elements out of order: see reduce_tile.
  template <class Op>
  static constexpr bool early_for() {
    return Early && Staged && !Persistent && kSumOp<Op>;
  }
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
  //
  // Early aggregates (early_for<Op>): the aggregate is each lane's plain sum of its elements and one
  // warp reduction, so the look-back warp publishes it before any element is scanned; the other
  // warps then scan every warp's segment (warp 1 the look-back warp's as well) while it looks back,
  // and scan_store_tile waits for them. Otherwise each warp scans its own segment first and the
  // aggregate falls out of the scan.
  template <class Op>
  __device__ T reduce_tile(Op op, Items_& items) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    T* totals = reinterpret_cast<T*>(s_.warp_totals);
    if constexpr (kBulkLoads) {
      if (items.bulk) bulk_wait(&s_.bar);
      else cp_async_wait_all();
    } else if constexpr (Staged) {
      cp_async_wait_all();
    }
    T carry = op.identity();
    if constexpr (early_for<Op>()) {
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        chunk(items, k, v);
#pragma unroll
        for (int j = 0; j < V; ++j) carry = op(carry, v[j]);
      }
#pragma unroll
      for (int d = 16; d >= 1; d /= 2) carry = op(carry, shfl_xor(carry, d));
    } else if constexpr (Staged) {
      carry = scan_segment(op, warp);
    } else {
#pragma unroll
      for (int k = 0; k < Chunks; ++k) {
        T v[V];
        chunk(items, k, v);
#pragma unroll
        for (int j = 1; j < V; ++j) v[j] = op(v[j - 1], v[j]);
#pragma unroll
        for (int j = 0; j < V; ++j) items.v[k * V + j] = v[j];
        const T s = warp_inclusive(op, v[V - 1]);
        const T before = shfl_up(s, 1);
        items.pre[k] = lane == 0 ? carry : op(carry, before);  // the chunk's prefix within the warp
        carry = op(carry, shfl_idx(s, 31));
      }
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
    if constexpr (early_for<Op>()) {
      if (warps == 1) {
        scan_segment(op, 0);
      } else if (warp > 0) {  // warp 1 also scans the look-back warp's segment
        scan_segment(op, warp);
        if (warp == 1) scan_segment(op, 0);
      }
    }
    items.scanned = true;
    return aggregate;
  }

  // buf[i] = prefix ⊕ the tile's elements up to i (inclusive) or before i (exclusive).
  template <class Op>
  __device__ void scan_store_tile(Op op, Items_& items, const T& prefix, const Buf& buf,
                                  std::int64_t tile, const DeviceParams& p) {
    if (!items.scanned) reduce_tile(op, items);
    if constexpr (early_for<Op>()) __syncthreads();  // the other warps' scans of this warp's segment
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

  // A block holds its tile while its look-back warp polls, so the look-back's polls set how many
  // bytes stay in flight; where its time goes, and the windows and combines tried, are in
  // docs/performance.md.
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

  // deterministic=on (device/decoupled_lookback_fixed.hpp): the same read, `combined` the left fold
  // in tile order, from the nearest P (lane `last`) or `seed`, over each nearer lane down to lane 0.
  // Serial, one combine a tile, where inspect_window's tree takes five steps: a float fold's bits
  // depend on its order, and only a fold is the same whichever P it starts from. Every lane folds
  // (the shuffles are independent, so they issue ahead of the chain). The read and the trace events
  // are inspect_window's, written again rather than shared so that the default kernel's code stays
  // the code that was measured.
  template <class Op>
  __device__ Window<T> fold_window(Op op, const DeviceBuffers& b, std::int64_t tile, std::int64_t end,
                                   std::int32_t w, const T& seed, const DeviceParams& p) {
    const int lane = threadIdx.x & 31;
    const int count = static_cast<int>(end < w ? end : w);
    const bool valid = lane < count;
    const std::int64_t target = end - 1 - lane;
    TileFlag flag = TileFlag::X;
    T value = op.identity();
    if (valid) read_descriptor(b, p, target, flag, value);
    const unsigned xmask = __ballot_sync(kFullMask, valid && flag == TileFlag::X);
    const unsigned pmask = __ballot_sync(kFullMask, valid && flag == TileFlag::P);
    const int last = pmask ? __ffs(pmask) - 1 : 31;
    const unsigned upto = last == 31 ? kFullMask : (2u << last) - 1;
    Window<T> r;
    r.has_p = pmask != 0;
    r.any_x = (xmask & upto) != 0;
    const int top = r.has_p ? last - 1 : count - 1;  // the first lane folded on (warp-uniform)
    const T nearest_p = shfl_idx(value, last);
    T acc = r.has_p ? nearest_p : seed;
#pragma unroll
    for (int k = 31; k >= 0; --k) {
      const T v = shfl_idx(value, k);
      if (k <= top) acc = op(acc, v);
    }
    r.combined = acc;
    const bool waits = w == 1 ? !r.has_p : r.any_x;
    if constexpr (Recorder::kTraced) {
      if (!waits) {
        if (valid && lane <= last) rec_.inspect(tile, target, flag, value, spins_);
      } else {
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
  __device__ T* staged_chunk(int k) const { return staged_chunk_of(static_cast<int>(threadIdx.x >> 5), k); }
  // ... of warp segment `seg` (this lane's place in it).
  __device__ T* staged_chunk_of(int seg, int k) const {
    return stage_ + seg * 32 * Items + (k * 32 + static_cast<int>(threadIdx.x & 31)) * V;
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
  // An ordered inclusive scan of one value a lane across the warp (the earlier lane on the left).
  template <class Op>
  __device__ static T warp_inclusive(Op op, T s) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const T left = shfl_up(s, d);
      if (lane >= d) s = op(left, s);
    }
    return s;
  }
  // Staged: the warp-local inclusive scan of warp segment `seg` written over its staged elements,
  // this lane its own pieces of each chunk (a chunk's prefix within the segment carried from chunk to
  // chunk); returns the segment's total in every lane. Any warp may scan any segment once the
  // segment's copies are visible to it.
  template <class Op>
  __device__ T scan_segment(Op op, int seg) const {
    const int lane = threadIdx.x & 31;
    T carry = op.identity();
#pragma unroll
    for (int k = 0; k < Chunks; ++k) {
      T v[V];
      T* src = staged_chunk_of(seg, k);
      read_chunk(src, v);
#pragma unroll
      for (int j = 1; j < V; ++j) v[j] = op(v[j - 1], v[j]);
      const T s = warp_inclusive(op, v[V - 1]);
      const T before = shfl_up(s, 1);
      const T pre = lane == 0 ? carry : op(carry, before);  // the chunk's prefix within the segment
#pragma unroll
      for (int j = 0; j < V; ++j) v[j] = op(pre, v[j]);
      write_chunk(src, v);
      carry = op(carry, shfl_idx(s, 31));
    }
    return carry;
  }
  // V values to or from a lane's piece of the staging area: one 16-byte shared access where the
  // type divides 16 bytes.
  __device__ static void write_chunk(T* dst, const T (&v)[V]) {
    if constexpr (V * sizeof(T) == 16) {
      *reinterpret_cast<uint4*>(dst) = pack16(v);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) dst[j] = v[j];
    }
  }
  __device__ static void read_chunk(const T* src, T (&v)[V]) {
    if constexpr (V * sizeof(T) == 16) {
      unpack16(*reinterpret_cast<const uint4*>(src), v);
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) v[j] = src[j];
    }
  }
  // Staged: V values over the lane's elements of chunk k. Only the lane that copied them reads them
  // again, so no barrier is needed (early aggregates aside: see reduce_tile).
  __device__ void put_chunk(int k, const T (&v)[V]) const { write_chunk(staged_chunk(k), v); }
  // The lane's V elements of chunk k: from the registers, or from the staging area.
  __device__ void chunk(const Items_& items, int k, T (&v)[V]) const {
    if constexpr (Staged) {
      read_chunk(staged_chunk(k), v);
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
  using X = TileExec<T, Recorder, Config::kItems, Config::kStreaming, Config::kStaged, persistent, Config::kBulk,
                     Config::kEarly>;
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
