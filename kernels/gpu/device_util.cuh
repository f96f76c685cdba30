// Small device helpers: the global nanosecond timer, the SM id, and the seeded race amplifier.
#pragma once

#include <cstdint>
#include <cstring>

namespace sv::gpu {

__device__ inline std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ inline std::uint32_t sm_id() {
  std::uint32_t s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__host__ __device__ inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The race amplifier: at the start of step k each warp sleeps a seeded pseudo-random 0..max_ns, so
// warps enter a barrier interval in a different order each run and a race between them shows. The
// untraced kernels use 4 µs (a step takes well under one); traced steps are slower (every access
// appends an event), so they use 64 µs. seed 0 = off.
__device__ inline void amplify_delay(std::uint64_t seed, int k, unsigned max_ns) {
  if (seed == 0) return;
  const std::uint64_t warp = threadIdx.x / 32;
  const auto ns = static_cast<unsigned>(splitmix64(seed ^ (warp << 32) ^ static_cast<std::uint64_t>(k) << 16) % max_ns);
  __nanosleep(ns);
}

// __shfl_up_sync within this thread's group of `width` lanes (a power of two up to 32; the mask is
// the group's, so a group may shuffle while the rest of its hardware warp does not), for any
// trivially copyable T, 32 bits at a time. A lane below `delta` in its group keeps its own value.
template <class T>
__device__ T shfl_up_in_group(const T& v, int delta, int width) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = width >= 32 ? 0xffffffffu : ((1u << width) - 1u) << (lane - lane % static_cast<unsigned>(width));
  constexpr int kWords = (sizeof(T) + 3) / 4;
  unsigned words[kWords] = {};
  memcpy(words, &v, sizeof(T));
  for (int i = 0; i < kWords; ++i) words[i] = __shfl_up_sync(mask, words[i], static_cast<unsigned>(delta), width);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

}  // namespace sv::gpu
