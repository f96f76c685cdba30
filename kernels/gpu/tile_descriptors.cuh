// The single-pass scans' descriptors, one per tile, and the protocol that reads and writes them.
//
// Layout. For 4-byte values with the fence on, the flag and the value are one 64-bit word (flag word
// << 32 | value bits), stored and loaded whole; for 8-byte values with the fence on, one 16-byte word
// (flag word, value), as CUB's ScanTileState packs them. Otherwise three arrays, the aggregates (A),
// the inclusive prefixes (P) and the flags: the writer stores the value in the slot of its flag,
// __threadfence(), then the flag; the reader loads the flag, __threadfence(), then the value from the
// slot of the flag it saw (one shared value slot would let a reader that saw A read the P stored
// after it). fence=off drops both fences, so a reader can see the flag before the value.
//
// Flags. A flag word is (epoch << 2 | flag) and a word of another epoch reads as X, so zeroed memory
// is "nothing published" and a run needs no memset: the host zeroes the descriptors once and counts
// the epoch up by one a run (gpu/single_pass_state.cuh).
//
// Accesses are relaxed at GPU scope (ld/st.relaxed.gpu), which the compiler neither caches nor
// reorders; packed descriptors are published with an atomic exchange (see store_packed_descriptor).
//
// The hardware assumption. A 16-byte descriptor is written by one 16-byte access (an exchange on
// sm_90 and later, a v2.u64 store before) and read by one (ld.relaxed.gpu.v2.u64). The PTX memory
// model promises single-copy atomicity per 8-byte element of a vector access only, so by the model
// a reader could see this run's flag word with the previous run's value word: a torn read, which
// gives a wrong prefix. scanviz assumes, as CUB does for its 16-byte tile descriptors, that NVIDIA
// GPUs perform an aligned 16-byte access whole. Only the 16-byte descriptors rely on it: 4-byte
// values share one 8-byte word, which the model makes single-copy atomic, and the unpacked layout
// orders its separate words with fences. The GPU test "gpu device: 16-byte descriptors under stress" checks
// every output of many runs whose descriptors held other values the run before, and the emulator's
// `torn=on` switch shows what a torn read would do.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "core/hd.hpp"
#include "core/tile_flag.hpp"
#include "gpu/device_util.cuh"
#include "gpu/ptx.cuh"
#include "gpu/tile_policy.cuh"

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

// Descriptor layout, shared by the host (sizes, memset) and the kernels.
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
inline constexpr unsigned kMaxEpoch = (1u << 30) - 1;  // a flag word keeps 30 bits of epoch

// Packed descriptors (packed_descriptors): a flag word (epoch << 2 | flag, TileKnobs::epoch; a word
// of another epoch reads as X) and the value, one relaxed access: 8 bytes for 4-byte values (flag
// word in the high half), 16 for 8-byte ones (flag word first). Descriptor `tile` of `base`.
__device__ __forceinline__ unsigned descriptor_flag_word(unsigned epoch, TileFlag flag) {
  return epoch << 2 | static_cast<unsigned>(flag);
}
__device__ __forceinline__ TileFlag descriptor_flag(unsigned epoch, unsigned word) {
  return (word >> 2) == epoch ? static_cast<TileFlag>(word & 3u) : TileFlag::X;
}
// Published with an atomic exchange, not a store: a descriptor stored behind the multiprocessor's
// output stores took microseconds to be seen (docs/performance.md).
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

}  // namespace sv::gpu
