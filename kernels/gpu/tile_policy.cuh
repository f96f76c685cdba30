// The tile kernels' policies: elements per thread of each value type, the compile-time TileConfig
// (cache hints, launch bounds, staged or register tiles, persistent blocks, bulk copies) with the
// default every scan uses, and the run-time TileKnobs. Why the defaults are what they are, with the
// figures, is in docs/performance.md.
#pragma once

#include <cstdint>
#include <type_traits>

namespace sv::gpu {

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

// Run-time knobs. The look-back's polling sleeps backoff_min_ns after the first poll that must
// wait, doubling up to backoff_max_ns (0: poll without sleeping). prefetch: with dynamic tile ids, a
// block asks L2 for the tile of its own index while its tile id is on the way; blocks start nearly
// in index order, so that is usually its tile, and otherwise one that another block takes at about
// the same time, so the prefetch is seldom wasted.
//
// epoch and tile_base: descriptors are not zeroed before each run, nor is the tile counter
// (gpu/tile_descriptors.cuh says how a flag word carries its epoch; gpu/single_pass_state.cuh owns
// both from run to run). A block's tile is the counter's value less tile_base. Epoch 0 with
// tile_base 0 is the plain scheme: descriptors and counter zeroed before the launch.
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

// The compile-time tile policy: elements per thread, cache hints, the launch bounds (a block size
// bound and the blocks of that size per SM the registers must allow) and where the tile waits for
// its loads (shared memory or registers).
//
// Persistent (staged only): a single-pass kernel with dynamic tile ids launches only the blocks that
// fit on the device at once, and each block scans tile after tile: once a tile knows its prefix, the
// block takes the next tile and starts its copies chunk by chunk as it stores the tile's outputs
// (TileExec, persistent blocks). Measured slower than fresh blocks, so no default uses it: a fresh
// block asks L2 for its likely tile while its id is on the way, a persistent block's copies wait for
// the id (docs/performance.md).
//
// EarlyAggregate (staged, one tile a block; sums only, TileExec::reduce_tile): the tile's aggregate
// is a plain sum, published before the tile is scanned; the block's other warps scan the tile while
// its look-back warp looks back.
template <int ItemsPerThread, bool StreamingHints = false, int BoundThreads = 1024, int BoundBlocks = 1,
          bool StagedTiles = false, bool PersistentBlocks = false, int BulkCopies = 0, bool EarlyAggregate = false>
struct TileConfig {
  static constexpr int kItems = ItemsPerThread;
  static constexpr bool kStreaming = StreamingHints;
  static constexpr int kMaxThreads = BoundThreads;
  static constexpr int kMinBlocks = BoundBlocks;
  static constexpr bool kStaged = StagedTiles;
  static constexpr bool kPersistent = PersistentBlocks;
  static constexpr int kBulk = BulkCopies;
  static constexpr bool kEarly = EarlyAggregate;
  static_assert(!EarlyAggregate || (StagedTiles && !PersistentBlocks), "early aggregates are of staged tiles, one a block");
  static_assert(!PersistentBlocks || StagedTiles, "persistent blocks stage their tiles");
  static_assert(BulkCopies == 0 || (StagedTiles && !PersistentBlocks && !StreamingHints),
                "bulk copies stage one tile a block, without cache hints");
};

// Whether a tile kernel runs persistent blocks (with dynamic tile ids): traced runs keep one tile a
// block, the schedule the look-back view draws and the lesson describes.
template <class Config, class Recorder>
constexpr bool tile_kernel_persistent() {
  return Config::kPersistent && !Recorder::kTraced;
}

// The policy every scan kernel uses unless a benchmark asks for another: staged tiles (the elements
// wait in shared memory, so a thread needs few registers and more tiles are in flight); 24 KB tiles
// for numbers (24 items a thread for 4-byte values, 12 for 8-byte ones) and, in the single-pass
// kernels, a register bound of 32 (8 blocks of 256 threads a multiprocessor, 192 KB of tiles in
// flight; device_executor.cu PassConfig). Intervals and segmented pairs keep their items, unbounded.
// Block size is kTileThreads (device/device_options.hpp), the emulator's too.
template <class T>
using DefaultTileConfig = TileConfig<tile_items_per_thread<T>(), false, 1024, tile_register_bound<T>() ? 2 : 1, true>;

}  // namespace sv::gpu
