// The PTX the tile kernels are written with, each wrapper one instruction or a short fixed sequence:
// cp.async copies into shared memory and L2 cache policies (sm_80 on), the bulk copies of the tensor
// memory accelerator with their mbarriers (sm_90 on), warp shuffles of any trivially copyable T,
// relaxed GPU-scope loads, stores and exchanges, and 16-byte global accesses. Built for an older GPU,
// each keeps its meaning with the instructions that GPU has (or, for the bulk copies, is not
// compiled and the callers take another path).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

namespace sv::gpu {

// Elements of one 16-byte vector access (1 where the type does not divide 16 bytes).
template <class T>
constexpr int vector_width() {
  return 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;
}

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
// Measured no faster than the cp.async copies, so no default uses them (docs/performance.md).
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
__device__ __forceinline__ T shfl_xor(const T& v, int mask) {
  return shfl_words(v, [mask](unsigned x) { return __shfl_xor_sync(kFullMask, x, mask); });
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

}  // namespace sv::gpu
